// Retry policy: schedule + success classification + timeout + max attempts, and the pure math
// over it. Shared by the sender (decisions), the UI (schedule preview) and scenario checks
// (conformance), so nothing here touches a clock, the network or the store.
// Field names are snake_case because policies live as JSON in the store and in scenario files.
import { z } from 'zod'

/** What one HTTP try ended with. `http_<code>` when a response status arrived. */
export type AttemptOutcome = `http_${number}` | NetworkOutcome
export const NETWORK_OUTCOMES = ['timeout', 'connection_refused', 'reset', 'dns', 'connection_error'] as const
export type NetworkOutcome = (typeof NETWORK_OUTCOMES)[number]

/** succeeded and failed are final for the automatic schedule; retry asks for another attempt. */
export const DECISIONS = ['succeeded', 'retry', 'failed'] as const
export type Decision = (typeof DECISIONS)[number]

const ms = z.number().int().nonnegative()

export const scheduleSchema = z.discriminatedUnion('kind', [
  // Delay after failed attempt N (N = 1, 2, …) is min(unit_ms * base^N, cap_ms).
  z.strictObject({
    kind: z.literal('exponential'),
    base: z.number().positive(),
    unit_ms: ms,
    cap_ms: ms,
  }),
  z.strictObject({ kind: z.literal('fixed'), interval_ms: ms }),
  // Delay after failed attempt N is delays_ms[N-1]; the last entry repeats when the list is short.
  z.strictObject({ kind: z.literal('list'), delays_ms: z.array(ms).min(1) }),
])
export type Schedule = z.infer<typeof scheduleSchema>

export const jitterSchema = z.strictObject({
  /** Each delay moves by up to ±ratio of itself (0.1 = ±10 %). */
  ratio: z.number().min(0).max(1),
  /** Same seed, same delivery, same attempt → same delay: runs are reproducible. */
  seed: z.number().int(),
})
export type Jitter = z.infer<typeof jitterSchema>

const statusCode = z.number().int().min(100).max(599)
export const outcomeMatcherSchema = z.union([
  z.strictObject({ status: z.array(statusCode).min(1) }),
  z.strictObject({ status_range: z.tuple([statusCode, statusCode]) }),
  z.strictObject({ outcome: z.array(z.enum(NETWORK_OUTCOMES)).min(1) }),
])
export type OutcomeMatcher = z.infer<typeof outcomeMatcherSchema>

export const classificationSchema = z.strictObject({
  /** First matching rule wins. */
  rules: z.array(z.strictObject({ when: outcomeMatcherSchema, then: z.enum(DECISIONS) })),
  /** Decision for an outcome no rule matches. */
  otherwise: z.enum(DECISIONS),
})
export type Classification = z.infer<typeof classificationSchema>

export const policySchema = z.strictObject({
  name: z.string().min(1),
  /** Where the numbers come from, one line. */
  source: z.string().default(''),
  schedule: scheduleSchema,
  jitter: jitterSchema.optional(),
  /** Attempts in all, the first one included. */
  max_attempts: z.number().int().min(1).max(1000),
  timeout_ms: z.number().int().positive(),
  classification: classificationSchema,
  /** Redirect hops to follow; 0 = never (the response's 3xx is the outcome). */
  follow_redirects: z.number().int().min(0).max(20).default(0),
  /** Wait what a Retry-After header asks (bounded by max_ms) instead of the schedule's delay. */
  retry_after: z
    .strictObject({ honour: z.boolean(), statuses: z.array(statusCode).default([429, 503]), max_ms: ms.default(86_400_000) })
    .default({ honour: false, statuses: [429, 503], max_ms: 86_400_000 }),
})
export type Policy = z.infer<typeof policySchema>
export type PolicyInput = z.input<typeof policySchema>

/** Parses a status from an outcome; undefined for network outcomes. */
export function outcomeStatus(outcome: AttemptOutcome): number | undefined {
  if (!outcome.startsWith('http_')) return undefined
  const code = Number(outcome.slice(5))
  return Number.isInteger(code) ? code : undefined
}

export function httpOutcome(status: number): AttemptOutcome {
  return `http_${status}`
}

function matches(matcher: OutcomeMatcher, outcome: AttemptOutcome): boolean {
  const status = outcomeStatus(outcome)
  if ('status' in matcher) return status !== undefined && matcher.status.includes(status)
  if ('status_range' in matcher) return status !== undefined && status >= matcher.status_range[0] && status <= matcher.status_range[1]
  return status === undefined && (matcher.outcome as readonly string[]).includes(outcome)
}

