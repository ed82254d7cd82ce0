// What the timeline reads: one delivery with its attempts (and the request our receiver captured
// for each, in loop mode), the receive-only requests of one dedupe group, where a request belongs,
// and a page of row references under a filter. Reads only.
import type { TimelineFilter as ContractFilter } from '../../../shared/contract'
import { DELIVERIES_IN_WORKSPACE, whereCountersInWorkspace, whereRequestInWorkspace } from './workspaces'

/**
 * A page's filter as the contract has it, and with accounts the workspace whose rows it holds: a
 * delivery by its subscription's, a received request by its endpoint's (one at no endpoint's path
 * is `default`'s). Set by the host from the caller, never by a client.
 */
export type TimelineFilter = ContractFilter & { workspace?: string }

import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'
import type { RequestRow } from './requests'
import { ATTEMPT_REQUEST, DELIVERY_ENDPOINT, DUPLICATE_ARRIVAL, RECEIVED_GROUP_KEY, RECEIVED_REQUEST, SUBSCRIPTIONS_TO_ENDPOINT, ownRequest } from './count-definitions'
import { receivedGroupSql, type ArrivalCounts } from './counts'
import { dedupeKeyParams, jsonList, requestEventType, sameAsProbe, sameDedupeKey, valueIs } from './engine-spelling'
import { whereDeliveryEventIdStartsWith, whereRequestFound } from './prefix-search'
import type { SimulationRow } from './simulations'
import type { SqlEngine, StoreKind } from './sql-engine'

/** The columns of a delivery the timeline shows (no faults or in-flight state), with its event's type. */
export type TimelineDeliveryRow = Pick<
  DeliveryRow,
  'id' | 'event_id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'last_attempt_at' | 'next_attempt_at' | 'created_at'
> & { simulation_id: string | null; endpoint_id: string | null; consumer_event_id: string | null } &
  Pick<EventRow, 'event_type'>

/** The request's schema verdict (request_schema_verdicts), its first problem's pointer and expectation; null when not judged. */
interface SchemaColumns {
  schema_verdict: string | null
  schema_pointer: string | null
  schema_expected: string | null
}

type Verdict = Pick<RequestRow, 'verify_valid' | 'verify_reason' | 'verify_json' | 'duplicate_number'> & SchemaColumns

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

/** A receive-only request (its body's event type is read apart: `eventTypesOf`). */
export type TimelineRequestRow = Pick<
  RequestRow,
  'id' | 'endpoint_id' | 'received_at' | 'response_status' | 'response_ms' | 'fault_json' | 'dedupe_key' | Exclude<keyof Verdict, keyof SchemaColumns>
> &
  SchemaColumns & { duplicate_arrival: number }

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
/** The event types a timeline's reads keep, by request id. */
const KNOWN_EVENT_TYPES = 10_000
/** Groups read by one statement (a UNION ALL of one bounded read each; SQLite takes up to 500 terms). */
const GROUPS_PER_READ = 200

/** A received row's key: the endpoint (or none) and the dedupe key, or 'request:<id>' for a request without one. */
export interface GroupRef {
  endpointId: string | null
  key: string
}

/** A request's (r) schema verdict: one lookup by its key per column, none for a request not judged. */
const schemaOf = (column: string) => `(SELECT sv.${column} FROM request_schema_verdicts sv WHERE sv.request_id = r.id)`
const SCHEMA_COLUMNS = `${schemaOf('verdict')} AS schema_verdict, ${schemaOf('pointer')} AS schema_pointer, ${schemaOf('expected')} AS schema_expected`

/** A delivery's rows, an attempt's and a request's as read: an integer 1 or 0 for a flag on both engines (CASE, not a comparison's boolean). */
const flag = (condition: string) => `CASE WHEN ${condition} THEN 1 ELSE 0 END`

/**
 * The timeline's reads on either store engine (SqlEngine). A page is read in a few statements
 * whatever its number of rows: its row references, then its deliveries, their attempts, its groups'
 * requests and their forward legs each in one statement over the whole page (a JSON list of ids),
 * so a page costs the same few awaits on SQLite and the same few round trips on PostgreSQL.
 */
