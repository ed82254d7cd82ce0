// Forward mode in scenario files: the app under test (`app`, a base URL the file's forward targets
// start with, replaced at run time by `hookloop run --app URL` or HOOKLOOP_APP_URL, so a CI job
// points the same file at wherever it started the app) and `expect.forwards`, what a forward
// target saw and answered: how many requests reached it, its statuses and outcomes, its latency,
// for one endpoint or one event when named.
import { z } from 'zod'
import { FORWARD_LEG_OUTCOMES, targetUrlSchema } from '../receiver'
import type { Rule, Step } from '../receiver'

const localId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a name is letters, digits, "_", "." and "-" (starting with a letter or digit)')

/** The app under test: the base URL this file's forward targets are written with. */
export const scenarioAppSchema = targetUrlSchema

export const forwardExpectationSchema = z.strictObject({
  /** Legs to targets starting with this URL; the scenario's `app` when absent. */
  target: targetUrlSchema.optional(),
  /** Only legs of requests that reached this endpoint (slug). */
  endpoint: z.string().min(1).optional(),
  /** Only legs carrying this event (scenario-local id): the requests its attempts were. */
  event: localId.optional(),
  /** forward (the app answered the sender) or forward-copy (a copy); both when absent. */
  kind: z.enum(['forward', 'forward-copy']).optional(),
  /** How many requests reached the target. */
  requests: z.number().int().nonnegative().optional(),
  /** The target's status per leg, in the order sent; null = it did not answer. */
  statuses: z.array(z.number().int().min(100).max(599).nullable()).optional(),
  /** How each leg ended: answered, refused, reset, unreachable, timed_out, aborted, error. */
  outcomes: z.array(z.enum(FORWARD_LEG_OUTCOMES)).optional(),
  /** Every leg's latency (send to the end of the answer), ms, on the scenario clock. */
  latency_ms: z.strictObject({ max: z.number().int().nonnegative().optional(), min: z.number().int().nonnegative().optional() }).optional(),
})
export type ForwardExpectation = z.infer<typeof forwardExpectationSchema>

/** One leg to a forward target during a run, as the report lists it. */
export interface ReportForwardLeg {
  request_id: number
  /** The endpoint (slug) the request reached. */
  endpoint: string | null
  /** The scenario event the request carried (an attempt of its delivery), when it did. */
  event: string | null
  kind: string
  target_url: string
  /** The exact URL sent to. */
  url: string
  /** ms since the run started, on the scenario clock. */
  run_ms: number
  status: number | null
  outcome: string
  latency_ms: number | null
  error: string | null
}

function retargetUrl(url: string, from: string, to: string): string {
  return url.startsWith(from) ? `${to}${url.slice(from.length)}` : url
}

function retargetSteps(steps: readonly Step[], from: string, to: string): Step[] {
  return steps.map((step) => (step.type === 'forward' || step.type === 'forward-copy' ? { ...step, url: retargetUrl(step.url, from, to) } : step))
}

/** A rule with every forward target under `from` moved under `to`. */
export function retargetRule(rule: Rule, from: string, to: string): Rule {
  return {
    ...rule,
    ...(rule.steps ? { steps: retargetSteps(rule.steps, from, to) } : {}),
    ...(rule.sequence ? { sequence: { ...rule.sequence, items: rule.sequence.items.map((items) => retargetSteps(items, from, to)) } } : {}),
  }
}

/** An endpoint's forward_to moved from one base URL to another. */
export function retargetForwardTo(value: string | string[] | null | undefined, from: string, to: string): string | string[] | null | undefined {
  if (value == null) return value
  return Array.isArray(value) ? value.map((url) => retargetUrl(url, from, to)) : retargetUrl(value, from, to)
}
