// What an export reads (exports/collect.ts), on either store engine: captured requests and
// deliveries by id, with their events, attempts and simulations, and the definitions involved
// (every endpoint and rule, the subscriptions asked for), signing secrets opened with the store's
// data key. Reads only.
//
// Rows are read a batch of ids at a time, so an `export --all` of a team's PostgreSQL costs a round
// trip per batch, not per row. A batch always binds EXPORT_BATCH parameters, the unused ones NULL
// (`id IN (…, NULL)` matches no row for them), so each statement is one text: prepared once on
// SQLite, carried over once to PostgreSQL (postgres-dialect.ts), whatever the batch's size.
import type { SchemaVerdict } from '../../../shared/receiver'
import { readSchemaVerdicts } from './schema-verdicts'
import type { Endpoint } from '../../../shared/receiver'
import { ATTEMPT_COLUMNS, type AttemptRow } from './attempts'
import { withoutBadRows } from './bad-row'
import { DELIVERY_COLUMNS, type DeliveryRow } from './deliveries'
import { endpointFromRow, ENDPOINTS_SQL, type EndpointDbRow } from './endpoints'
import { EVENT_COLUMNS, storedEventOf, type EventRow, type StoredEvent } from './events'
import { REQUEST_COLUMNS, type RequestRow } from './requests'
import { ruleFromRow, RULES_SQL, type RuleDbRow, type StoredRule } from './rules'
import type { SecretBox } from './secret-box'
import type { SqlEngine } from './sql-engine'
import { openedSubscriptionRow, SUBSCRIPTION_BY_ID_SQL, type SubscriptionRow } from './subscriptions'
import { createWorkspaceStore, type DefinitionOwners } from './workspaces'

/** Ids read per statement. */
export const EXPORT_BATCH = 200

const SLOTS = Array.from({ length: EXPORT_BATCH }, () => '?').join(', ')
const qualified = (alias: string, columns: string) => columns.split(', ').map((c) => `${alias}.${c}`).join(', ')

const REQUESTS_SQL = `SELECT ${REQUEST_COLUMNS.join(', ')} FROM requests WHERE id IN (${SLOTS})`
// The simulation is joined, not copied from simulation_id: a delivery whose simulation row is gone
// reads as on the wall clock, as simulations.ts ofDelivery says.
const DELIVERIES_SQL = `SELECT ${qualified('d', DELIVERY_COLUMNS)}, sim.id AS simulation_of
  FROM deliveries d LEFT JOIN simulations sim ON sim.id = d.simulation_id WHERE d.id IN (${SLOTS})`
const EVENTS_SQL = `SELECT ${EVENT_COLUMNS} FROM events WHERE id IN (${SLOTS})`
// The newest events the sender published, by the wall time they were stored (events_by_stored_at).
const SENT_EVENTS_SQL = `SELECT ${EVENT_COLUMNS} FROM events ORDER BY stored_at DESC, id DESC LIMIT ?`
const SENT_EVENTS_SINCE_SQL = `SELECT ${EVENT_COLUMNS} FROM events WHERE stored_at >= ? ORDER BY stored_at DESC, id DESC LIMIT ?`
const ATTEMPTS_SQL = `SELECT ${ATTEMPT_COLUMNS} FROM attempts WHERE delivery_id IN (${SLOTS}) ORDER BY delivery_id, n, id`

/** A delivery as stored, and the simulation whose clock its times are on (null: the wall clock). */
export interface ExportDeliveryRow {
  delivery: DeliveryRow
  simulationId: string | null
}

export interface ExportReads {
  /** Every endpoint that parses, secrets opened, in the lists' order. */
  endpoints(): Promise<Endpoint[]>
  /** Every rule that parses (endpointId null: a rule of every endpoint), each endpoint's in position order. */
  rules(): Promise<StoredRule[]>
  /** The workspace of every endpoint and subscription (an export carries the rules for every endpoint of the workspaces it involves). */
  owners(): Promise<DefinitionOwners>
  /** The captured requests of these ids that exist, in no particular order. */
  requests(ids: readonly number[]): Promise<RequestRow[]>
  /** The deliveries of these ids that exist, in no particular order. */
  deliveries(ids: readonly number[]): Promise<ExportDeliveryRow[]>
  /** The events of these ids that exist, in no particular order. */
  events(ids: readonly string[]): Promise<StoredEvent[]>
  /** The newest events Hookloop's sender published (stored from `sinceWall` on, when given), newest first. */
  sentEvents(filter: { sinceWall?: number; limit: number }): Promise<StoredEvent[]>
  /** Every attempt of these deliveries, by delivery then attempt number. */
  attempts(deliveryIds: readonly number[]): Promise<AttemptRow[]>
  /** One subscription, secrets opened. */
  subscription(id: string): Promise<SubscriptionRow | undefined>
  /** The schema verdicts of these requests (those judged), by request id. */
  schemaVerdicts(requestIds: readonly number[]): Promise<Map<number, SchemaVerdict>>
}

export function createExportReads(engine: SqlEngine, secrets: SecretBox): ExportReads {
  /** `sql` once per batch of `ids`, every batch's rows together. */
  async function inBatches<Id, Row>(sql: string, ids: readonly Id[]): Promise<Row[]> {
    const rows: Row[] = []
    for (let from = 0; from < ids.length; from += EXPORT_BATCH) {
      const batch: (Id | null)[] = ids.slice(from, from + EXPORT_BATCH)
      while (batch.length < EXPORT_BATCH) batch.push(null)
      rows.push(...(await engine.all<Row>(sql, batch)))
    }
    return rows
  }
  return {
    schemaVerdicts: (requestIds) => readSchemaVerdicts(engine, requestIds),
    endpoints: async () => withoutBadRows(await engine.all<EndpointDbRow>(ENDPOINTS_SQL), (row) => endpointFromRow(row, secrets)),
    rules: async () => withoutBadRows(await engine.all<RuleDbRow>(RULES_SQL), ruleFromRow),
    owners: () => createWorkspaceStore(engine).definitionOwners(),
    requests: (ids) => inBatches<number, RequestRow>(REQUESTS_SQL, ids),
    async deliveries(ids) {
      const rows = await inBatches<number, DeliveryRow & { simulation_of: string | null }>(DELIVERIES_SQL, ids)
      return rows.map(({ simulation_of, ...delivery }) => ({ delivery, simulationId: simulation_of }))
    },
    events: async (ids) => (await inBatches<string, EventRow>(EVENTS_SQL, ids)).map(storedEventOf),
    sentEvents: async ({ sinceWall, limit }) =>
      (sinceWall === undefined ? await engine.all<EventRow>(SENT_EVENTS_SQL, [limit]) : await engine.all<EventRow>(SENT_EVENTS_SINCE_SQL, [sinceWall, limit])).map(storedEventOf),
    attempts: (deliveryIds) => inBatches<number, AttemptRow>(ATTEMPTS_SQL, deliveryIds),
    async subscription(id) {
      const row = await engine.get<SubscriptionRow>(SUBSCRIPTION_BY_ID_SQL, [id])
      return row && openedSubscriptionRow(row, secrets)
    },
  }
}
