// What is stored, as lists a script or a tool reads: captured requests and deliveries under
// filters (endpoint, subscription, event id prefix, status words, a wall-clock start), newest
// first, each row led by the id `export` and `resend` take. Reads only; every filter is a bound
// parameter, and each common filter has an index to walk (docs/cli.md, "Listing what is stored").
// On either engine (SqlEngine): the same rows from a data folder and from a team's PostgreSQL.
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../shared/sender'
import { DELIVERY_ENDPOINT, DUPLICATE_ARRIVAL, SUBSCRIPTIONS_TO_ENDPOINT } from './count-definitions'
import { whereDeliveryEventIdStartsWith, whereRequestKeyStartsWith } from './prefix-search'
import type { SqlEngine, StoreKind } from './sql-engine'
import { LIST_LIMIT_MAX, type DeliveryListRow, type RequestListRow, type RequestStatus } from '../../../shared/contract'
import { mergeStreams, subscriptionIds, wallAgeOrder } from './wall-age-reads'
import { DELIVERIES_IN_WORKSPACE, whereRequestInWorkspace } from './workspaces'

// The status words, the limit and the rows are the contract's (shared/contract/list-commands.ts):
// a served Hookloop answers the same lists over its control socket (`request.list`, `delivery.list`).
export { LIST_LIMIT_MAX, REQUEST_STATUSES, type DeliveryListRow, type RequestListRow, type RequestStatus } from '../../../shared/contract'
export { DELIVERY_STATUSES, type DeliveryStatus }

interface CommonFilter {
  /** An endpoint's id (resolve a slug with `endpointOf`). */
  endpointId?: string
  /** Event ids that start with this text, in any ASCII case (the app's search). */
  eventIdPrefix?: string
  /** Rows stored from this wall time on (ms since the epoch): requests by stored_at, deliveries by created_wall_at, whatever clock the row runs on. */
  sinceWall?: number
  /** At most this many rows, newest first. */
  limit: number
  /** With accounts: only this workspace's rows (a request by its endpoint's, a delivery by its subscription's). */
  workspace?: string
}

/** Any of `statuses` matches (a request may be valid and a duplicate: it matches either word). */
export interface RequestListFilter extends CommonFilter {
  statuses?: readonly RequestStatus[]
}

export interface DeliveryListFilter extends CommonFilter {
  /** A subscription's id (resolve a name with `subscriptionOf`). */
  subscriptionId?: string
  statuses?: readonly DeliveryStatus[]
}

const VERDICT_SQL = `CASE r.verify_valid WHEN 1 THEN 'valid' WHEN 0 THEN 'invalid' ELSE 'none' END`

const REQUEST_STATUS_SQL: Record<RequestStatus, string> = {
  valid: 'r.verify_valid = 1',
  invalid: 'r.verify_valid = 0',
  none: 'r.verify_valid IS NULL',
  duplicate: DUPLICATE_ARRIVAL,
  refused: 'r.refused_reason IS NOT NULL',
  'schema-valid': `sv.verdict = 'valid'`,
  'schema-invalid': `sv.verdict = 'invalid'`,
  'schema-none': `sv.verdict = 'no-schema'`,
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT_MAX) throw new RangeError(`limit must be a whole number from 1 to ${LIST_LIMIT_MAX}, got ${limit}`)
  return limit
}

