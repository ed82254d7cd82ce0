// `hookloop listen`'s retention: the same as the app's and `hookloop serve`'s (the data folder's
// saved retention, default 30 days and 1024 MB, applied soon after start and every minute, in
// small batches beside capture). --keep-days / --keep-mb change the folder's retention (saved, as
// History in the app or `hookloop prune --save` does). A pass that deleted something logs a line.
import { RETENTION_LIMITS, type RetentionSettings } from '../../shared/contract'
import { createRealClock } from '../engine/clock'
import type { Receiver } from '../engine/receiver'
import { checkRetention, createRetention, type Retention } from '../engine/retention'
import type { OptionSpecs } from './command-args'
import type { ListenStore } from './listen-store'
import { describePrune } from './prune'
import { escapeControls } from './safe-log'
import { UsageError } from './usage-error'

export const RETENTION_OPTIONS = {
  'keep-days': { type: 'number', whole: true, none: true, ...RETENTION_LIMITS.days, value: 'N', help: `keep the history N days ("none": no age limit); saved as the data folder's retention` },
  'keep-mb': { type: 'number', whole: true, none: true, ...RETENTION_LIMITS.maxMb, value: 'N', help: 'keep the store under N MB ("none": no size limit); saved likewise' },
} as const satisfies OptionSpecs

// The first pass soon after start (the CLI starts in well under a second), then every minute.
const FIRST_PASS_MS = 1000

/** The flags' change to the retention (checked before the data folder is opened), or null when neither is given. */
export function retentionFlags({ 'keep-days': days, 'keep-mb': maxMb }: { 'keep-days'?: number | null; 'keep-mb'?: number | null }): Partial<RetentionSettings> | null {
  if (days === undefined && maxMb === undefined) return null
  return { ...(days === undefined ? {} : { days }), ...(maxMb === undefined ? {} : { maxMb }) }
}

/** The start-up line saying what is kept. */
export function describeRetention(s: RetentionSettings): string {
  const days = s.days === null ? 'no age limit' : `${s.days} day${s.days === 1 ? '' : 's'}`
  return `Retention: ${days}, ${s.maxMb === null ? 'no size limit' : `at most ${s.maxMb} MB`} (requests and settled deliveries; applied every minute)`
}

export async function startListenRetention(store: ListenStore, receiver: Receiver, change: Partial<RetentionSettings> | null, write: (line: string) => void): Promise<Retention> {
  const clock = createRealClock({ unref: true })
  const retention = createRetention({
    // A data folder's: the receiver's connection (its commits run on a thread of their own), see engine.ts.
    engine: store.engine,
    clock,
    timers: clock,
    capture: store.capture(receiver),
    firstPassMs: FIRST_PASS_MS,
    onPruned: (result) => write(`${new Date().toISOString()}  (retention)  ${describePrune(result)}`),
    onError: (error) => write(`${new Date().toISOString()}  (retention)  could not prune: ${escapeControls(error instanceof Error ? error.message : String(error))}`),
  })
  if (change) {
    try {
      await retention.set(checkRetention({ ...(await retention.settings()), ...change }))
    } catch (error) {
      await retention.stop()
      throw error instanceof RangeError ? new UsageError(`--keep-days/--keep-mb: ${error.message}`) : error
    }
  }
  return retention
}
