// Exports for support and QA: captured requests and sender attempts as HAR 1.2, as cURL
// commands, or as a Hookloop case file; and the import side's errors and replay results.
// Everything here is plain JSON.
import type { SchemaVerdict } from '../receiver'

export const EXPORT_FORMATS = ['har', 'curl', 'case'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** What replaces a secret or a signature value in an export made without keepSecrets. */
export const REDACTED = '[redacted]'

/**
 * What replaces a loop subscription's secret that its endpoint does not verify with (a rotation
 * done on one side only): redacted, yet the mismatch it caused stays in the file for a scenario
 * made from it to reproduce.
 */
export const redactedForeignSecret = (endpointSlug: string): string => `[redacted: not a secret of endpoint ${endpointSlug}]`

/** The endpoint a redactedForeignSecret names; null for any other value. */
export function foreignSecretEndpoint(value: unknown): string | null {
  const match = typeof value === 'string' ? /^\[redacted: not a secret of endpoint (.+)\]$/.exec(value) : null
  return match ? match[1]! : null
}

export interface ExportSelection {
  /** Captured requests (receiver side), by id. */
  requestIds?: readonly number[]
  /** Deliveries (sender side), by id: every attempt of each. */
  deliveryIds?: readonly number[]
  /** Keep secrets and signature headers (default false: redacted). */
  keepSecrets?: boolean
}

// ---------------------------------------------------------------- HAR 1.2 (the fields we write)
export interface HarNameValue {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    queryString: HarNameValue[]
    /** `encoding: "base64"` (as in content) when the body is not UTF-8 text. */
    postData?: { mimeType: string; text: string; encoding?: 'base64' }
    headersSize: number
    bodySize: number
  }
  response: {
    /** 0 when no response arrived (timeout, reset), as browsers write it. */
    status: number
    statusText: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' }
    redirectURL: string
    headersSize: number
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  comment?: string
  /** Hookloop's own fields (custom fields start with "_" in HAR). */
  _hookloop?: HarHookloopFields
}

/**
 * `source` is the side an entry was seen from. A request our own sender's attempt made (a loop
 * delivery) is one entry, a request, carrying the attempt's ids (`delivery_id`, `event_id`,
 * `attempt`, `attempt_id`) and what the sender made of the answer (`attempt_outcome`).
 */
export interface HarHookloopFields {
  source: 'request' | 'attempt'
  id: number
  endpoint?: string | null
  delivery_id?: number
  /** Hookloop's own event id (an attempt). */
  event_id?: string
  /** The id the consumer knows the event by when it is not event_id (a provider's evt_…, X-GitHub-Delivery …). */
  consumer_event_id?: string
  /** A captured request's dedupe key: the event id the sender gave it. */
  dedupe_key?: string
  attempt?: number
  attempt_id?: number
  attempt_outcome?: string
  outcome: string
  verify?: { valid: boolean; reason: string } | null
  /** A captured request's body against its provider's schema (docs/receiver.md, "Schema verdict"); absent when not judged. */
  schema?: SchemaVerdict
  duplicate_number?: number | null
  /** Set when startedDateTime is a simulation's time, not a wall date (docs/time.md): that simulation. */
  simulation_id?: string
  /** Beside a simulated startedDateTime: the wall time the exchange happened (ISO), when known. */
  wall_at?: string
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; comment?: string }
}

// ---------------------------------------------------------------- case file
export const CASE_FILE_VERSION = 1

/** A body in JSON: UTF-8 text as is, anything else base64. */
export type CaseBody = { text: string } | { base64: string }

export interface CaseRequest {
  id: number
  endpoint: string | null
  received_at: string
  method: string
  path: string
  query: string
  headers: [string, string][]
  body: CaseBody
  verify: { valid: boolean; reason: string } | null
  /** Its body against its provider's schema (docs/receiver.md, "Schema verdict"); absent when not judged. */
  schema?: SchemaVerdict
  duplicate_number: number | null
  /** What we answered: http_<status> or what the rule did (timed_out, reset …). */
  outcome: string
  response: { status: number | null; headers: [string, string][]; body: CaseBody | null; ms: number | null }
}

export interface CaseAttempt {
  n: number
  started_at: string
  url: string | null
  request_headers: [string, string][]
  outcome: string
  status_code: number | null
  duration_ms: number | null
  decision: string
  response_headers: [string, string][]
  response_body: CaseBody | null
}

export interface CaseDelivery {
  id: number
  /** Hookloop's own event id. */
  event_id: string
  /** The id the consumer knows the event by (a provider's evt_…, X-GitHub-Delivery …), when it is not event_id. */
  consumer_event_id?: string
  event_type: string
  subscription: string
  status: string
  /** The body every attempt sent. */
  body: CaseBody
  attempts: CaseAttempt[]
}

export interface CaseFile {
  hookloop_case: typeof CASE_FILE_VERSION
  exported_at: string
  redacted: boolean
  /** The endpoints (with rules) and subscriptions involved, in scenario-file form. */
  setup: {
    endpoints: Record<string, unknown>[]
    /** Rules for every endpoint (added with endpoint null), when any exist: they answered too. */
    global_rules?: Record<string, unknown>[]
    subscriptions: Record<string, unknown>[]
  }
  requests: CaseRequest[]
  deliveries: CaseDelivery[]
}

// ---------------------------------------------------------------- import + replay
/** One request to send again, from a HAR entry or a case file. */
export interface ReplayItem {
  label: string
  method: string
  headers: [string, string][]
  body: Uint8Array
  /** What the original got: http_<status>, or a network outcome; null when unknown. */
  original_outcome: string | null
  original_verify: { valid: boolean; reason: string } | null
}

export interface ReplayResult {
  label: string
  /** http_<status>, or a network outcome (connection_refused, reset, timeout, connection_error). */
  outcome: string
  status: number | null
  original_outcome: string | null
  same: boolean | null
  error: string | null
  /** Headers dropped because the export had redacted them and nothing re-signed them. */
  dropped_redacted: string[]
  /**
   * Re-signed with a stand-in wrong secret rather than the one given: the original's signature
   * did not match (original_verify says signature_mismatch), and a replay keeps that symptom.
   */
  signed_with_stand_in: boolean
}

/** What a replay says of a request it signed with a stand-in wrong secret. */
export const STAND_IN_SIGNATURE_NOTE = 'signed with a stand-in wrong secret, not the one given: its signature did not match when it arrived (signature_mismatch), and the replay keeps that'
