// Breakpoints: stop a matching request on the receiver, let a person look at it, change it and let
// it go. A breakpoint is a rule whose one step is "hold": the same matchers as a rule's (method,
// path, header, query, and a JSON path in the body — the event-type matcher), checked by the same
// compiled matchers (electron/engine/receiver/rule-engine.ts). It is not a step of a rule because a
// hold is not an answer: after it the endpoint's rules still answer (or the person does), so a
// breakpoint sits before the rules, never in their place. The behaviour is in
// electron/engine/receiver/breakpoints.ts.
import { z } from 'zod'
import { DefinitionError, toDefinitionError } from './errors'
import { explainMatcher, matcherSchema, type Matcher } from './rules'

/** The matchers that describe a request itself (counters and draws are a fault's business). */
export const BREAKPOINT_MATCHER_TYPES = ['method', 'path', 'header', 'query', 'event-type'] as const

const status = z.number().int().min(100).max(599)
const headerValue = z.string().regex(/^[^\r\n\0]*$/, 'header values may not contain CR, LF or NUL')
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name')

/** What a hold does when its limit runs out: let the request go as it came, or answer it. */
export const expirySchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('release') }),
  z.strictObject({ action: z.literal('answer'), status }),
])
export type HoldExpiry = z.infer<typeof expirySchema>

export const breakpointSchema = z.strictObject({
  id: z.string().min(1).max(200).optional(),
  name: z.string().max(200).optional(),
  enabled: z.boolean().default(true),
  /** Only this endpoint's requests; absent = every endpoint's. */
  endpointId: z.string().min(1).nullable().optional(),
  matchers: z
    .array(matcherSchema)
    .default([])
    .refine((list) => list.every((m) => (BREAKPOINT_MATCHER_TYPES as readonly string[]).includes(m.type)), { message: `a breakpoint matches by ${BREAKPOINT_MATCHER_TYPES.join(', ')}` }),
  /** How long a request is held at most; absent = below the endpoint's provider's wait (shared/providers/waits.ts). */
  limitMs: z.number().int().min(100).max(24 * 3600 * 1000).optional(),
  onExpiry: expirySchema.default({ action: 'release' }),
  /** Forward mode: hold your app's answer too, on its way back to the sender (with the same limit and expiry). */
  holdAnswer: z.boolean().optional(),
})
export type BreakpointInput = z.input<typeof breakpointSchema>

export interface Breakpoint {
  id: string
  name?: string
  enabled: boolean
  endpointId: string | null
  matchers: Matcher[]
  limitMs?: number
  onExpiry: HoldExpiry
  holdAnswer?: boolean
  /**
   * A breakpoint for every endpoint: the workspace whose endpoints it holds (absent: `default`).
   * Set by the receiver from who made it, never by the one asking: not in breakpointSchema.
   */
  workspaceId?: string
}

/** Validates a breakpoint when it is made; throws DefinitionError naming the field. */
export function parseBreakpoint(input: unknown, id: string): Breakpoint {
  const result = breakpointSchema.safeParse(input)
  if (!result.success) throw toDefinitionError(result.error, input, '')
  const b = result.data
  return { id: b.id ?? id, ...(b.name ? { name: b.name } : {}), enabled: b.enabled, endpointId: b.endpointId ?? null, matchers: b.matchers, ...(b.limitMs !== undefined ? { limitMs: b.limitMs } : {}), onExpiry: b.onExpiry, ...(b.holdAnswer ? { holdAnswer: true } : {}) }
}

export function explainExpiry(expiry: HoldExpiry): string {
  return expiry.action === 'release' ? 'release it as it came' : `answer ${expiry.status}`
}

export function explainBreakpoint(b: Breakpoint): string {
  const when = b.matchers.length === 0 ? 'every request' : b.matchers.map(explainMatcher).join(' and ')
  const limit = b.limitMs === undefined ? "below the provider's wait" : `${b.limitMs / 1000} s`
  return `Hold ${when}${b.endpointId ? '' : ' on any endpoint'}${b.holdAnswer ? ", and your app's answer," : ''} for up to ${limit}, then ${explainExpiry(b.onExpiry)}${b.enabled ? '' : ' (disabled)'}`
}

// ---------------------------------------------------------------- acting on a held request
/** Changes to a held request before it goes on: headers set (replacing those of the same name), a new body, the answer's status. */
export const holdEditSchema = z.strictObject({
  headers: z.array(z.tuple([headerName, headerValue])).optional(),
  /** Names of headers to remove. */
  removeHeaders: z.array(headerName).optional(),
  /** The new body as text (UTF-8). */
  body: z.string().optional(),
  /** The status Hookloop answers with instead of the one its rules planned (a plain reply only). */
  status: status.optional(),
  /** Sign the edited request again with the endpoint's scheme and first secret. */
  resign: z.boolean().optional(),
})
export type HoldEdit = z.infer<typeof holdEditSchema>

export const handAnswerSchema = z.strictObject({
  status,
  headers: z.array(z.tuple([headerName, headerValue])).optional(),
  body: z.string().optional(),
})
export type HandAnswer = z.infer<typeof handAnswerSchema>

/** What a person (or the limit) decided for a held request. */
export type HoldDecision =
  | { action: 'release'; edit?: HoldEdit }
  | { action: 'answer'; answer: HandAnswer }
  | { action: 'drop' }

