// What the timeline reads: one delivery with its attempts (and the request our receiver captured
// for each, in loop mode), the receive-only requests of one dedupe group, where a request belongs,
// and a page of row references under a filter. Reads only.
import type { Database } from 'better-sqlite3'
import type { TimelineFilter } from '../../../shared/contract'
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'
import type { RequestRow } from './requests'
import { ATTEMPT_REQUEST, DELIVERY_ENDPOINT, DUPLICATE_ARRIVAL, RECEIVED_GROUP_KEY, RECEIVED_REQUEST, SUBSCRIPTIONS_TO_ENDPOINT, ownRequest } from './count-definitions'
import type { SimulationRow } from './simulations'

/** The columns of a delivery the timeline shows (no faults or in-flight state), with its event's type. */
export type TimelineDeliveryRow = Pick<
  DeliveryRow,
  'id' | 'event_id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'last_attempt_at' | 'next_attempt_at' | 'created_at'
> & { simulation_id: string | null; endpoint_id: string | null } &
  Pick<EventRow, 'event_type'>

type Verdict = Pick<RequestRow, 'verify_valid' | 'verify_reason' | 'verify_json' | 'duplicate_number'>

/**
 * An attempt with the verdict and duplicate number the receiving side saw (null outside loop
 * mode), and whether its request was a duplicate arrival (count-definitions.ts: 1 or 0).
 */
export type TimelineAttemptRow = Pick<
  AttemptRow,
  'id' | 'delivery_id' | 'n' | 'started_at' | 'started_wall_at' | 'duration_ms' | 'outcome' | 'status_code' | 'decision' | 'next_attempt_at'
> &
  Verdict & { request_id: number | null; duplicate_arrival: number }

/** Forward mode, per captured request: how many legs went to a target and how the last one ended. */
export interface TimelineLegRow {
  request_id: number
  legs: number
  outcome: string
  response_status: number | null
  latency_ms: number | null
}

/** A receive-only request, with the event type read from its JSON body when it names one. */
export type TimelineRequestRow = Pick<
  RequestRow,
  'id' | 'endpoint_id' | 'received_at' | 'response_status' | 'response_ms' | 'fault_json' | 'dedupe_key' | keyof Verdict
> & { event_type: string | null; duplicate_arrival: number }

/** Where a request belongs: its attempt's delivery (when it is that attempt's own request), or the dedupe group `key` at its endpoint. */
export type RequestPlaceRow = Pick<RequestRow, 'endpoint_id' | 'attempt_id'> & { key: string; delivery_id: number | null }

/** One row of a timeline page: a delivery (kind d, ref = its id) or a receive-only group (kind r). */
export interface TimelineRef {
  kind: 'd' | 'r'
  ref: number
  endpoint_id: string | null
  gkey: string | null
  first_at: number
}

/** The key that groups receive-only requests: the dedupe key, or the request alone. */
const GROUP_SQL = RECEIVED_GROUP_KEY

/** The most requests a received row reads for its marks; its counts cover the whole group. */
export const GROUP_MARKS_LIMIT = 200
const EVENT_TYPE_SQL = `CASE WHEN json_valid(CAST(body AS TEXT)) THEN COALESCE(json_extract(CAST(body AS TEXT), '$.event_type'), json_extract(CAST(body AS TEXT), '$.type'), json_extract(CAST(body AS TEXT), '$.event')) END`

