// The contract's commands for breakpoints (docs/breakpoints.md): the list, adding and removing one,
// and acting on a held request. Kept beside contract.ts and spread into it, one file per capability.
// The breakpoint itself is validated by the engine (shared/receiver/breakpoints.ts), which names
// the field it refuses.
import { z } from 'zod'
import { breakpointSchema, handAnswerSchema, holdEditSchema, type Breakpoint, type HeldRequest, type HoldRecord } from '../receiver'
import type { ProviderWait } from '../providers'

const requestId = z.number().int().nonnegative()

export const breakpointSchemas = {
  /** The breakpoints, the requests held now, and how long each provider waits. */
  'breakpoint.list': z.object({}).strict(),
  /** Adds a breakpoint, or replaces the one with the same id. */
  'breakpoint.put': z.object({ breakpoint: breakpointSchema }).strict(),
  'breakpoint.remove': z.object({ id: z.string().min(1).max(200) }).strict(),
  /** Lets a held request go on: as it came, or edited (headers, body, the answer's status; re-signed). */
  'held.release': z.object({ requestId, edit: holdEditSchema.optional() }).strict(),
  /** Answers a held request by hand: its rules do not run. */
  'held.answer': z.object({ requestId, answer: handAnswerSchema }).strict(),
  /** Closes a held request's connection without an answer. */
  'held.drop': z.object({ requestId }).strict(),
} as const

export type BreakpointCommandName = keyof typeof breakpointSchemas

/** A breakpoint as UIs list it: its definition and the sentence that says it. */
export type BreakpointView = Breakpoint & { explain: string }

export interface BreakpointListView {
  breakpoints: BreakpointView[]
  held: HeldRequest[]
  waits: ProviderWait[]
}

export interface BreakpointResponses {
  'breakpoint.list': BreakpointListView
  'breakpoint.put': BreakpointView
  'breakpoint.remove': { ok: true }
  'held.release': { ok: true }
  'held.answer': { ok: true }
  'held.drop': { ok: true }
}

/** The events UIs get about holds: at once, with the held request's whole content. */
export interface BreakpointEvents {
  'breakpoint.held': HeldRequest
  /** `endpointId`: the held request's endpoint, whose workspace's sockets are told (host/workspace-scope.ts). */
  'breakpoint.released': { requestId: number; endpointId: string | null; hold: HoldRecord }
  'breakpoints.changed': { breakpoints: BreakpointView[] }
}
