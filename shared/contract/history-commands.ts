// The contract's commands for the captured history: its size and retention, and Clear history.
// Kept beside contract.ts and spread into it, one file per capability.
import { z } from 'zod'
import { RETENTION_LIMITS, type PruneResult, type RetentionSettings, type StoreSizeView } from './history'

const limit = (bounds: { min: number; max: number }, what: string) =>
  z
    .number()
    .int({ message: `${what} is a whole number` })
    .min(bounds.min, { message: `${what} is at least ${bounds.min}` })
    .max(bounds.max, { message: `${what} is at most ${bounds.max}` })
    .nullable()

export const historySchemas = {
  /** The store's size, its oldest capture and the retention settings. */
  'history.size': z.object({}).strict(),
  /** Deletes every captured request, or one endpoint's. */
  'history.clear': z.object({ endpointId: z.string().min(1).max(200).optional() }).strict(),
  /** Sets how long captures are kept (null = no limit of that kind); applied at once. */
  'history.setRetention': z.object({ days: limit(RETENTION_LIMITS.days, 'days'), maxMb: limit(RETENTION_LIMITS.maxMb, 'maxMb') }).strict(),
} as const

export type HistoryCommandName = keyof typeof historySchemas

export interface HistoryResponses {
  'history.size': StoreSizeView
  'history.clear': PruneResult
  'history.setRetention': RetentionSettings & { size: StoreSizeView }
}
