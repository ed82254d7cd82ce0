// What Hookloop's own sender published, held against the spec: each event matched to an operation
// by its event type (the events table's, as the spec's message names it), its payload checked by
// the same matching and checker as captured traffic (check.ts), and reported in a section of its
// own, "sent by Hookloop", by event id. An event of a type the spec does not name is listed apart.
import { checkContract, type Finding } from './check'
import type { ContractSpec } from './model'
import type { SentEvent } from './traffic'

export interface SentFinding extends Omit<Finding, 'requestIds'> {
  eventIds: string[]
}

export interface SentOperationReport {
  name: string
  slug: string
  where: string
  /** The events matched to it, oldest first. */
  eventIds: string[]
  findings: SentFinding[]
  breaking: number
  notes: string[]
}

export interface SentReport {
  /** Events read from the store, and those matched to an operation. */
  events: { read: number; matched: number }
  /** The operations some event was matched to. */
  operations: SentOperationReport[]
  /** Event types the sender published that no operation names. */
  unknownEventTypes: { eventType: string; eventIds: string[] }[]
  breaking: number
  undocumented: number
}

// The sender names each event's type itself: given to the check as the header it reads first.
const EVENT_TYPE_HEADER = 'x-event-type'

export function checkSentEvents(spec: ContractSpec, events: readonly SentEvent[]): SentReport {
  // The check counts requests by number: an event is its place in the list, named back by its id.
  const report = checkContract(
    spec,
    events.map((e, i) => ({ id: i, endpointSlug: null, method: 'POST', path: '', headers: [[EVENT_TYPE_HEADER, e.eventType]], body: e.payload, bodyTruncated: false, refused: false })),
  )
  const idsOf = (places: readonly number[]) => places.map((i) => events[i]!.id)
  const operations = report.operations
    .filter((o) => o.requestIds.length > 0)
    .map((o) => ({
      name: o.name,
      slug: o.slug,
      where: o.where,
      eventIds: idsOf(o.requestIds),
      findings: o.findings.map(({ requestIds, ...f }) => ({ ...f, eventIds: idsOf(requestIds) })),
      breaking: o.breaking,
      notes: o.notes,
    }))
  return {
    events: { read: events.length, matched: report.traffic.matched },
    operations,
    unknownEventTypes: report.unknownEventTypes.map((u) => ({ eventType: u.eventType, eventIds: idsOf(u.requestIds) })),
    breaking: operations.reduce((n, o) => n + o.breaking, 0),
    undocumented: operations.reduce((n, o) => n + o.findings.filter((f) => f.kind === 'undocumented').length, 0),
  }
}