/** The statement of a request list: exported for the plan checks (EXPLAIN QUERY PLAN). */
export function requestListSql(filter: Omit<RequestListFilter, 'limit'>, kind: StoreKind = 'sqlite'): { sql: string; params: unknown[] } {
  const where: string[] = []
  const params: unknown[] = []
  // Newest stored first, walking requests_by_stored_at and stopping at the limit (an endpoint's
  // rows are picked on the way); a prefix search reads its matches from the keys' case-blind index and
  // sorts those few. Stored time is the wall time of the first byte whatever clock received_at is
  // on, so a simulation's requests sit where they were made, not months away on its own clock.
  let walk = 'INDEXED BY requests_by_stored_at'
  if (filter.endpointId !== undefined) {
    where.push('r.endpoint_id = ?')
    params.push(filter.endpointId)
  }
  if (filter.workspace !== undefined) whereRequestInWorkspace(filter.workspace, where, params)
  if (filter.eventIdPrefix !== undefined) {
    whereRequestKeyStartsWith(kind, filter.eventIdPrefix, where, params)
    walk = ''
  }
  if (filter.sinceWall !== undefined) {
    where.push('r.stored_at >= ?')
    params.push(filter.sinceWall)
  }
  if (filter.statuses && filter.statuses.length > 0) where.push(`(${[...new Set(filter.statuses)].map((s) => REQUEST_STATUS_SQL[s]).join(' OR ')})`)
  // The clock of a request our attempt made is its delivery's: one lookup per row returned.
  const sql = `SELECT r.id, r.endpoint_id AS endpointId, en.slug AS endpointSlug, r.received_at AS receivedAt, COALESCE(r.stored_at, r.received_at) AS storedAt,
                      sim.id AS simulationId, sim.started_at AS simulationStartedAt, r.method, r.path, r.dedupe_key AS eventId,
                      ${VERDICT_SQL} AS verdict, r.verify_reason AS verifyReason, r.duplicate_number AS duplicateNumber, r.refused_reason AS refusedReason,
                      r.response_status AS responseStatus, r.body_size AS bodySize, r.attempt_id AS attemptId,
                      sv.verdict AS schemaVerdict, sv.pointer AS schemaPointer, sv.expected AS schemaExpected
                 FROM requests r ${walk} LEFT JOIN endpoints en ON en.id = r.endpoint_id
                 LEFT JOIN request_schema_verdicts sv ON sv.request_id = r.id
                 LEFT JOIN simulations sim ON sim.id = (SELECT d.simulation_id FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE a.id = r.attempt_id)
                ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
                ORDER BY r.stored_at DESC, r.id DESC LIMIT ?`
  return { sql, params }
}

/**
 * Whether a delivery list reads every subscription's deliveries: it is then read one subscription
 * at a time, newest first on deliveries_by_subscription_wall, and merged (wall-age-reads.ts).
 */
export function readsEachSubscription(filter: Omit<DeliveryListFilter, 'limit'>): boolean {
  return filter.subscriptionId === undefined && filter.endpointId === undefined && filter.eventIdPrefix === undefined
}

/**
 * The statement of a delivery list: exported for the plan checks (EXPLAIN QUERY PLAN). A filter
 * that reads each subscription (readsEachSubscription) is asked once per subscription, with its id.
 */
export function deliveryListSql(filter: Omit<DeliveryListFilter, 'limit'>): { sql: string; params: unknown[] } {
  if (readsEachSubscription(filter)) throw new Error('deliveryListSql: a list of every subscription is read one subscription at a time (name its subscriptionId)')
  const where: string[] = []
  const params: unknown[] = []
  if (filter.statuses && filter.statuses.length > 0) {
    const statuses = [...new Set(filter.statuses)]
    where.push(`d.status IN (${statuses.map(() => '?').join(', ')})`)
    params.push(...statuses)
  }
  if (filter.subscriptionId !== undefined) {
    where.push('d.subscription_id = ?')
    params.push(filter.subscriptionId)
  }
  if (filter.workspace !== undefined) {
    where.push(DELIVERIES_IN_WORKSPACE)
    params.push(filter.workspace)
  }
  // An endpoint's deliveries are those made to it (count-definitions.ts), as in its timeline view.
  if (filter.endpointId !== undefined) {
    where.push(`d.subscription_id IN (${SUBSCRIPTIONS_TO_ENDPOINT})`)
    params.push(filter.endpointId)
  }
  if (filter.eventIdPrefix !== undefined) whereDeliveryEventIdStartsWith('d', filter.eventIdPrefix, where, params)
  if (filter.sinceWall !== undefined) {
    where.push('d.created_wall_at >= ?')
    params.push(filter.sinceWall)
  }
  // Newest first on the wall clock, walking a subscription's deliveries on the index that keeps
  // that order and stopping at the limit; an event id prefix or an endpoint's few subscriptions
  // read their matches and sort those.
  const walk = filter.eventIdPrefix !== undefined || filter.endpointId !== undefined ? '' : 'INDEXED BY deliveries_by_subscription_wall'
  const sql = `SELECT d.id, d.event_id AS eventId, d.consumer_event_id AS consumerEventId, ev.event_type AS eventType, d.subscription_id AS subscriptionId, s.name AS subscriptionName, d.status, d.attempts,
                      d.last_status_code AS lastStatusCode, d.created_at AS createdAt, d.created_wall_at AS createdWallAt, d.simulation_id AS simulationId,
                      sim.started_at AS simulationStartedAt, ${DELIVERY_ENDPOINT} AS endpointId
                 FROM deliveries d ${walk} JOIN events ev ON ev.id = d.event_id LEFT JOIN subscriptions s ON s.id = d.subscription_id
                 LEFT JOIN simulations sim ON sim.id = d.simulation_id
                ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
                ORDER BY d.created_wall_at DESC, d.id DESC LIMIT ?`
  return { sql, params }
}

