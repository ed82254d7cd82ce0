// Conformance checks: what Hookloop grades about the other side of a webhook integration. The
// consumer check sends a battery of deliveries to someone's endpoint and grades each answer; the
// CLI prints it as a report card, writes it as JSON, and the UI can show the same objects.
import type { HandshakeKind } from '../receiver'
import type { CustomHmacOptions, SchemeId } from '../signatures'

export const CONSUMER_CHECK_IDS = [
  'valid_delivery',
  'duplicate_tolerated',
  'wrong_signature_rejected',
  'missing_signature_rejected',
  'stale_timestamp_rejected',
  'malformed_body_rejected',
  'no_redirect',
  'latency',
  'handshake_answered',
] as const
export type ConsumerCheckId = (typeof CONSUMER_CHECK_IDS)[number]

/**
 * pass ✓, warn ! (passed, but worth fixing), fail ✗, skip – (does not apply, e.g. a stale
 * timestamp for a scheme that signs none). Only `fail` makes the check and the run not ok.
 */
export type CheckSeverity = 'pass' | 'warn' | 'fail' | 'skip'

/** What one request of the battery got back. */
export interface ProbeObservation {
  /** http_<status>, timeout, connection_refused, reset, dns … (the sender's outcome words). */
  outcome: string
  status_code: number | null
  duration_ms: number
  /** The Location header of a 3xx answer. */
  location: string | null
  /** The first bytes of the response body (for the detail line), or the network error. */
  response_excerpt: string | null
  error: string | null
}

export interface LatencyStats {
  samples: number
  /** Nearest-rank percentiles over every sample's time to the complete response. */
  p50_ms: number
  p95_ms: number
  min_ms: number
  max_ms: number
  /** Samples answered with something other than 2xx (timeouts included). */
  non_2xx: number
  durations_ms: number[]
}

export interface ConsumerCheck {
  id: ConsumerCheckId
  /** Short name, e.g. "Rejects a wrong signature". */
  title: string
  /** False only when severity is fail. */
  passed: boolean
  severity: CheckSeverity
  /** What happened, one sentence with the numbers. */
  detail: string
  /** Why it matters, one sentence. */
  why: string
  /** How to fix a failure (shown for fail and warn). */
  fix: string
  /** The request(s) behind the verdict. */
  probes: ProbeObservation[]
  latency?: LatencyStats
}

export interface ConsumerCheckResult {
  ok: boolean
  url: string
  /** The scheme the battery signed with; null when only a handshake was checked. */
  scheme: SchemeId | null
  /** The verification handshake checked (before the battery), when one was asked for. */
  handshake: HandshakeKind | null
  /** Wall time the battery started, ms since the epoch, and how long it took. */
  started_at: number
  wall_ms: number
  timeout_ms: number
  warn_above_ms: number
  checks: ConsumerCheck[]
  latency: LatencyStats | null
}

/** What to check, as plain data (a UI form or an engine request can carry it as JSON). */
export interface ConsumerCheckSettings {
  url: string
  /** The battery's signature scheme; absent = no battery, only the handshake. */
  scheme?: SchemeId
  /** The signing secret; for a handshake, the secret its request or answer uses (Slack signing secret, Zoom secret token, X consumer secret). */
  secret?: string
  /** Make this provider's verification handshake first and grade the answer (shared/receiver/handshakes.ts). */
  handshake?: HandshakeKind
  custom?: CustomHmacOptions
  /** Provider timeout per request (default 10 000 ms). */
  timeoutMs?: number
  /** A 2xx slower than this passes with a warning (default 5 000 ms). */
  warnAboveMs?: number
  /** `type` of the generated events (default hookloop.check). */
  eventType?: string
  /** A JSON document to send instead of the generated event; its `id`, when present, is replaced per request. */
  payload?: unknown
  /** Valid events sent to measure p50/p95 (default 10). */
  latencySamples?: number
}

export const CONSUMER_CHECK_DEFAULTS = {
  /** Provider timeout: a delivery slower than this is a failed attempt. */
  timeoutMs: 10_000,
  /** Answers slower than this pass with a warning. */
  warnAboveMs: 5_000,
  /** Valid deliveries sent to measure p50/p95. */
  latencySamples: 10,
  eventType: 'hookloop.check',
} as const
