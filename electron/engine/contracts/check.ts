// Drift between a spec and captured traffic. Each request is matched to one operation and message:
// 1. by its event type: a header (EVENT_TYPE_HEADERS), else a top-level body field
//    (EVENT_TYPE_FIELDS), equal to a name of a message (its event type or an alias: the
//    webhook's or callback's name, the operationId, the AsyncAPI message's name or id);
// 2. else by where it arrived: the endpoint whose slug is the operation's (what `contract add`
//    made); a request there whose event type the spec does not name is checked as that operation,
//    with a note saying so.
// Its body is then checked against the message's schema (drift.ts). Event types the spec names
// that no request showed, and requests of event types the spec does not name, are reported too.
import { createBodyChecker, parseBody, UnusableSchemaError, type BodyChecker, type Difference } from '../payload-schemas'
import { EVENT_TYPE_FIELDS, EVENT_TYPE_HEADERS, type ContractMessage, type ContractOperation, type ContractSpec } from './model'
import type { SentReport } from './sent'
import type { TrafficRequest } from './traffic'

export interface Finding extends Difference {
  requestIds: number[]
}

export interface OperationReport {
  name: string
  slug: string
  where: string
  eventTypes: string[]
  /** The requests matched to it, oldest first. */
  requestIds: number[]
  findings: Finding[]
  breaking: number
  /** Its event types no request showed. */
  unseenEventTypes: string[]
  /** Why some or all of its requests could not be checked. */
  notes: string[]
}

export interface ContractReport {
  spec: { location: string; title: string; version: string; format: string }
  traffic: {
    /** Requests read from the data folder. */
    read: number
    matched: number
    /** Requests with no body, or refused by the receiver: not deliveries of an event. */
    skipped: number
  }
  operations: OperationReport[]
  /** Event types the traffic showed that no operation names, with their requests. */
  unknownEventTypes: { eventType: string; requestIds: number[] }[]
  /** Requests with a body but no event type, at no endpoint of the spec's operations. */
  unmatchedRequestIds: number[]
  /** Breaking findings over every operation. */
  breaking: number
  undocumented: number
  unseenEventTypes: number
  /** The events Hookloop's own sender published, held against the spec (sent.ts); absent when not read. */
  sentByHookloop?: SentReport
}

function header(headers: [string, string][], name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1]
}

