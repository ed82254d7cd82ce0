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
import { whereDeliveryEventIdStartsWith, whereStartsWith } from './prefix-search'
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
  // A group's key is its dedupe key, or 'request:<id>' for a request without one: two statements,
  // so each reads one index (a COALESCE over both would read every request of the endpoint).
  const GROUP_COLUMNS = `id, endpoint_id, received_at, response_status, response_ms, fault_json, verify_valid, verify_reason, verify_json,
            dedupe_key, duplicate_number, ${EVENT_TYPE_SQL} AS event_type, ${DUPLICATE_ARRIVAL} AS duplicate_arrival`
  const requestsOfKey = db.prepare<[string | null, string], TimelineRequestRow>(
    `SELECT ${GROUP_COLUMNS} FROM requests r WHERE ${RECEIVED_REQUEST} AND endpoint_id IS ? AND dedupe_key = ? ORDER BY id LIMIT ${GROUP_MARKS_LIMIT}`,
  )
  const keylessRequest = db.prepare<[string | null, number], TimelineRequestRow>(
    `SELECT ${GROUP_COLUMNS} FROM requests r WHERE endpoint_id IS ? AND id = ? AND ${RECEIVED_REQUEST} AND dedupe_key IS NULL`,
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
      const { count: counted, page } = parts.received
      total += db.prepare(counted.sql).pluck().get(...counted.params) as number
      refs.push(...(db.prepare(`${page.sql} LIMIT ?`).all(...page.params, count) as TimelineRef[]))
    }
    if (parts.deliveries && parts.received) refs.sort((a, b) => b.first_at - a.first_at || b.ref - a.ref)
    return { refs, total }
  }

  const simulationById = db.prepare<[string], SimulationRow>('SELECT id, mode, scale, started_at, started_wall_at, label FROM simulations WHERE id = ?')

  return {
    delivery: (id: number) => deliveryById.get(id),
    simulation: (id: string) => simulationById.get(id),
    attemptsOf: (deliveryId: number) => attemptsOf.all(deliveryId),
    requestsOfGroup(endpointId: string | null, key: string): TimelineRequestRow[] {
      const keyless = /^request:(\d+)$/.exec(key)
      const alone = keyless ? keylessRequest.all(endpointId, Number(keyless[1])) : []
      return alone.length > 0 ? alone : requestsOfKey.all(endpointId, key)
    },
    placeOfRequest: (requestId: number) => placeOfRequest.get(requestId),
    /** The forward legs of these requests, one summary each (requests never forwarded are absent). */
    legsOf: (requestIds: readonly number[]): TimelineLegRow[] => (requestIds.length === 0 ? [] : legsOf.all(JSON.stringify(requestIds))),
    /** The first `count` row references of the timeline under `filter`, newest first, and how many there are. */
    refs,
  }
}

export type TimelineReads = ReturnType<typeof createTimelineReads>

interface Statement {
  sql: string
  params: unknown[]
}

export interface TimelineParts {
  /** `FROM deliveries d … WHERE …` and its parameters. */
  deliveries: { from: string; params: unknown[] } | null
  /** Receive-only groups: how many there are, and a SELECT (kind, ref, endpoint_id, gkey, first_at) newest first, to be limited. */
  received: { count: Statement; page: Statement } | null
}

/** TimelineFilter.clock for live traffic; any other value is a simulation's id. */
export const WALL_CLOCK = 'wall'

/**
 * A receive-only request is its group's first arrival when no request of the same endpoint and
 * dedupe key (outside loop mode) came before it: one probe of an (endpoint_id, dedupe_key) index.
 * A request without a dedupe key is a group of its own.
 */