/** How a hold ended, as recorded on the request. */
export const HOLD_ENDS = ['released', 'edited', 'answered', 'dropped', 'expired', 'client_gone'] as const
export type HoldEnd = (typeof HOLD_ENDS)[number]

/** What the request's row keeps of its hold (in its fault, beside what the rules did). */
export interface HoldRecord {
  breakpointId: string
  heldMs: number
  end: HoldEnd
  /** For an expiry: what the limit did. */
  expiry?: HoldExpiry
  /** The edit applied (the row's headers and body stay as received: the original). */
  edit?: { headers: [string, string][]; body: string | null; status: number | null; resigned: boolean }
  /** The answer given by hand. */
  answer?: HandAnswer
  /** Forward mode, `holdAnswer`: the hold of your app's answer on its way back (its edit is of the answer). */
  answerHold?: Omit<HoldRecord, 'breakpointId' | 'answerHold'>
}

/** A held request as UIs show it at once: its full content, and when its limit runs out. */
export interface HeldRequest {
  /** `request`: on its way in; `answer`: your app's answer on its way back (forward mode), whose status, headers and body these are. */
  phase: 'request' | 'answer'
  /** The app's status, in the answer phase. */
  status: number | null
  requestId: number
  breakpointId: string
  endpointId: string | null
  endpointSlug: string | null
  method: string
  path: string
  query: string
  headers: [string, string][]
  /** The body as text (UTF-8, replacement characters where it is not). */
  body: string
  bodySize: number
  heldAt: number
  /** Wall time the limit runs out. */
  expiresAt: number
  onExpiry: HoldExpiry
  /** What the endpoint's rules would answer once released, in words. */
  plan: string
  /** Whether a re-sign is possible (the endpoint has a scheme and a secret). */
  canResign: boolean
}

export function explainHold(hold: Omit<HoldRecord, 'breakpointId'>): string {
  const first = explainHoldEnd(hold)
  return hold.answerHold ? `${first}; your app's answer ${explainHoldEnd(hold.answerHold)}` : first
}

function explainHoldEnd(hold: Omit<HoldRecord, 'breakpointId' | 'answerHold'>): string {
  const held = `held ${hold.heldMs} ms`
  switch (hold.end) {
    case 'released':
      return `${held}, released as it came`
    case 'edited':
      return `${held}, edited${hold.edit?.resigned ? ' and re-signed' : ''}, released`
    case 'answered':
      return `${held}, answered ${hold.answer?.status ?? ''} by hand`
    case 'dropped':
      return `${held}, dropped (connection closed)`
    case 'expired':
      return `${held}, limit reached: ${hold.expiry ? explainExpiry(hold.expiry) : 'released'}`
    case 'client_gone':
      return `${held}, the client went away`
    default: {
      const never: never = hold.end
      return never
    }
  }
}

// ---------------------------------------------------------------- the terminal's spelling
/**
 * A breakpoint as typed on a command line (`hookloop listen --break 'path=/h/pay method=POST'`):
 * words of `key=value`, all of which must match — `method=POST`, `path=/h/pay` (and under it),
 * `header=NAME` or `header=NAME:VALUE`, `query=NAME` or `query=NAME:VALUE`, `json.PATH=VALUE` (a
 * field of the JSON body), `limit=SECONDS`, `expire=release` or `expire=STATUS`, `answer=hold`
 * (forward mode: hold your app's answer too). Throws
 * DefinitionError naming the word.
 */
export function parseBreakMatch(text: string): BreakpointInput {
  const matchers: Matcher[] = []
  const out: BreakpointInput = { matchers }
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf('=')
    if (eq <= 0) throw new DefinitionError(word, 'expected KEY=VALUE (method, path, header, query, json.PATH, limit, expire, answer)')
    const key = word.slice(0, eq)
    const value = word.slice(eq + 1)
    const [name = '', ...rest] = value.split(':')
    const named = rest.length > 0 ? { name, value: rest.join(':') } : { name }
    if (key === 'method') matchers.push({ type: 'method', method: value })
    else if (key === 'path') matchers.push({ type: 'path', path: value, prefix: true })
    else if (key === 'header') matchers.push({ type: 'header', ...named })
    else if (key === 'query') matchers.push({ type: 'query', ...named })
    else if (key.startsWith('json.') && key.length > 5) matchers.push({ type: 'event-type', path: key.slice(5), value })
    else if (key === 'limit') {
      const seconds = Number(value)
      if (!Number.isFinite(seconds) || seconds <= 0) throw new DefinitionError(word, 'limit is a number of seconds')
      out.limitMs = Math.round(seconds * 1000)
    } else if (key === 'answer' && (value === 'hold' || value === 'pass')) {
      if (value === 'hold') out.holdAnswer = true
    } else if (key === 'expire') {
      out.onExpiry = value === 'release' ? { action: 'release' } : { action: 'answer', status: Number(value) }
    } else throw new DefinitionError(word, `unknown key "${key}" (method, path, header, query, json.PATH, limit, expire, answer)`)
  }
  const checked = breakpointSchema.safeParse(out)
  if (!checked.success) throw toDefinitionError(checked.error, out, '')
  return out
}