const ENDPOINT_BY_SLUG_OR_ID = 'SELECT id, slug FROM endpoints WHERE slug = ? OR id = ? LIMIT 1'
const SUBSCRIPTIONS_BY_NAME_OR_ID = 'SELECT id, name FROM subscriptions WHERE id = ? OR name = ? LIMIT 3'
// The same, of one workspace (with accounts): another workspace's reads as none.
const ENDPOINT_IN_WORKSPACE = 'SELECT id, slug FROM endpoints WHERE (slug = ? OR id = ?) AND workspace_id = ? LIMIT 1'
const SUBSCRIPTIONS_IN_WORKSPACE = 'SELECT id, name FROM subscriptions WHERE (id = ? OR name = ?) AND workspace_id = ? LIMIT 3'

export function createListReads(engine: SqlEngine) {
  const ids = async (sql: string) => (await engine.all<{ id: number }>(sql)).map((row) => row.id)
  return {
    /** The endpoint named by slug or id (of the workspace, when given). */
    endpointOf: (slugOrId: string, workspace?: string) =>
      workspace === undefined
        ? engine.get<{ id: string; slug: string }>(ENDPOINT_BY_SLUG_OR_ID, [slugOrId, slugOrId])
        : engine.get<{ id: string; slug: string }>(ENDPOINT_IN_WORKSPACE, [slugOrId, slugOrId, workspace]),
    /**
     * The subscription named by id or name; `ambiguous` when two share the name (names are not
     * unique; ids are).
     */
    async subscriptionOf(nameOrId: string, workspace?: string): Promise<{ id: string; name: string } | 'ambiguous' | undefined> {
      const rows =
        workspace === undefined
          ? await engine.all<{ id: string; name: string }>(SUBSCRIPTIONS_BY_NAME_OR_ID, [nameOrId, nameOrId])
          : await engine.all<{ id: string; name: string }>(SUBSCRIPTIONS_IN_WORKSPACE, [nameOrId, nameOrId, workspace])
      const byId = rows.find((row) => row.id === nameOrId)
      if (byId) return byId
      if (rows.length === 0) return undefined
      return rows.length === 1 ? rows[0] : 'ambiguous'
    },
    async requests(filter: RequestListFilter): Promise<RequestListRow[]> {
      const { sql, params } = requestListSql(filter, engine.kind)
      return engine.all<RequestListRow>(sql, [...params, checkLimit(filter.limit)])
    },
    async deliveries(filter: DeliveryListFilter): Promise<DeliveryListRow[]> {
      const limit = checkLimit(filter.limit)
      if (!readsEachSubscription(filter)) {
        const { sql, params } = deliveryListSql(filter)
        return engine.all<DeliveryListRow>(sql, [...params, limit])
      }
      // Each subscription's newest `limit`, then the newest `limit` of them all.
      const streams: DeliveryListRow[][] = []
      // With a workspace, its subscriptions only (the statement checks each again).
      for (const subscriptionId of await subscriptionIds(engine, filter.workspace)) {
        const { sql, params } = deliveryListSql({ ...filter, subscriptionId })
        streams.push(await engine.all<DeliveryListRow>(sql, [...params, limit]))
      }
      const newest = wallAgeOrder(engine.kind, 'newest')
      return mergeStreams(streams, (a, b) => newest({ id: a.id, at: a.createdWallAt }, { id: b.id, at: b.createdWallAt }), limit)
    },
    /** Every id, oldest first (`export --all`). */
    allRequestIds: () => ids('SELECT id FROM requests ORDER BY id'),
    allDeliveryIds: () => ids('SELECT id FROM deliveries ORDER BY id'),
  }
}

export type ListReads = ReturnType<typeof createListReads>
