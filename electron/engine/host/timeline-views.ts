// The timeline's rows as views, built over the store's timeline reads (store/timeline-reads.ts): one row per
// delivery (sender side), holding one mark per attempt, and one row per dedupe key at an endpoint
// for every other request (receive-only): each request is in exactly one row (the rule is
// ownRequest in store/count-definitions.ts, and docs/ui.md). Reads only; the engine's modules
// own every write.
import type { DeliveryStatus, MarkTone, RowClock, SchemaBadge, SignatureBadge, TimelineMark, TimelineRow } from '../../../shared/contract'
import type { SchemeId, VerifyReason } from '../../../shared/signatures'
import { createTimelineReads, GROUP_MARKS_LIMIT, type TimelineFilter, type ArrivalCounts, type GroupRef, type SqlEngine, type TimelineAttemptRow, type TimelineDeliveryRow, type TimelineRequestRow } from '../store'
import { appMark } from './forward-views'
import { answeredHandshake, handshakeEventType, handshakeMarkLabel } from './handshake-label'

// Real traffic and deliveries sent on the real clock (docs/time.md).
const WALL: RowClock = { kind: 'wall' }

export type GroupKey = GroupRef

/** A row as read, with the captured request each of its marks stands for (by mark id). */
interface Built {
  row: TimelineRow
  requests: Map<number, number>
}

/** The rows to read: deliveries by id and received rows by group. */
export interface RowRefs {
  deliveryIds: readonly number[]
  groups: readonly GroupKey[]
}

/**
 * The timeline's rows over either store engine. Every read takes a whole set of rows (a page, or
 * the rows a change touched) in a few statements, whatever their number: each awaited read is
 * one statement over all of them (store/timeline-reads.ts).
 */
