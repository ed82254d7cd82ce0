// What running a scenario produces: per delivery every attempt with its time on the scenario
// clock, its outcome and (in loop mode) what the receiver made of it, plus each expectation's
// verdict. Written as JSON by `hookloop run --report` and shown by the UI.
import type { ScenarioClock } from './schema'
import type { DeliveryStatus } from '../sender'
import type { ReportForwardLeg } from './forward-mode'
import type { ReportTunnel } from './public-tunnel'

export type { ReportForwardLeg } from './forward-mode'

export interface ReportAttempt {
  n: number
  /** ms since the delivery's first attempt, on the scenario clock. */
  at_ms: number
  /** ms since the run started, on the scenario clock. */
  run_ms: number
  duration_ms: number | null
  /** http_<status>, timeout, connection_refused, reset, dns … */
  outcome: string
  status_code: number | null
  /** What the sender decided: succeeded, retry or failed. */
  decision: string
  /** When the next attempt is due, ms since the delivery's first attempt; null when final. */
  next_at_ms: number | null
  /** Sending-side fault applied to this attempt, if any. */
  fault: unknown
  /** Loop mode: the request the receiver captured for this attempt (null when none arrived). */
  request_id: number | null
  /** The receiver's verify reason ("ok", "signature_mismatch" …); null when not verified or not ours. */
  signature: string | null
  /** The receiver's duplicate number (1 = first arrival); null when not deduped or not ours. */
  duplicate: number | null
  /** Receiver fault applied to the request, if any. */
  receiver_fault: unknown
}

export interface ReportDelivery {
  delivery_id: number
  /** Set on the copy a `duplicate` fault made: the delivery id it duplicates. */
  duplicate_of: number | null
  /** Scenario-local event name. */
  event: string
  subscription: string
  event_id: string
  /**
   * The id the consumer knows the event by when its subscription delivers as a provider (Stripe's
   * `evt_…` in the body, X-GitHub-Delivery, webhook-id …) and where the consumer reads it; null otherwise.
   */
  provider_event_id: { value: string; where: string } | null
  event_type: string
  url: string
  /** True when the subscription targets one of this scenario's endpoints. */
  loop: boolean
  status: DeliveryStatus
  /** The status in the policy preset's own words (seed B: `failed_permanent`); ours when it has none. */
  status_word?: string
  /** Set on a delivery a `resend` action made: 1 for the first resend of the event to this subscription, 2 … */
  resend?: number
  attempts: ReportAttempt[]
}

/** One request that arrived at an endpoint, as the receiver recorded it. */
export interface ReportArrival {
  /** The endpoint's slug. */
  endpoint: string
  request_id: number
  /** ms since the run started, on the scenario clock. */
  run_ms: number
  /** Header name (lower case) → value; repeated headers joined with ", ". */
  headers: Record<string, string>
  /** The body as JSON when it is JSON, else its text; null when empty. */
  body: unknown
  signature: string | null
  duplicate: number | null
  /**
   * Its body held against its provider's published schema (docs/receiver.md, "Schema verdict"):
   * the verdict and, when invalid, the first place it fails; null when it was not judged (an
   * endpoint that verifies no provider's scheme). Absent in reports made before schema verdicts.
   */
  schema?: ReportSchemaVerdict | null
}

export interface ReportSchemaVerdict {
  verdict: 'valid' | 'invalid' | 'no-schema'
  pointer: string | null
  expected: string | null
  got: string | null
}

export interface ReportEndpoint {
  slug: string
  requests: number
  duplicates_flagged: number
  /** Requests per verify reason. */
  signatures: Record<string, number>
}

/** What an expectation is about, as data (a UI marks timeline rows by it, never by the label). */
export type ExpectationSubject =
  /** The delivery of a scenario event to a subscription (`copy`: the one a duplicate fault made; `resend`: the n-th resend's). */
  | { kind: 'delivery'; event: string; subscription: string; copy: boolean; resend?: number; field: string }
  | { kind: 'endpoint'; endpoint: string; field: string }
  /** The legs to a forward target (your app), maybe of one endpoint or one event. */
  | { kind: 'forward'; target: string; endpoint: string | null; event: string | null; field: string }
  /** The scenario as a whole (e.g. it has no expectations). */
  | { kind: 'scenario'; field: string }

export interface ExpectationResult {
  /** JSON path of the expectation field in the scenario file, e.g. expect.deliveries[0].at_ms */
  path: string
  subject: ExpectationSubject
  /** What was checked, readable: "e1 → sub-a: status". */
  label: string
  ok: boolean
  expected: unknown
  actual: unknown
  /** Why it failed, in one sentence (empty when ok). */
  message: string
}

/** A panel action of the scenario (retry now, pause, resume, rotate secret) and how it went. */
export interface ReportAction {
  /** JSON path in the scenario file, e.g. actions[0]. */
  path: string
  type: string
  /** ms since the run started, on the scenario clock. */
  at_ms: number
  ok: boolean
  /** What it did, or why it could not be done. */
  message: string
}

export interface ScenarioReport {
  ok: boolean
  scenario: string
  file: string | null
  clock: ScenarioClock
  /** Scenario clock time when the run started (ms since epoch) and how long it ran on that clock. */
  started_at: number
  clock_ms: number
  /** Wall time the run took. */
  wall_ms: number
  /** Why the run stopped before everything settled, when it did (limit reached …). */
  incomplete: string | null
  deliveries: ReportDelivery[]
  endpoints: ReportEndpoint[]
  /** Every request our endpoints received during the run, in arrival order (headers, body, verdicts). */
  arrivals?: ReportArrival[]
  /** Forward mode: every leg sent to a forward target during the run, in the order sent. */
  forwards?: ReportForwardLeg[]
  /** Through the tunnel: the tunnel server and public URL the loop deliveries went to. */
  tunnel?: ReportTunnel
  actions: ReportAction[]
  expectations: ExpectationResult[]
}
