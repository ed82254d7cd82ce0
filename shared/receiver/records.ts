// A captured request: the receiver builds it (read → inspect → record → answer), the store encodes
// it, and UIs, reports and the CLI read it back decoded.
import type { ResponseOutcome } from './events'
import type { Step } from './rules'
import type { HoldRecord } from './breakpoints'
import type { VerifyResult } from '../signatures'

/** Why a dedupe key is kept as its SHA-256 digest instead of itself, and how long it was. */
export interface DedupeKeyMark {
  reason: 'too_long' | 'not_utf8'
  bytes: number
}

export interface RequestRecord {
  id: number
  endpointId: string | null
  /** On the wall clock for real traffic; on its attempt's clock (maybe a simulation's) when attemptId is set (docs/time.md). */
  receivedAt: number
  /** Wall time of the first byte, whatever clock receivedAt is on: what ages and `--since` read. Optional like the marks below (the store always fills it). */
  storedAt?: number
  method: string
  path: string
  query: string
  httpVersion: string
  /** In arrival order, duplicates kept, names as sent. */
  headers: [string, string][]
  /** Raw bytes as received (only the first bytes when bodyTruncated). */
  body: Uint8Array
  bodySize: number
  bodyTruncated: boolean
  remoteAddress: string | null
  verify: VerifyResult | null
  /** The key as compared: itself, or `sha256:<hex>` when dedupeKeyMark says why. */
  dedupeKey: string | null
  // The three marks below are optional so records built by hand (fixtures) stay valid; the store
  // always fills them.
  dedupeKeyMark?: DedupeKeyMark | null
  /**
   * Where an automatic key was found (`body.event_id`, `webhook-id` …), as the receiver captured it;
   * not stored: the inspector finds it again in the stored headers and body.
   */
  dedupeKeyFrom?: string | null
  /** Why the body's fields were not read (too deep, too big, memory budget), null when they were or none were needed. */
  notInspected?: string | null
  /** Why the receiver itself refused the request (413, 408, 400, 417, 405, 503 …), null otherwise. */
  refusedReason?: string | null
  duplicateOf: number | null
  duplicateNumber: number | null
  ruleId: string | null
  /** What the rule planned and what happened; null for a plain default answer. `hold`: a breakpoint held it (shared/receiver/breakpoints.ts). */
  fault: { outcome: ResponseOutcome | 'pending'; step: Step | null; steps: Step[] | null; hold?: HoldRecord } | null
  response: { status: number | null; headers: [string, string][]; body: Uint8Array | null; ms: number | null }
  /** Loop mode: the attempt of this store whose x-hookloop-attempt link checked out; null when none did. */
  attemptId: number | null
}

/** What the receiver records for one request: the same record, before the store encodes it. */
export type Capture = RequestRecord

/** The marks a capture carries, in words for the inspector: key kept as a digest, body not inspected, refused. */
export function captureMarks(capture: Pick<RequestRecord, 'dedupeKeyMark' | 'notInspected' | 'refusedReason'>): string[] {
  const marks: string[] = []
  const mark = capture.dedupeKeyMark
  if (mark) marks.push(mark.reason === 'too_long' ? `key too long (${mark.bytes} bytes): kept and compared as its SHA-256` : `key not UTF-8 (${mark.bytes} bytes): kept and compared as its SHA-256`)
  if (capture.notInspected) marks.push(`not inspected: ${capture.notInspected}`)
  if (capture.refusedReason) marks.push(`refused: ${capture.refusedReason}`)
  return marks
}
