// A captured request as read back from the store, decoded for UIs, reports and the CLI.
import type { ResponseOutcome } from './receiver-events'
import type { Step } from './rules'
import type { VerifyResult } from './signatures'

export interface RequestRecord {
  id: number
  endpointId: string | null
  receivedAt: number
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
  dedupeKey: string | null
  duplicateOf: number | null
  duplicateNumber: number | null
  ruleId: string | null
  /** What the rule planned and what happened; null for a plain default answer. */
  fault: { outcome: ResponseOutcome | 'pending'; step: Step | null; steps: Step[] | null } | null
  response: { status: number | null; headers: [string, string][]; body: Uint8Array | null; ms: number | null }
  /** Loop mode: the sender's attempt id from the x-hookloop-attempt header. */
  attemptId: number | null
}
