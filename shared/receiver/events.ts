// The receiver's events, in one typed map: the timeline and the CLI log are built from these.
// Per request they come in this order: captured → verified (if the endpoint verifies) →
// duplicate (if it is one) → responded → schema (if the endpoint names a provider). Across requests, in the order things happened.
import type { VerifyResult } from '../signatures'
import type { Step } from './rules'
import type { RequestRecord } from './records'
import type { ForwardLeg } from './forward'
import type { HeldRequest, HoldRecord } from './breakpoints'
import type { SchemaVerdict } from './schema-verdicts'

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

/** A request as the captured event tells it: its head, what the receiver knew on arrival and its marks. */
export type CapturedRequest = Pick<
  RequestRecord,
  | 'id'
  | 'endpointId'
  | 'receivedAt'
  | 'method'
  | 'path'
  | 'query'
  | 'httpVersion'
  | 'bodySize'
  | 'bodyTruncated'
  | 'remoteAddress'
  | 'attemptId'
  | 'dedupeKey'
  | 'dedupeKeyMark'
  | 'dedupeKeyFrom'
  | 'notInspected'
  | 'refusedReason'
> & { endpointSlug: string | null }

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
  /**
   * The body was held against its provider's schema, after the answer (off the capture path), and
   * the verdict is stored: it follows `request.responded`, maybe after later requests' events.
   */
  'request.schema': { requestId: number; endpointId: string; verdict: SchemaVerdict }
  /** Forward mode: a leg to a target ended (answered or failed) and is stored. */
  'request.forwarded': { leg: ForwardLeg }
  /** A connection was refused before a request could be read (bad HTTP, slow headers). */
  'connection.refused': { remoteAddress: string | null; reason: 'bad_request' | 'slow_request' | 'headers_too_large' | 'store_unreachable'; status: number | null }
  /** A request stopped at a breakpoint (its row is committed): its full content and when its limit runs out. */
  'breakpoint.held': { request: HeldRequest }
  /** A held request went on: what ended its hold (before its answer is written; request.responded follows). */
  'breakpoint.released': { requestId: number; endpointId: string | null; hold: HoldRecord }
  /** Writing to the store failed; rows are kept in memory and retried. */
  'store.error': { message: string; pending: number }
}

export type ReceiverEventType = keyof ReceiverEventMap
export type ReceiverEvent = { [K in ReceiverEventType]: { type: K } & ReceiverEventMap[K] }[ReceiverEventType]
export type ReceiverEventListener = (event: ReceiverEvent) => void