export function createTimelineReads(db: Database) {
  const deliveryById = db.prepare<[number], TimelineDeliveryRow>(
    `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, d.attempts, d.last_status_code, d.last_attempt_at,
            d.next_attempt_at, d.created_at, d.simulation_id, ${DELIVERY_ENDPOINT} AS endpoint_id
       FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?`,
  )
  const attemptsOf = db.prepare<[number], TimelineAttemptRow>(
    `SELECT a.id, a.delivery_id, a.n, a.started_at, a.started_wall_at, a.duration_ms, a.outcome, a.status_code, a.decision, a.next_attempt_at,
            r.verify_valid, r.verify_reason, r.verify_json, r.duplicate_number, r.id AS request_id,
            r.id IS NOT NULL AND ${DUPLICATE_ARRIVAL} AS duplicate_arrival
       FROM attempts a LEFT JOIN requests r ON ${ATTEMPT_REQUEST}
      WHERE a.delivery_id = ? ORDER BY a.n`,
  )
  const requestsOfGroup = db.prepare<[string | null, string], TimelineRequestRow>(
    `SELECT id, endpoint_id, received_at, response_status, response_ms, fault_json, verify_valid, verify_reason, verify_json,
            dedupe_key, duplicate_number, ${EVENT_TYPE_SQL} AS event_type, ${DUPLICATE_ARRIVAL} AS duplicate_arrival
       FROM requests r
      WHERE ${RECEIVED_REQUEST} AND endpoint_id IS ? AND ${GROUP_SQL} = ?
      ORDER BY id LIMIT ${GROUP_MARKS_LIMIT}`,
  )
  const placeOfRequest = db.prepare<[number], RequestPlaceRow>(
    `SELECT q.endpoint_id, COALESCE(q.dedupe_key, 'request:' || q.id) AS key, q.attempt_id,
            CASE WHEN ${ownRequest('q')} THEN a.delivery_id END AS delivery_id
       FROM requests q LEFT JOIN attempts a ON a.id = q.attempt_id WHERE q.id = ?`,
  )

  // One statement for a whole page of requests (json_each, whatever their number); the bare
  // columns come from the row of MAX(id): the last leg. No bodies: the timeline shows a line.
  const legsOf = db.prepare<[string], TimelineLegRow & { last_id: number }>(
    `SELECT request_id, COUNT(*) AS legs, MAX(id) AS last_id, outcome, response_status, latency_ms
       FROM forward_legs WHERE request_id IN (SELECT value FROM json_each(?)) GROUP BY request_id`,
  )

  // Newest first, read as two ordered streams and merged: deliveries by id (insertion order, so
  // SQLite walks the rowid backwards and never sorts the whole table) and receive-only groups by
  // their first arrival.
  function refs(filter: TimelineFilter, count: number): { refs: TimelineRef[]; total: number } {
    const parts = timelineParts(filter)
    let total = 0
    const refs: TimelineRef[] = []
    if (parts.deliveries) {
      const { from, params } = parts.deliveries
      total += (db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n
      refs.push(...(db.prepare(`SELECT 'd' AS kind, d.id AS ref, NULL AS endpoint_id, NULL AS gkey, d.created_at AS first_at ${from} ORDER BY d.id DESC LIMIT ?`).all(...params, count) as TimelineRef[]))
    }
    if (parts.received) {
      const { sql, params } = parts.received
      total += (db.prepare(`SELECT COUNT(*) AS n FROM (${sql})`).get(...params) as { n: number }).n
      refs.push(...(db.prepare(`${sql} ORDER BY first_at DESC, ref DESC LIMIT ?`).all(...params, count) as TimelineRef[]))
    }
    if (parts.deliveries && parts.received) refs.sort((a, b) => b.first_at - a.first_at || b.ref - a.ref)
    return { refs, total }
  }

  const simulationById = db.prepare<[string], SimulationRow>('SELECT id, mode, scale, started_at, started_wall_at, label FROM simulations WHERE id = ?')

  return {
    delivery: (id: number) => deliveryById.get(id),
    simulation: (id: string) => simulationById.get(id),
    attemptsOf: (deliveryId: number) => attemptsOf.all(deliveryId),
    requestsOfGroup: (endpointId: string | null, key: string) => requestsOfGroup.all(endpointId, key),
    placeOfRequest: (requestId: number) => placeOfRequest.get(requestId),
    /** The forward legs of these requests, one summary each (requests never forwarded are absent). */
    legsOf: (requestIds: readonly number[]): TimelineLegRow[] => (requestIds.length === 0 ? [] : legsOf.all(JSON.stringify(requestIds))),
    /** The first `count` row references of the timeline under `filter`, newest first, and how many there are. */
    refs,
  }
}

export type TimelineReads = ReturnType<typeof createTimelineReads>

export interface TimelineParts {
  /** `FROM deliveries d … WHERE …` and its parameters. */
  deliveries: { from: string; params: unknown[] } | null
  /** A grouped SELECT of receive-only requests (kind, ref, endpoint_id, gkey, first_at). */
  received: { sql: string; params: unknown[] } | null
}

/** TimelineFilter.clock for live traffic; any other value is a simulation's id. */
export const WALL_CLOCK = 'wall'

export function timelineParts(filter: TimelineFilter): TimelineParts {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null
  const wantDeliveries = !statuses || statuses.some((s) => s !== 'received')
  // Receive-only rows are real traffic: on the wall clock, never in a simulation.
  const wantReceived = !filter.subscriptionId && (!statuses || statuses.includes('received')) && (filter.clock === undefined || filter.clock === WALL_CLOCK)
  const parts: TimelineParts = { deliveries: null, received: null }
  if (wantDeliveries) {
    const where: string[] = []
    const params: unknown[] = []
    const deliveryStatuses = statuses?.filter((s) => s !== 'received') ?? []
    if (deliveryStatuses.length > 0) {
      where.push(`d.status IN (${deliveryStatuses.map(() => '?').join(', ')})`)
      params.push(...deliveryStatuses)
    }
    if (filter.subscriptionId) {
      where.push('d.subscription_id = ?')
      params.push(filter.subscriptionId)
    }
    // An endpoint's view holds the deliveries made to it (count-definitions.ts).
    if (filter.endpointId) {
      where.push(`d.subscription_id IN (${SUBSCRIPTIONS_TO_ENDPOINT})`)
      params.push(filter.endpointId)
    }
    if (filter.eventType) {
      where.push('e.event_type = ?')
      params.push(filter.eventType)
    }
    if (filter.search) {
      where.push('d.event_id LIKE ?')
      params.push(`%${escapeLike(filter.search)}%`)
    }
    // deliveries_by_simulation: the rows of one clock, newest first, without reading the others.
    if (filter.clock === WALL_CLOCK) where.push('d.simulation_id IS NULL')
    else if (filter.clock !== undefined) {
      where.push('d.simulation_id = ?')
      params.push(filter.clock)
    }
    const join = filter.eventType ? 'JOIN events e ON e.id = d.event_id' : ''
    parts.deliveries = { from: `FROM deliveries d ${join}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`, params }
  }
  if (wantReceived) {
    const where = [RECEIVED_REQUEST]
    const params: unknown[] = []
    if (filter.endpointId) {
      where.push('endpoint_id = ?')
      params.push(filter.endpointId)
    }
    if (filter.search) {
      where.push(`${GROUP_SQL} LIKE ?`)
      params.push(`%${escapeLike(filter.search)}%`)
    }
    const having = filter.eventType ? ` HAVING MAX(${EVENT_TYPE_SQL}) = ?` : ''
    if (filter.eventType) params.push(filter.eventType)
    parts.received = {
      sql: `SELECT 'r' AS kind, MIN(id) AS ref, endpoint_id, ${GROUP_SQL} AS gkey, MIN(received_at) AS first_at FROM requests r WHERE ${where.join(' AND ')} GROUP BY endpoint_id, gkey${having}`,
      params,
    }
  }
  return parts
}

function escapeLike(text: string): string {
  return text.replace(/[%_]/g, '')
}
