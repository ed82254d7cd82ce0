// Sender conformance: does a provider that delivers to one of our endpoints behave as its
// documented policy says? Observed arrivals per event (dedupe key / event id) are compared with
// the policy's schedule and classification. Plain JSON, so the CLI writes it and the UI draws it
// (expected attempts as "ghosts" beside the real marks on the timeline).
import type { Decision } from '../sender'

export const SENDER_CHECK_IDS = ['intervals', 'stops_after_success', 'stops_after_final', 'redirects_not_followed', 'attempt_count'] as const
export type SenderCheckId = (typeof SENDER_CHECK_IDS)[number]

/** pending: the data ends before the check can be decided (the next attempt is not due yet). */
export type SenderCheckStatus = 'pass' | 'fail' | 'skip' | 'pending'

export const SENDER_CHECK_TITLES: Record<SenderCheckId, string> = {
  intervals: 'retry intervals follow the schedule',
  stops_after_success: 'a success stops the retries',
  stops_after_final: 'a final outcome (e.g. 4xx) stops the retries',
  redirects_not_followed: 'redirects are not followed',
  attempt_count: 'attempt count matches max attempts',
}

/** |observed − expected| may be up to max(ms, pct % of the expected delay, the policy's jitter). */
export interface SenderTolerance {
  ms: number
  pct: number
}
export const DEFAULT_SENDER_TOLERANCE: SenderTolerance = { ms: 1000, pct: 5 }

/** One captured request of the event, as the sender saw its answer. */
export interface ObservedArrival {
  /** 1-based, in arrival order. */
  n: number
  request_id: number
  /** ms since the epoch (receiver clock). */
  at: number
  /** What the sender got: http_<status>, timeout, reset, connection_error. */
  outcome: string
  /** The policy's classification of that outcome. */
  decision: Decision
  /** How long the answer took, as the sender's clock saw it (timeout_ms for a timeout). */
  duration_ms: number
  /** Location of a 3xx answer. */
  location: string | null
  /** Retry-After of the answer (a policy that honours it waits that long instead). */
  retry_after: string | null
}

/** An attempt the policy expects: where the UI draws a ghost. */
export interface ExpectedAttempt {
  n: number
  /** Expected arrival, ms since the epoch: the previous arrival + its duration + the schedule's delay. */
  at: number
  /** Allowed distance either side. */
  tolerance_ms: number
  /** Expected delay after the previous attempt ended (0 for the first). */
  delay_ms: number
  /** Matched by an observed arrival (n-th arrival exists). */
  observed: boolean
}

export interface IntervalComparison {
  /** The later attempt of the pair. */
  n: number
  expected_at: number
  observed_at: number
  expected_delay_ms: number
  observed_delay_ms: number
  /** observed_at − expected_at. */
  diff_ms: number
  tolerance_ms: number
  within: boolean
}

export interface SenderCheckResult {
  id: SenderCheckId
  title: string
  status: SenderCheckStatus
  /** One sentence: what was seen, and on a failure what the policy says instead. */
  detail: string
  expected?: string
  observed?: string
  /** Requests the verdict is about. */
  request_ids: number[]
}

export interface EventConformance {
  key: string
  key_source: 'dedupe_key' | 'event_id' | 'request'
  arrivals: ObservedArrival[]
  expected: ExpectedAttempt[]
  intervals: IntervalComparison[]
  checks: SenderCheckResult[]
  ok: boolean
}

export interface SenderConformanceReport {
  ok: boolean
  endpoint: string
  policy: string
  tolerance: SenderTolerance
  /** The time the verdicts are as of (pending checks are judged against it). */
  as_of: number
  events: EventConformance[]
  /** Per check: in how many events it passed, failed, was skipped or is pending. */
  summary: Record<SenderCheckId, Record<SenderCheckStatus, number>>
}