const FIRST_OF_GROUP = `(r.dedupe_key IS NULL OR NOT EXISTS (SELECT 1 FROM requests p
   WHERE p.attempt_id IS NULL AND p.endpoint_id IS r.endpoint_id AND p.dedupe_key = r.dedupe_key
     AND (p.received_at < r.received_at OR (p.received_at = r.received_at AND p.id < r.id))))`

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
    if (filter.search) whereDeliveryEventIdStartsWith('d', filter.search, where, params)
    // deliveries_by_simulation: the rows of one clock, newest first, without reading the others.
    if (filter.clock === WALL_CLOCK) where.push('d.simulation_id IS NULL')
    else if (filter.clock !== undefined) {
      where.push('d.simulation_id = ?')
      params.push(filter.clock)
    }
    const join = filter.eventType ? 'JOIN events e ON e.id = d.event_id' : ''
    parts.deliveries = { from: `FROM deliveries d ${join}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`, params }
  }
  if (wantReceived) parts.received = filter.eventType ? receivedOfEventType(filter, filter.eventType) : received(filter)
  return parts
}

/**
 * Receive-only groups, read from the indexes: the newest first arrivals (walking requests by time,
 * each checked with one probe), and the number of groups from the counters (a request without a
 * dedupe key counts as a group of its own; docs/BENCHMARKS.md, scale).
 */
function received(filter: TimelineFilter): { count: Statement; page: Statement } {
  const where = [RECEIVED_REQUEST]
  const params: unknown[] = []
  // In arrival order from the index that has it; requests_by_dedupe_key would need a sort.
  let walk = ''
  if (filter.endpointId) {
    where.push('r.endpoint_id = ?')
    params.push(filter.endpointId)
    walk = 'INDEXED BY requests_by_endpoint'
  }
  if (filter.search) {
    // Only keyed requests have an event id to search.
    whereStartsWith('r.dedupe_key', filter.search, where, params)
    walk = ''
  }
  const conditions = where.join(' AND ')
  return {
    // Searched: the groups whose key starts with the text (a range of requests_by_key_nocase).
    // Otherwise the counters the triggers keep (count-definitions.ts, REQUEST_COUNTS_SQL): a few
    // rows, whatever the history holds.
    count: filter.search
      ? { sql: `SELECT COUNT(*) FROM (SELECT DISTINCT r.endpoint_id, r.dedupe_key FROM requests r WHERE ${conditions})`, params }
      : filter.endpointId
        ? { sql: 'SELECT COALESCE(SUM(received_rows), 0) FROM request_counts WHERE endpoint_key = ?', params: [filter.endpointId] }
        : { sql: 'SELECT COALESCE(SUM(received_rows), 0) FROM request_counts', params: [] },
    page: {
      sql: `SELECT 'r' AS kind, r.id AS ref, r.endpoint_id, COALESCE(r.dedupe_key, 'request:' || r.id) AS gkey, r.received_at AS first_at
              FROM requests r ${walk} WHERE ${conditions} AND ${FIRST_OF_GROUP} ORDER BY r.received_at DESC, r.id DESC`,
      params,
    },
  }
}

/** Receive-only groups whose requests' bodies name an event type: read from every receive-only request (a body field has no index). */
function receivedOfEventType(filter: TimelineFilter, eventType: string): { count: Statement; page: Statement } {
  const where = [RECEIVED_REQUEST]
  const params: unknown[] = []
  if (filter.endpointId) {
    where.push('endpoint_id = ?')
    params.push(filter.endpointId)
  }
  if (filter.search) whereStartsWith('dedupe_key', filter.search, where, params)
  const grouped = `SELECT 'r' AS kind, MIN(id) AS ref, endpoint_id, ${GROUP_SQL} AS gkey, MIN(received_at) AS first_at FROM requests r WHERE ${where.join(' AND ')}
    GROUP BY endpoint_id, gkey HAVING MAX(${EVENT_TYPE_SQL}) = ?`
  return {
    count: { sql: `SELECT COUNT(*) FROM (${grouped})`, params: [...params, eventType] },
    page: { sql: `${grouped} ORDER BY first_at DESC, ref DESC`, params: [...params, eventType] },
  }
}
