// The receiver's events, in one typed map: the timeline and the CLI log are built from these.
// Per request they come in this order: captured → verified (if the endpoint verifies) →
// duplicate (if it is one) → responded. Across requests, in the order things happened.
import type { VerifyResult } from './signatures'
import type { Step } from './rules'
import type { DedupeKeyMark } from './receiver-records'

/** What was done to a request: the final step applied, or how it ended otherwise. */
export type ResponseOutcome =
  | 'replied' //        a full response was written (reply, redirect, drip finished, default answer)
  | 'closed' //         FIN without a response (close step, or a timeout step that ran out)
  | 'reset' //          TCP RST
  | 'malformed' //      invalid HTTP bytes written
  | 'timed_out' //      a timeout step held the request until its time ran out or the client left
  | 'client_gone' //    the client went away first (mid-body, during a delay, a hold or a drip)
  | 'refused' //        answered with an error status by the receiver itself (413, 408 …)
  | 'store_failed' //   the capture could not be committed, answered 503

export interface CapturedRequest {
  id: number
  endpointId: string | null
  endpointSlug: string | null
  receivedAt: number
  method: string
  path: string
  query: string
  httpVersion: string
  bodySize: number
  bodyTruncated: boolean
  remoteAddress: string | null
  /** Loop mode: the sender's attempt id from the x-hookloop-attempt header. */
  attemptId: number | null
  dedupeKey: string | null
  /** Set when the key is kept as its digest (too long, not UTF-8). Optional: older producers leave it out. */
  dedupeKeyMark?: DedupeKeyMark | null
  /** Why the body's fields were not read, when they were not. */
  notInspected?: string | null
  /** Why the receiver itself refused the request. */
  refusedReason?: string | null
}

export interface ReceiverEventMap {
  /** A request arrived and is recorded (also unmatched paths, and refused bodies over the limit). */
  'request.captured': { request: CapturedRequest }
  /** The endpoint's signature check ran on the raw bytes. */
  'request.verified': { requestId: number; endpointId: string; result: VerifyResult }
  /** A second or later arrival of a dedupe key within the window. */
  'request.duplicate': { requestId: number; endpointId: string; dedupeKey: string; duplicateOf: number; number: number }
  /** The request was answered, refused, or the connection ended: the row now holds the final outcome. */
  'request.responded': {
    requestId: number
    ruleId: string | null
    /** The final step applied, null when no rule matched (default answer). */
    fault: Step | null
    outcome: ResponseOutcome
    status: number | null
    durationMs: number
  }
  /** A connection was refused before a request could be read (bad HTTP, slow headers). */
  'connection.refused': { remoteAddress: string | null; reason: 'bad_request' | 'slow_request' | 'headers_too_large'; status: number | null }
  /** Writing to the store failed; rows are kept in memory and retried. */
  'store.error': { message: string; pending: number }
}

export type ReceiverEventType = keyof ReceiverEventMap
export type ReceiverEvent = { [K in ReceiverEventType]: { type: K } & ReceiverEventMap[K] }[ReceiverEventType]
export type ReceiverEventListener = (event: ReceiverEvent) => void