export function createTimelineReads(engine: SqlEngine) {
  const kind = engine.kind
  const ids = jsonList(kind, 'id')
  const DELIVERIES = `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, d.attempts, d.last_status_code, d.last_attempt_at,
            d.next_attempt_at, d.created_at, d.simulation_id, d.consumer_event_id, ${DELIVERY_ENDPOINT} AS endpoint_id
       FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id IN (${ids})`
  const ATTEMPTS = `SELECT a.id, a.delivery_id, a.n, a.started_at, a.started_wall_at, a.duration_ms, a.outcome, a.status_code, a.decision, a.next_attempt_at,
            r.verify_valid, r.verify_reason, r.verify_json, r.duplicate_number, r.id AS request_id, ${SCHEMA_COLUMNS},
            ${flag(`r.id IS NOT NULL AND ${DUPLICATE_ARRIVAL}`)} AS duplicate_arrival
       FROM attempts a LEFT JOIN requests r ON ${ATTEMPT_REQUEST}
      WHERE a.delivery_id IN (${ids}) ORDER BY a.delivery_id, a.n`
  const GROUP_COLUMNS = `id, endpoint_id, received_at, response_status, response_ms, fault_json, verify_valid, verify_reason, verify_json,
            dedupe_key, duplicate_number, ${flag(DUPLICATE_ARRIVAL)} AS duplicate_arrival, ${SCHEMA_COLUMNS}`
  // A row names the event type of its first request only: read for those alone, never for every
  // request of a group (a body is read whole to find it).
  const EVENT_TYPES = `SELECT id, ${requestEventType(kind, 'headers_json', 'body')} AS event_type FROM requests WHERE id IN (${ids})`
  // A group's key is its dedupe key, or 'request:<id>' for a request without one: two reads, so
  // each walks one index (a COALESCE over both would read every request of the endpoint). Keyed
  // groups: one bounded read each (requests_by_dedupe_key), joined in one statement; keyless ones:
  // their requests by id.
  // On PostgreSQL the keyed groups of a read are one statement of one text whatever their number:
  // the groups as a JSON list of rows, each read by a lateral probe of requests_received_groups.
  // A UNION ALL of n probes (SQLite's way, below) is a new text for each n, parsed and planned
  // whole on every read: on a busy team store the live timeline's reads cost the server more than
  // the captures they show. Two statements: the groups with an endpoint, and those at none.
  const keyedGroups = (atEndpoint: boolean) =>
    `SELECT g.grp, r.* FROM json_to_recordset(CAST(? AS json)) AS g(grp INTEGER, endpoint_id TEXT, gkey TEXT)
       CROSS JOIN LATERAL (SELECT ${GROUP_COLUMNS} FROM requests r
         WHERE ${RECEIVED_REQUEST} AND ${atEndpoint ? 'r.endpoint_id = g.endpoint_id' : 'r.endpoint_id IS NULL'} AND r.dedupe_key = g.gkey ORDER BY r.id LIMIT ${GROUP_MARKS_LIMIT}) r
      ORDER BY g.grp, r.id`
  const KEYED_AT_ENDPOINT = keyedGroups(true)
  const KEYED_AT_NONE = keyedGroups(false)
  const keyedGroup = (n: number, endpoint: string) =>
    `SELECT * FROM (SELECT ${n} AS grp, ${GROUP_COLUMNS} FROM requests r
      WHERE ${RECEIVED_REQUEST} AND ${endpoint} AND ${sameDedupeKey(kind, 'dedupe_key', '?')} ORDER BY id LIMIT ${GROUP_MARKS_LIMIT}) g${n}`
  const KEYLESS = `SELECT ${GROUP_COLUMNS} FROM requests r WHERE id IN (${ids}) AND ${RECEIVED_REQUEST} AND dedupe_key IS NULL`
  const PLACES = `SELECT q.id, q.endpoint_id, COALESCE(q.dedupe_key, 'request:' || q.id) AS key, q.attempt_id,
            CASE WHEN ${ownRequest('q')} THEN a.delivery_id END AS delivery_id
       FROM requests q LEFT JOIN attempts a ON a.id = q.attempt_id WHERE q.id IN (${ids})`
  // The last leg of each request (its highest id) with the number of legs: a join on the summary,
  // so the columns are the last leg's on both engines. No bodies: the timeline shows a line.
  const LEGS = `SELECT l.request_id, c.legs, l.outcome, l.response_status, l.latency_ms
       FROM (SELECT request_id, COUNT(*) AS legs, MAX(id) AS last_id FROM forward_legs WHERE request_id IN (${ids}) GROUP BY request_id) c
       JOIN forward_legs l ON l.id = c.last_id`
  const SIMULATIONS = `SELECT id, mode, scale, started_at, started_wall_at, label FROM simulations WHERE id IN (${jsonList(kind, 'text')})`

  const list = (values: readonly (number | string)[]) => JSON.stringify(values)
  // A request's event type never changes (its headers and body are stored once, and ids are never
  // given twice), and the live timeline reads a group again whenever a duplicate arrives or a slow
  // answer lands, naming its first request each time: the types read lately are kept, oldest
  // dropped first, so a body is parsed for its type once.
  const eventTypes = new Map<number, string | null>()

  /** The requests of each group, in arrival order (at most GROUP_MARKS_LIMIT each), in the order asked. */
  async function requestsOfGroups(groups: readonly GroupRef[]): Promise<TimelineRequestRow[][]> {
    const found: TimelineRequestRow[][] = groups.map(() => [])
    const keyless = new Map<number, number>()
    const keyed: number[] = []
    groups.forEach((group, index) => {
      const alone = /^request:(\d+)$/.exec(group.key)
      if (alone) keyless.set(Number(alone[1]), index)
      else keyed.push(index)
    })
    if (keyless.size > 0) {
      for (const row of await engine.all<TimelineRequestRow>(KEYLESS, [list([...keyless.keys()])])) {
        const index = keyless.get(row.id) as number
        if (row.endpoint_id === (groups[index] as GroupRef).endpointId) found[index] = [row]
      }
      // A dedupe key may itself read 'request:<n>': a keyless read that found nothing reads it as a key.
      for (const index of keyless.values()) if ((found[index] as TimelineRequestRow[]).length === 0) keyed.push(index)
    }
    if (kind === 'postgres') {
      for (let start = 0; start < keyed.length; start += GROUPS_PER_READ) {
        const chunk = keyed.slice(start, start + GROUPS_PER_READ).map((index) => ({ grp: index, endpoint_id: (groups[index] as GroupRef).endpointId, gkey: (groups[index] as GroupRef).key }))
        for (const [sql, part] of [[KEYED_AT_ENDPOINT, chunk.filter((g) => g.endpoint_id !== null)], [KEYED_AT_NONE, chunk.filter((g) => g.endpoint_id === null)]] as const) {
          if (part.length === 0) continue
          for (const { grp, ...row } of await engine.all<TimelineRequestRow & { grp: number }>(sql, [JSON.stringify(part)])) (found[grp] as TimelineRequestRow[]).push(row)
        }
      }
      return found
    }
    for (let start = 0; start < keyed.length; start += GROUPS_PER_READ) {
      const chunk = keyed.slice(start, start + GROUPS_PER_READ)
      const params: unknown[] = []
      const sql = chunk
        .map((index) => {
          const group = groups[index] as GroupRef
          const endpoint = valueIs('endpoint_id', group.endpointId)
          params.push(...endpoint.params, ...dedupeKeyParams(kind, group.key))
          return keyedGroup(index, endpoint.sql)
        })
        .join(' UNION ALL ')
      for (const { grp, ...row } of await engine.all<TimelineRequestRow & { grp: number }>(sql, params)) (found[grp] as TimelineRequestRow[]).push(row)
    }
    return found
  }

  // Newest first, read as two ordered streams and merged: deliveries by id (insertion order, so
  // SQLite walks the rowid backwards and never sorts the whole table) and receive-only groups by
  // their first arrival.
  async function refs(filter: TimelineFilter, count: number): Promise<{ refs: TimelineRef[]; total: number }> {
    const parts = timelineParts(filter, kind)
    let total = 0
    const refs: TimelineRef[] = []
    if (parts.deliveries) {
      const { from, params } = parts.deliveries
      total += (await engine.get<{ n: number }>(`SELECT COUNT(*) AS n ${from}`, params))?.n ?? 0
      refs.push(...(await engine.all<TimelineRef>(`SELECT 'd' AS kind, d.id AS ref, NULL AS endpoint_id, NULL AS gkey, d.created_at AS first_at ${from} ORDER BY d.id DESC LIMIT ?`, [...params, count])))
    }
    if (parts.received) {
      const { count: counted, page } = parts.received
      total += Number((await engine.get<{ n: number }>(counted.sql, counted.params))?.n ?? 0)
      refs.push(...(await engine.all<TimelineRef>(`${page.sql} LIMIT ?`, [...page.params, count])))
    }
    if (parts.deliveries && parts.received) refs.sort((a, b) => b.first_at - a.first_at || b.ref - a.ref)
    return { refs, total }
  }

  return {
    /** These deliveries with their event's type and endpoint (absent ids are left out). */
    deliveries: async (deliveryIds: readonly number[]) => (deliveryIds.length === 0 ? [] : engine.all<TimelineDeliveryRow>(DELIVERIES, [list(deliveryIds)])),
    /** The attempts of these deliveries, by delivery and number. */
    attemptsOf: async (deliveryIds: readonly number[]) => (deliveryIds.length === 0 ? [] : engine.all<TimelineAttemptRow>(ATTEMPTS, [list(deliveryIds)])),
    simulations: async (simulationIds: readonly string[]) => (simulationIds.length === 0 ? [] : engine.all<SimulationRow>(SIMULATIONS, [list(simulationIds)])),
    requestsOfGroups,
    /** The event type each request names (a header such as X-GitHub-Event, else its JSON body's event_type, type or event), by request id; absent or null when it names none. */
    eventTypesOf: async (requestIds: readonly number[]): Promise<Map<number, string | null>> => {
      const out = new Map<number, string | null>()
      const unknown: number[] = []
      for (const id of requestIds) {
        const known = eventTypes.get(id)
        if (known === undefined) unknown.push(id)
        else out.set(id, known)
      }
      if (unknown.length === 0) return out
      for (const row of await engine.all<{ id: number; event_type: string | null }>(EVENT_TYPES, [list(unknown)])) {
        out.set(row.id, row.event_type)
        eventTypes.set(row.id, row.event_type)
      }
      for (const id of eventTypes.keys()) {
        if (eventTypes.size <= KNOWN_EVENT_TYPES) break
        eventTypes.delete(id)
      }
      return out
    },
    /** Where each of these requests belongs (absent ids are left out). */
    placesOfRequests: async (requestIds: readonly number[]) => (requestIds.length === 0 ? [] : engine.all<RequestPlaceRow & { id: number }>(PLACES, [list(requestIds)])),
    /** The forward legs of these requests, one summary each (requests never forwarded are absent). */
    legsOf: async (requestIds: readonly number[]): Promise<TimelineLegRow[]> => (requestIds.length === 0 ? [] : engine.all<TimelineLegRow>(LEGS, [list(requestIds)])),
    /** A received row's arrivals and duplicates, counted whole (its marks stop at GROUP_MARKS_LIMIT). */
    groupCounts: async (group: GroupRef): Promise<ArrivalCounts> => {
      const { sql, params } = receivedGroupSql(group.endpointId, group.key)
      return (await engine.get<ArrivalCounts>(sql, params)) ?? { arrivals: 0, duplicates: 0 }
    },
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
const firstOfGroup = (kind: StoreKind) => `(r.dedupe_key IS NULL OR NOT ${sameAsProbe(kind, 'p.endpoint_id', 'r.endpoint_id', (sameEndpoint) => `EXISTS (SELECT 1 FROM requests p
   WHERE p.attempt_id IS NULL AND ${sameEndpoint} AND ${sameDedupeKey(kind, 'p.dedupe_key', 'r.dedupe_key')}
     AND (p.received_at < r.received_at OR (p.received_at = r.received_at AND p.id < r.id)))`)})`

/** The statements of a timeline page under `filter`, in the spelling of the store engine `kind`. */
export function timelineParts(filter: TimelineFilter, kind: StoreKind = 'sqlite'): TimelineParts {
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
    if (filter.workspace !== undefined) {
      where.push(DELIVERIES_IN_WORKSPACE)
      params.push(filter.workspace)
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
  if (wantReceived) parts.received = filter.eventType ? receivedOfEventType(filter, filter.eventType, kind) : received(filter, kind)
  return parts
}

/**
 * Receive-only groups, read from the indexes: the newest first arrivals (walking requests by time,
 * each checked with one probe), and the number of groups from the counters (a request without a
 * dedupe key counts as a group of its own; docs/BENCHMARKS.md, scale).
 */
/** The received rows the counters hold under the filter's endpoint and workspace (no search). */
function receivedCounters(filter: TimelineFilter): Statement {
  const where: string[] = []
  const params: unknown[] = []
  if (filter.endpointId) {
    where.push('endpoint_key = ?')
    params.push(filter.endpointId)
  }
  if (filter.workspace !== undefined) whereCountersInWorkspace(filter.workspace, where, params)
  return { sql: `SELECT COALESCE(SUM(received_rows), 0) AS n FROM request_counts${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`, params }
}

function received(filter: TimelineFilter, kind: StoreKind): { count: Statement; page: Statement } {
  const where = [RECEIVED_REQUEST]
  const params: unknown[] = []
  // In arrival order from the index that has it; requests_by_dedupe_key would need a sort.
  let walk = ''
  if (filter.endpointId) {
    where.push('r.endpoint_id = ?')
    params.push(filter.endpointId)
    walk = 'INDEXED BY requests_by_endpoint'
  }
  // The workspace's endpoints: by the endpoint's index when one is named, else any.
  if (filter.workspace !== undefined) {
    whereRequestInWorkspace(filter.workspace, where, params)
    if (!filter.endpointId) walk = ''
  }
  if (filter.search) {
    // Keyed requests by their event id, keyless ones by their body text (prefix-search.ts).
    whereRequestFound(filter.search, where, params, kind)
    walk = ''
  }
  const conditions = where.join(' AND ')
  return {
    // Searched: the groups found by their key's start (a range of requests_by_key_nocase) and the
    // keyless requests found by their body, each a group of its own (prefix-search.ts). Otherwise
    // the counters the triggers keep (count-definitions.ts, REQUEST_COUNTS_SQL): a few rows,
    // whatever the history holds.
    count: filter.search
      ? { sql: `SELECT COUNT(*) AS n FROM (SELECT DISTINCT r.endpoint_id, COALESCE(r.dedupe_key, 'request:' || r.id) FROM requests r WHERE ${conditions}) found`, params }
      : receivedCounters(filter),
    page: {
      sql: `SELECT 'r' AS kind, r.id AS ref, r.endpoint_id, COALESCE(r.dedupe_key, 'request:' || r.id) AS gkey, r.received_at AS first_at
              FROM requests r ${walk} WHERE ${conditions} AND ${firstOfGroup(kind)} ORDER BY r.received_at DESC, r.id DESC`,
      params,
    },
  }
}

/** Receive-only groups whose requests name an event type (a header, else a body field): read from every receive-only request (neither has an index). */
function receivedOfEventType(filter: TimelineFilter, eventType: string, kind: StoreKind): { count: Statement; page: Statement } {
  const where = [RECEIVED_REQUEST]
  const params: unknown[] = []
  if (filter.endpointId) {
    where.push('endpoint_id = ?')
    params.push(filter.endpointId)
  }
  if (filter.workspace !== undefined) whereRequestInWorkspace(filter.workspace, where, params)
  if (filter.search) whereRequestFound(filter.search, where, params, kind)
  const grouped = `SELECT 'r' AS kind, MIN(id) AS ref, endpoint_id, ${GROUP_SQL} AS gkey, MIN(received_at) AS first_at FROM requests r WHERE ${where.join(' AND ')}
    GROUP BY endpoint_id, ${GROUP_SQL} HAVING MAX(${requestEventType(kind, 'headers_json', 'body')}) = ?`
  return {
    count: { sql: `SELECT COUNT(*) AS n FROM (${grouped}) typed`, params: [...params, eventType] },
    page: { sql: `${grouped} ORDER BY first_at DESC, ref DESC`, params: [...params, eventType] },
  }
}
