// `hookloop listen --json`: NDJSON on stdout, one JSON object per captured request, written once
// it was answered (so it holds its verdict, duplicate number, the fault applied and the answer);
// the receiver's other lines go to stderr. Fields: docs/cli.md, "JSON output".
import type { ReceiverEvent, Step } from '../../shared/receiver'

export interface ListenJsonLine {
  id: number
  receivedAt: string
  endpoint: string | null
  method: string
  path: string
  query: string
  bodySize: number
  /** The dedupe key: the provider's event id, when the endpoint takes one. */
  eventId: string | null
  /** Where an automatic dedupe key found the event id (`body.event_id`, `webhook-id` …); null for a configured key or none. */
  eventIdFrom: string | null
  verdict: 'valid' | 'invalid' | 'none'
  verifyReason: string | null
  /** The arrival number of the event id at this endpoint: 1 first, 2 and up a duplicate. */
  duplicateNumber: number | null
  /** The rule step applied, null when no rule matched (the default answer). */
  fault: Step | null
  status: number | null
  outcome: string
  durationMs: number
  refusedReason: string | null
  notInspected: string | null
  attemptId: number | null
}

export function createRequestJsonLog(writeLine: (line: string) => void) {
  const pending = new Map<number, Omit<ListenJsonLine, 'fault' | 'status' | 'outcome' | 'durationMs'>>()
  return (event: ReceiverEvent) => {
    switch (event.type) {
      case 'request.captured': {
        const r = event.request
        pending.set(r.id, {
          id: r.id,
          receivedAt: new Date(r.receivedAt).toISOString(),
          endpoint: r.endpointSlug,
          method: r.method,
          path: r.path,
          query: r.query,
          bodySize: r.bodySize,
          eventId: r.dedupeKey,
          eventIdFrom: r.dedupeKeyFrom ?? null,
          verdict: 'none',
          verifyReason: null,
          duplicateNumber: r.dedupeKey === null ? null : 1,
          refusedReason: r.refusedReason ?? null,
          notInspected: r.notInspected ?? null,
          attemptId: r.attemptId,
        })
        return
      }
      case 'request.verified': {
        const line = pending.get(event.requestId)
        if (line) {
          line.verdict = event.result.valid ? 'valid' : 'invalid'
          line.verifyReason = event.result.valid ? null : event.result.reason
        }
        return
      }
      case 'request.duplicate': {
        const line = pending.get(event.requestId)
        if (line) line.duplicateNumber = event.number
        return
      }
      case 'request.responded': {
        const line = pending.get(event.requestId)
        pending.delete(event.requestId)
        if (!line) return
        const done: ListenJsonLine = { ...line, fault: event.fault, status: event.status, outcome: event.outcome, durationMs: Math.round(event.durationMs) }
        writeLine(JSON.stringify(done))
        return
      }
      default:
        return
    }
  }
}