export function createTimelineViews(engine: SqlEngine) {
  const reads = createTimelineReads(engine)
  // A simulation's row never changes once written: one read per simulation for the life of the host.
  const clocks = new Map<string, RowClock>()
  async function learnClocks(simulationIds: Iterable<string | null>): Promise<void> {
    const unknown = [...new Set([...simulationIds].filter((id): id is string => id !== null && !clocks.has(id)))]
    if (unknown.length === 0) return
    const found = new Map((await reads.simulations(unknown)).map((sim) => [sim.id, sim]))
    for (const simulationId of unknown) {
      const sim = found.get(simulationId)
      // A delivery names its simulation by a foreign key; a missing row would be a store from elsewhere.
      clocks.set(simulationId, sim ? { kind: 'simulated', simulationId, mode: sim.mode, startedAt: sim.started_at } : WALL)
    }
  }
  const clockOf = (simulationId: string | null): RowClock => (simulationId === null ? WALL : (clocks.get(simulationId) ?? WALL))

  /**
   * Forward mode: the "did the app see it" line under each mark, for a whole set of rows in one
   * read. Marks carry the request they stand for (`requests` maps a mark to it).
   */
  async function withApp(built: readonly Built[]): Promise<TimelineRow[]> {
    const ids = built.flatMap((b) => [...b.requests.values()])
    const legs = new Map((await reads.legsOf(ids)).map((l) => [l.request_id, l]))
    if (legs.size === 0) return built.map((b) => b.row)
    return built.map(({ row, requests }) => {
      let any = false
      const marks = row.marks.map((mark) => {
        const requestId = requests.get(mark.id)
        const leg = requestId === undefined ? undefined : legs.get(requestId)
        if (!leg) return mark
        any = true
        return { ...mark, app: appMark({ outcome: leg.outcome, status: leg.response_status, latencyMs: leg.latency_ms }, leg.legs) }
      })
      return any ? { ...row, marks } : row
    })
  }

  async function buildDeliveryRows(deliveryIds: readonly number[]): Promise<Map<number, Built>> {
    const built = new Map<number, Built>()
    if (deliveryIds.length === 0) return built
    const [deliveries, allAttempts] = await Promise.all([reads.deliveries(deliveryIds), reads.attemptsOf(deliveryIds)])
    await learnClocks(deliveries.map((d) => d.simulation_id))
    const attemptsOf = new Map<number, TimelineAttemptRow[]>()
    for (const a of allAttempts) {
      const list = attemptsOf.get(a.delivery_id)
      if (list) list.push(a)
      else attemptsOf.set(a.delivery_id, [a])
    }
    for (const d of deliveries) built.set(d.id, builtDelivery(d, attemptsOf.get(d.id) ?? [], clockOf(d.simulation_id)))
    return built
  }

  async function buildReceivedRows(groups: readonly GroupKey[]): Promise<(Built | null)[]> {
    const requestsOf = await reads.requestsOfGroups(groups)
    const eventTypes = await reads.eventTypesOf(requestsOf.flatMap((requests) => (requests[0] ? [requests[0].id] : [])))
    return Promise.all(
      groups.map(async (group, index) => {
        const requests = requestsOf[index] as TimelineRequestRow[]
        if (requests.length === 0) return null
        // The marks stop at GROUP_MARKS_LIMIT requests; the counts never do (a rare group that big: one read more).
        const counted =
          requests.length < GROUP_MARKS_LIMIT
            ? { arrivals: requests.length, duplicates: requests.reduce((sum, r) => sum + r.duplicate_arrival, 0) }
            : await reads.groupCounts(group)
        return builtReceived(group, requests, eventTypes.get((requests[0] as TimelineRequestRow).id) ?? null, counted)
      }),
    )
  }

  /** These rows as they are now, deliveries then received rows; rows no longer in the store are left out. */
  async function rows(refs: RowRefs): Promise<TimelineRow[]> {
    const [deliveries, received] = await Promise.all([buildDeliveryRows(refs.deliveryIds), buildReceivedRows(refs.groups)])
    const built = [...refs.deliveryIds.flatMap((id) => deliveries.get(id) ?? []), ...received.flatMap((b) => b ?? [])]
    return withApp(built)
  }

  async function deliveryRow(id: number): Promise<TimelineRow | null> {
    return (await rows({ deliveryIds: [id], groups: [] }))[0] ?? null
  }

  async function receivedRow(group: GroupKey): Promise<TimelineRow | null> {
    return (await rows({ deliveryIds: [], groups: [group] }))[0] ?? null
  }

  /**
   * Which timeline row each captured request belongs to: its attempt's delivery when it is that
   * attempt's own request, else its endpoint's dedupe group. Requests not in the store are left out.
   */
  async function rowsOfRequests(requestIds: readonly number[]): Promise<Map<number, { deliveryId: number } | GroupKey>> {
    const places = new Map<number, { deliveryId: number } | GroupKey>()
    for (const found of await reads.placesOfRequests(requestIds)) {
      places.set(found.id, found.delivery_id !== null ? { deliveryId: found.delivery_id } : { endpointId: found.endpoint_id, key: found.key })
    }
    return places
  }

  async function rowOfRequest(requestId: number): Promise<{ deliveryId: number } | GroupKey | null> {
    return (await rowsOfRequests([requestId])).get(requestId) ?? null
  }

  async function page(filter: TimelineFilter, offset: number, limit: number): Promise<{ rows: TimelineRow[]; total: number }> {
    const { refs, total } = await reads.refs(filter, offset + limit)
    const shown = refs.slice(offset, offset + limit)
    const [deliveries, received] = await Promise.all([
      buildDeliveryRows(shown.flatMap((ref) => (ref.kind === 'd' ? [ref.ref] : []))),
      buildReceivedRows(shown.flatMap((ref) => (ref.kind === 'r' ? [{ endpointId: ref.endpoint_id, key: ref.gkey ?? '' }] : []))),
    ])
    // In the page's order: the received rows were read in the order their refs come.
    let nextReceived = 0
    const built = shown.flatMap((ref) => (ref.kind === 'd' ? (deliveries.get(ref.ref) ?? []) : (received[nextReceived++] ?? [])))
    return { rows: await withApp(built), total }
  }

  return { deliveryRow, receivedRow, rows, rowOfRequest, rowsOfRequests, page }
}

function builtDelivery(d: TimelineDeliveryRow, attempts: readonly TimelineAttemptRow[], clock: RowClock): Built {
  const marks: TimelineMark[] = attempts.map((a, index) => ({
    kind: 'attempt',
    id: a.id,
    n: a.n,
    at: a.started_at,
    // A simulated attempt shows both times: its scenario time and when it really went.
    ...(clock.kind === 'simulated' && a.started_wall_at !== null && a.started_wall_at !== a.started_at ? { wallAt: a.started_wall_at } : {}),
    durationMs: a.duration_ms,
    tone: attemptTone(a, index === attempts.length - 1, d.status),
    label: a.decision === 'pending' ? '…' : outcomeLabel(a.outcome, a.status_code),
    nextAt: a.next_attempt_at,
  }))
  const last = attempts[attempts.length - 1]
  // Duplicate arrivals: counted as the subscription card counts them (store/counts.ts).
  const duplicates = attempts.reduce((sum, a) => sum + a.duplicate_arrival, 0)
  const requests = new Map(attempts.flatMap((a) => (a.request_id === null ? [] : [[a.id, a.request_id] as const])))
  const row: TimelineRow = {
    key: `d:${d.id}`,
    kind: 'delivery',
    deliveryId: d.id,
    eventId: d.event_id,
    consumerEventId: d.consumer_event_id,
    eventType: d.event_type,
    status: d.status,
    subscriptionId: d.subscription_id,
    endpointId: d.endpoint_id,
    attempts: d.attempts,
    lastStatusCode: d.last_status_code,
    firstAt: attempts[0]?.started_at ?? d.created_at,
    lastAt: d.last_attempt_at,
    nextAt: d.next_attempt_at,
    signature: last ? badge(last.verify_valid, last.verify_reason, last.verify_json) : { state: 'none' },
    ...schemaBadge(last),
    duplicates,
    marks,
    clock,
  }
  return { row, requests }
}

