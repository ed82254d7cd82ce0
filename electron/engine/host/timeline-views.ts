// The timeline's rows as views, built over the store's timeline reads (store/timeline-reads.ts): one row per
// delivery (sender side), holding one mark per attempt, and one row per dedupe key at an endpoint
// for every other request (receive-only): each request is in exactly one row (the rule is
// ownRequest in store/count-definitions.ts, and docs/ui.md). Reads only; the engine's modules
// own every write.
import type { Database } from 'better-sqlite3'
import type { DeliveryStatus, MarkTone, RowClock, SignatureBadge, TimelineFilter, TimelineMark, TimelineRow } from '../../../shared/contract'
import type { SchemeId, VerifyReason } from '../../../shared/signatures'
import { createTimelineReads, GROUP_MARKS_LIMIT, type TimelineAttemptRow, createCountReads } from '../store'
import { appMark } from './forward-views'
import { answeredHandshake, handshakeEventType, handshakeMarkLabel } from './handshake-label'

// Real traffic and deliveries sent on the real clock (docs/time.md).
const WALL: RowClock = { kind: 'wall' }

export interface GroupKey {
  endpointId: string | null
  key: string
}

/** A row as read, with the captured request each of its marks stands for (by mark id). */
interface Built {
  row: TimelineRow
  requests: Map<number, number>
}

export function createTimelineViews(db: Database) {
  const reads = createTimelineReads(db)
  const counts = createCountReads(db)
  // A simulation's row never changes once written: one read per simulation for the life of the host.
  const clocks = new Map<string, RowClock>()
  function clockOf(simulationId: string | null): RowClock {
    if (simulationId === null) return WALL
    let clock = clocks.get(simulationId)
    if (!clock) {
      const sim = reads.simulation(simulationId)
      // A delivery names its simulation by a foreign key; a missing row would be a store from elsewhere.
      clock = sim ? { kind: 'simulated', simulationId, mode: sim.mode, startedAt: sim.started_at } : WALL
      clocks.set(simulationId, clock)
    }
    return clock
  }

  /**
   * Forward mode: the "did the app see it" line under each mark, for a whole set of rows in one
   * read. Marks carry the request they stand for (`requests` maps a mark to it).
   */
  function withApp(built: readonly Built[]): TimelineRow[] {
    const ids = built.flatMap((b) => [...b.requests.values()])
    const legs = new Map(reads.legsOf(ids).map((l) => [l.request_id, l]))
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

  function deliveryRow(id: number): TimelineRow | null {
    const built = buildDeliveryRow(id)
    return built && (withApp([built])[0] ?? null)
  }

  function receivedRow(group: GroupKey): TimelineRow | null {
    const built = buildReceivedRow(group)
    return built && (withApp([built])[0] ?? null)
  }

  function buildDeliveryRow(id: number): Built | null {
    const d = reads.delivery(id)
    if (!d) return null
    const attempts = reads.attemptsOf(id)
    const clock = clockOf(d.simulation_id)
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
      duplicates,
      marks,
      clock,
    }
    return { row, requests }
  }

  function buildReceivedRow(group: GroupKey): Built | null {
    const requests = reads.requestsOfGroup(group.endpointId, group.key)
    const first = requests[0]
    const last = requests[requests.length - 1]
    if (!first || !last) return null
    const firstHandshake = answeredHandshake(first.fault_json)
    // The marks stop at GROUP_MARKS_LIMIT requests; the counts never do.
    const counted =
      requests.length < GROUP_MARKS_LIMIT
        ? { arrivals: requests.length, duplicates: requests.reduce((sum, r) => sum + r.duplicate_arrival, 0) }
        : counts.receivedGroup(group.endpointId, group.key)
    const row: TimelineRow = {
      key: `r:${group.endpointId ?? '-'}:${group.key}`,
      kind: 'received',
      deliveryId: null,
      eventId: first.dedupe_key ?? `request #${first.id}`,
      consumerEventId: null,
      eventType: first.event_type || (firstHandshake ? handshakeEventType(firstHandshake) : ''),
      status: 'received',
      subscriptionId: null,
      endpointId: group.endpointId,
      attempts: counted.arrivals,
      lastStatusCode: last.response_status,
      firstAt: first.received_at,
      lastAt: last.received_at,
      nextAt: null,
      signature: badge(last.verify_valid, last.verify_reason, last.verify_json),
      duplicates: counted.duplicates,
      marks: requests.map((r, index) => ({
        kind: 'request',
        id: r.id,
        n: index + 1,
        at: r.received_at,
        durationMs: r.response_ms,
        tone: statusTone(r.response_status),
        label: answeredHandshake(r.fault_json) ? handshakeMarkLabel(r.response_status) : r.response_status === null ? 'no answer' : String(r.response_status),
        nextAt: null,
      })),
      // attempt_id IS NULL: real traffic, recorded on the wall clock whatever the engine's clock.
      clock: WALL,
    }
    // A receive-only mark is its request.
    return { row, requests: new Map(requests.map((r) => [r.id, r.id])) }
  }

  /**
   * Which timeline row a captured request belongs to: its attempt's delivery when it is that
   * attempt's own request, else its endpoint's dedupe group. Null only for a request not in the store.
   */
  function rowOfRequest(requestId: number): { deliveryId: number } | GroupKey | null {
    const found = reads.placeOfRequest(requestId)
    if (!found) return null
    if (found.delivery_id !== null) return { deliveryId: found.delivery_id }
    return { endpointId: found.endpoint_id, key: found.key }
  }

  function page(filter: TimelineFilter, offset: number, limit: number): { rows: TimelineRow[]; total: number } {
    const { refs, total } = reads.refs(filter, offset + limit)
    const built: Built[] = []
    for (const ref of refs.slice(offset, offset + limit)) {
      const row = ref.kind === 'd' ? buildDeliveryRow(ref.ref) : buildReceivedRow({ endpointId: ref.endpoint_id, key: ref.gkey ?? '' })
      if (row) built.push(row)
    }
    return { rows: withApp(built), total }
  }

  return { deliveryRow, receivedRow, rowOfRequest, page }
}

export type TimelineViews = ReturnType<typeof createTimelineViews>

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
