// Forward mode as plain data: the `forward` and `forward-copy` steps, an endpoint's default
// targets, and the record of one leg to a target. Definitions and explain() live here; the
// behaviour lives in electron/engine/receiver/forward.ts.
import { z } from 'zod'

export const DEFAULT_FORWARD_TIMEOUT_MS = 30_000
const ms = z.number().int().nonnegative().max(24 * 3600 * 1000)

/** Why a target URL is refused, or null when it is a usable http(s) URL. */
export function targetUrlProblem(text: string): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return `"${text.slice(0, 200)}" is not a URL (use http://127.0.0.1:3000/webhooks)`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `a forward target must be http:// or https://, not ${url.protocol}`
  if (url.username || url.password) return 'a forward target may not carry a user name or password'
  if (url.hash) return 'a forward target may not have a #fragment'
  return null
}

export const targetUrlSchema = z.string().superRefine((text, ctx) => {
  const problem = targetUrlProblem(text)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

const targetFields = {
  url: targetUrlSchema,
  /** Longest wait for the target's answer (headers and body); default 30 s. */
  timeout_ms: ms.min(1).optional(),
  /** Send the original Host header instead of the target's. */
  keep_host: z.boolean().optional(),
  /** Wait this long (on the engine's clock) before sending; the request goes even if the sender left meanwhile. */
  delay_ms: ms.optional(),
}

/** Final: send to the target and answer the sender with the target's answer. */
export const forwardStepSchema = z.strictObject({
  type: z.literal('forward'),
  ...targetFields,
  /** When the target does not answer in time: answer 504 (default), or hold until the sender gives up. */
  on_timeout: z.enum(['504', 'hold']).optional(),
})

/** Not final: send a copy to the target and go on with the next step (wait: after its answer). */
export const forwardCopyStepSchema = z.strictObject({
  type: z.literal('forward-copy'),
  ...targetFields,
  /** Go on only once the target has answered (or failed): the app has processed it before the sender hears back. */
  wait: z.boolean().optional(),
})

export const FORWARD_STEP_TYPES = ['forward', 'forward-copy'] as const
export type ForwardStepType = (typeof FORWARD_STEP_TYPES)[number]
export type ForwardStep = z.infer<typeof forwardStepSchema>
export type ForwardCopyStep = z.infer<typeof forwardCopyStepSchema>

function host(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

export function explainForward(step: ForwardStep | ForwardCopyStep): string {
  const after = step.delay_ms ? ` after ${formatMs(step.delay_ms)}` : ''
  if (step.type === 'forward') return `forward to ${host(step.url)}${after} and answer with its answer`
  return `send a copy to ${host(step.url)}${after}${step.wait ? ' and wait for its answer' : ' in the background'}`
}

function formatMs(value: number): string {
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`
}

// ---------------------------------------------------------------- endpoint default targets
/** An endpoint's `forward_to`: one URL or several (fan-out: the first answers, the others get copies). */
export const forwardToSchema = z.union([targetUrlSchema, z.array(targetUrlSchema).min(1).max(10)])

export function forwardTargets(value: string | string[] | null | undefined): string[] {
  if (value == null) return []
  return Array.isArray(value) ? [...value] : [value]
}

// ---------------------------------------------------------------- the record of one leg
export const FORWARD_LEG_KINDS = ['forward', 'forward-copy', 'resend'] as const
export type ForwardLegKind = (typeof FORWARD_LEG_KINDS)[number]

/** How a leg ended: the target answered, or why it did not. */
export const FORWARD_LEG_OUTCOMES = ['answered', 'refused', 'reset', 'unreachable', 'timed_out', 'aborted', 'error'] as const
export type ForwardLegOutcome = (typeof FORWARD_LEG_OUTCOMES)[number]

export interface ForwardLeg {
  id: number
  /** The captured request this leg carries (requests.id). */
  requestId: number
  kind: ForwardLegKind
  targetUrl: string
  sentAt: number
  /** Exactly what was sent. */
  request: { method: string; url: string; headers: [string, string][]; body: Uint8Array }
  /** The target's answer; null fields when it did not answer. */
  response: { status: number | null; headers: [string, string][]; body: Uint8Array | null; bodySize: number; bodyTruncated: boolean }
  /** From sending the request to the end of the target's answer (or the failure). */
  latencyMs: number | null
  outcome: ForwardLegOutcome
  /** The reason in words ("connection refused (ECONNREFUSED)"), null when answered. */
  error: string | null
}

/** The leg in a sentence, for logs and the inspector. */
export function explainLeg(leg: Pick<ForwardLeg, 'outcome' | 'response' | 'latencyMs' | 'error'>): string {
  const ms = leg.latencyMs === null ? '' : ` in ${leg.latencyMs} ms`
  switch (leg.outcome) {
    case 'answered':
      return `your app answered ${leg.response.status ?? '?'}${ms}${leg.response.bodyTruncated ? ' (body stored truncated)' : ''}`
    case 'refused':
    case 'unreachable':
    case 'reset':
    case 'error':
      return `your app is down: ${leg.error ?? leg.outcome}${ms}`
    case 'timed_out':
      return `your app did not answer in time${ms}`
    case 'aborted':
      return `not sent to the end: ${leg.error ?? 'the receiver stopped'}`
    default: {
      const never: never = leg.outcome
      return never
    }
  }
}