/** How the policy classifies one outcome (before counting attempts). */
export function classifyOutcome(policy: Pick<Policy, 'classification'>, outcome: AttemptOutcome): Decision {
  for (const rule of policy.classification.rules) if (matches(rule.when, outcome)) return rule.then
  return policy.classification.otherwise
}

// Deterministic jitter: FNV-1a over (seed, key, n) then one mulberry32 step → [0, 1).
function unitRandom(seed: number, key: string, n: number): number {
  let h = 0x811c9dc5 ^ (seed | 0)
  const text = `${key}#${n}`
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  let t = (h + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** The schedule's delay before the attempt after failed attempt `failed` (1-based), without jitter. */
export function baseDelayMs(schedule: Schedule, failed: number): number {
  if (!Number.isInteger(failed) || failed < 1) throw new RangeError(`failed attempt number must be a positive integer, got ${failed}`)
  switch (schedule.kind) {
    case 'exponential':
      // Compare in floating point first: base^N overflows quickly and the cap bounds it anyway.
      return Math.min(schedule.unit_ms * Math.pow(schedule.base, failed), schedule.cap_ms)
    case 'fixed':
      return schedule.interval_ms
    case 'list':
      return schedule.delays_ms[Math.min(failed, schedule.delays_ms.length) - 1] ?? 0
    default: {
      const never: never = schedule
      throw new Error(`unknown schedule ${JSON.stringify(never)}`)
    }
  }
}

/**
 * Delay after failed attempt `failed`, with the policy's jitter applied for `jitterKey` (the
 * delivery). Whole milliseconds, never negative.
 */
export function retryDelayMs(policy: Pick<Policy, 'schedule' | 'jitter'>, failed: number, jitterKey = ''): number {
  const base = baseDelayMs(policy.schedule, failed)
  const jitter = policy.jitter
  if (!jitter || jitter.ratio === 0) return Math.round(base)
  const offset = (unitRandom(jitter.seed, jitterKey, failed) * 2 - 1) * jitter.ratio * base
  return Math.max(0, Math.round(base + offset))
}

export interface ScheduledAttempt {
  /** 1-based attempt number. */
  n: number
  /** Delay since the previous attempt (0 for the first). */
  delay_ms: number
  /** Time since the first attempt. */
  at_ms: number
}

/**
 * Every attempt the policy makes when each one fails with a retryable outcome: the preview the UI
 * shows and the table conformance checks compare against.
 */
export function expectedSchedule(policy: Pick<Policy, 'schedule' | 'jitter' | 'max_attempts'>, jitterKey = ''): ScheduledAttempt[] {
  const out: ScheduledAttempt[] = [{ n: 1, delay_ms: 0, at_ms: 0 }]
  let at = 0
  for (let n = 2; n <= policy.max_attempts; n++) {
    const delay = retryDelayMs(policy, n - 1, jitterKey)
    at += delay
    out.push({ n, delay_ms: delay, at_ms: at })
  }
  return out
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when unusable. */
export function parseRetryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

export type AttemptDecision =
  | { decision: 'succeeded' }
  | { decision: 'failed'; reason: 'final_outcome' | 'max_attempts' }
  | { decision: 'retry'; delay_ms: number; at: number; reason: 'schedule' | 'retry_after' }

export interface DecideInput {
  /** Attempts that count toward max_attempts so far, this one included. */
  attempt: number
  outcome: AttemptOutcome
  /** Clock time the attempt finished: the next attempt is scheduled from here. */
  now: number
  retryAfter?: string
  jitterKey?: string
}

/** What happens after one attempt: the sender's only source of retry decisions. */
export function decideAfterAttempt(policy: Policy, input: DecideInput): AttemptDecision {
  const verdict = classifyOutcome(policy, input.outcome)
  switch (verdict) {
    case 'succeeded':
      return { decision: 'succeeded' }
    case 'failed':
      return { decision: 'failed', reason: 'final_outcome' }
    case 'retry': {
      if (input.attempt >= policy.max_attempts) return { decision: 'failed', reason: 'max_attempts' }
      const status = outcomeStatus(input.outcome)
      if (policy.retry_after.honour && status !== undefined && policy.retry_after.statuses.includes(status)) {
        const asked = parseRetryAfterMs(input.retryAfter, input.now)
        if (asked !== undefined) {
          const delay = Math.min(asked, policy.retry_after.max_ms)
          return { decision: 'retry', delay_ms: delay, at: input.now + delay, reason: 'retry_after' }
        }
      }
      const delay = retryDelayMs(policy, input.attempt, input.jitterKey)
      return { decision: 'retry', delay_ms: delay, at: input.now + delay, reason: 'schedule' }
    }
    default: {
      const never: never = verdict
      throw new Error(`unknown decision ${String(never)}`)
    }
  }
}