function builtReceived(group: GroupKey, requests: readonly TimelineRequestRow[], eventType: string | null, counted: ArrivalCounts): Built {
  const first = requests[0] as TimelineRequestRow
  const last = requests[requests.length - 1] as TimelineRequestRow
  const firstHandshake = answeredHandshake(first.fault_json)
  const row: TimelineRow = {
    key: `r:${group.endpointId ?? '-'}:${group.key}`,
    kind: 'received',
    deliveryId: null,
    eventId: first.dedupe_key ?? `request #${first.id}`,
    consumerEventId: null,
    eventType: eventType || (firstHandshake ? handshakeEventType(firstHandshake) : ''),
    status: 'received',
    subscriptionId: null,
    endpointId: group.endpointId,
    attempts: counted.arrivals,
    lastStatusCode: last.response_status,
    firstAt: first.received_at,
    lastAt: last.received_at,
    nextAt: null,
    signature: badge(last.verify_valid, last.verify_reason, last.verify_json),
    ...schemaBadge(last),
    duplicates: counted.duplicates,
    marks: requests.map((r, index) => ({
      kind: 'request',
      id: r.id,
      n: index + 1,
      at: r.received_at,
      durationMs: r.response_ms,
      tone: statusTone(r.response_status),
      label: `${heldAtBreakpoint(r.fault_json) ? 'held · ' : ''}${answeredHandshake(r.fault_json) ? handshakeMarkLabel(r.response_status) : r.response_status === null ? 'no answer' : String(r.response_status)}`,
      nextAt: null,
    })),
    // attempt_id IS NULL: real traffic, recorded on the wall clock whatever the engine's clock.
    clock: WALL,
  }
  // A receive-only mark is its request.
  return { row, requests: new Map(requests.map((r) => [r.id, r.id])) }
}

export type TimelineViews = ReturnType<typeof createTimelineViews>

/** Whether the request stopped at a breakpoint (its fault keeps the hold): its mark says so. */
const heldAtBreakpoint = (faultJson: string | null): boolean => faultJson !== null && faultJson.includes('"hold":{')

export function statusTone(status: number | null): MarkTone {
  if (status === null) return 'retrying'
  if (status >= 200 && status < 300) return 'ok'
  if (status >= 500) return 'retrying'
  return 'final'
}

function attemptTone(a: TimelineAttemptRow, isLast: boolean, status: DeliveryStatus): MarkTone {
  switch (a.decision) {
    case 'succeeded':
      return 'ok'
    case 'retry':
      return 'retrying'
    case 'failed':
      // A final 4xx/3xx answer, or the last of the retries running out.
      if (isLast && status === 'failed' && (a.status_code === null || a.status_code >= 500)) return 'failed'
      return 'final'
    default:
      return 'pending'
  }
}

export function outcomeLabel(outcome: string, statusCode: number | null): string {
  if (statusCode !== null) return String(statusCode)
  if (outcome.startsWith('http_')) return outcome.slice(5)
  return outcome.replace(/_/g, ' ')
}

/** The row's `schema` field from its last request's verdict; nothing when that request is not judged. */
function schemaBadge(last: { schema_verdict: string | null; schema_pointer: string | null; schema_expected: string | null } | undefined): { schema?: SchemaBadge } {
  const verdict = last?.schema_verdict
  if (verdict !== 'valid' && verdict !== 'invalid' && verdict !== 'no-schema') return {}
  return { schema: { verdict, ...(last?.schema_pointer == null ? {} : { pointer: last.schema_pointer }), ...(last?.schema_expected == null ? {} : { expected: last.schema_expected }) } }
}

export function badge(valid: number | null, reason: string | null, verifyJson: string | null): SignatureBadge {
  if (valid === null) return { state: 'none' }
  let scheme: SchemeId | undefined
  let detail: string | undefined
  if (verifyJson) {
    try {
      const parsed = JSON.parse(verifyJson) as { scheme?: SchemeId; detail?: string }
      scheme = parsed.scheme
      detail = parsed.detail
    } catch {
      // A verify result we cannot read still shows its reason code.
    }
  }
  return { state: valid ? 'valid' : 'invalid', reason: (reason ?? undefined) as VerifyReason | undefined, scheme, detail }
}