/** A request's event type: a header that names one, else a top-level body field. */
export function requestEventType(headers: [string, string][], body: unknown): string | null {
  for (const name of EVENT_TYPE_HEADERS) {
    const value = header(headers, name)?.trim()
    if (value) return value
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    for (const field of EVENT_TYPE_FIELDS) {
      const value = (body as Record<string, unknown>)[field]
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return null
}

export const isJsonType = (contentType: string | null) => contentType === null || /json/i.test(contentType)

interface Match {
  operation: ContractOperation
  message: ContractMessage | null
}

export function checkContract(spec: ContractSpec, traffic: readonly TrafficRequest[]): ContractReport {
  const byAlias = new Map<string, Match>()
  for (const operation of spec.operations) {
    for (const message of operation.messages) for (const alias of message.aliases) if (!byAlias.has(alias)) byAlias.set(alias, { operation, message })
  }
  const bySlug = new Map(spec.operations.map((o) => [o.slug, o]))
  const checkers = new Map<ContractMessage, BodyChecker | string>()
  const checkerOf = (message: ContractMessage): BodyChecker | string => {
    let checker = checkers.get(message)
    if (checker === undefined) {
      try {
        checker = message.schema ? createBodyChecker(message.schema, spec.dialect, spec.nullableKeyword) : 'the spec gives no body schema'
      } catch (error) {
        if (!(error instanceof UnusableSchemaError)) throw error
        checker = error.message
      }
      checkers.set(message, checker)
    }
    return checker
  }

  const reports = new Map(
    spec.operations.map((o): [ContractOperation, { report: OperationReport; seen: Set<ContractMessage>; findings: Map<string, Finding> }] => [
      o,
      {
        report: { name: o.name, slug: o.slug, where: o.where, eventTypes: o.messages.map((m) => m.eventType), requestIds: [], findings: [], breaking: 0, unseenEventTypes: [], notes: [] },
        seen: new Set(),
        findings: new Map(),
      },
    ]),
  )
  const unknown = new Map<string, number[]>()
  const unmatched: number[] = []
  let skipped = 0
  let matched = 0
  const note = (entry: { report: OperationReport }, text: string) => {
    if (!entry.report.notes.includes(text)) entry.report.notes.push(text)
  }

  for (const request of traffic) {
    if (request.refused || request.body === null || request.body.length === 0) {
      skipped++
      continue
    }
    const parsed = parseBody(request.body, request.headers)
    const eventType = requestEventType(request.headers, parsed?.json)
    const found: Match | undefined = (eventType === null ? undefined : byAlias.get(eventType)) ?? (() => {
      const operation = request.endpointSlug === null ? undefined : bySlug.get(request.endpointSlug)
      return operation ? { operation, message: operation.messages.length === 1 ? operation.messages[0]! : null } : undefined
    })()
    if (!found) {
      if (eventType === null) unmatched.push(request.id)
      else unknown.set(eventType, [...(unknown.get(eventType) ?? []), request.id])
      continue
    }
    matched++
    const entry = reports.get(found.operation)!
    entry.report.requestIds.push(request.id)
    // The traffic showed this event type, whether or not its body can be checked below.
    if (found.message) entry.seen.add(found.message)
    if (eventType !== null && !byAlias.has(eventType)) {
      note(entry, `request #${request.id} names its event type ${eventType}, which the spec does not name; checked as ${found.operation.name}, the operation of the endpoint it arrived at`)
    }
    if (request.bodyTruncated) {
      note(entry, `request #${request.id}: its body was stored cut short (the endpoint's body limit), not checked`)
      continue
    }
    // An operation with several messages and no event type to pick one: the message it fits best.
    const candidates = found.message ? [found.message] : found.operation.messages
    let best: { message: ContractMessage; differences: Difference[] } | null = null
    for (const message of candidates) {
      if (!isJsonType(message.contentType)) {
        note(entry, `${message.eventType}: the spec's body is ${message.contentType}; Hookloop checks JSON bodies only`)
        continue
      }
      let differences: Difference[]
      if (parsed === null) {
        differences = [{ kind: 'not-json', breaking: true, pointer: '', expected: message.contentType ?? 'JSON', got: 'a body that is not JSON', schemaSays: 'the body must be JSON' }]
      } else {
        const checker = checkerOf(message)
        if (typeof checker === 'string') {
          note(entry, `${message.eventType}: ${checker}; bodies not checked`)
          continue
        }
        differences = checker.check(parsed.json)
      }
      const score = (d: Difference[]) => d.filter((x) => x.breaking).length * 1000 + d.length
      if (!best || score(differences) < score(best.differences)) best = { message, differences }
    }
    if (!best) continue
    entry.seen.add(best.message)
    for (const d of best.differences) {
      // One finding per undocumented field, and per type a field came as, whatever the values (the
      // first one seen is shown); a value outside an enum or a constraint is one finding per value.
      const came = d.kind === 'undocumented' ? '' : d.kind === 'type' ? d.got.split(' ')[0] : d.got
      const key = `${d.kind}\u0000${d.pointer}\u0000${d.expected}\u0000${came}`
      const finding = entry.findings.get(key)
      if (finding) finding.requestIds.push(request.id)
      else entry.findings.set(key, { ...d, requestIds: [request.id] })
    }
  }

  const operations = [...reports.entries()].map(([operation, { report, seen, findings }]) => {
    const order = { required: 0, type: 1, enum: 2, 'not-json': 3, constraint: 4, undocumented: 5 }
    report.findings = [...findings.values()].sort((a, b) => order[a.kind] - order[b.kind] || a.pointer.localeCompare(b.pointer))
    report.breaking = report.findings.filter((f) => f.breaking).length
    report.unseenEventTypes = operation.messages.filter((m) => !seen.has(m)).map((m) => m.eventType)
    return report
  })
  return {
    spec: { location: spec.location, title: spec.title, version: spec.version, format: spec.format },
    traffic: { read: traffic.length, matched, skipped },
    operations,
    unknownEventTypes: [...unknown.entries()].map(([eventType, requestIds]) => ({ eventType, requestIds })),
    unmatchedRequestIds: unmatched,
    breaking: operations.reduce((n, o) => n + o.breaking, 0),
    undocumented: operations.reduce((n, o) => n + o.findings.filter((f) => f.kind === 'undocumented').length, 0),
    unseenEventTypes: operations.reduce((n, o) => n + o.unseenEventTypes.length, 0),
  }
}
