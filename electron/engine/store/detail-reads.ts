// One delivery in detail, for the inspector, a scenario's report and a recording: the delivery
// with its event and its subscription's target, its attempts each with its own request (the first
// request the receiver linked to it: requests.attempt_id, set only for a link that checked out,
// the same rule as count-definitions.ts ownRequest), and a subscription's counts from the
// deliveries table alone. Reads only.
import type { Database } from 'better-sqlite3'
import type { Endpoint } from '../../../shared/receiver'
import type { ForwardLeg, SchemaVerdict } from '../../../shared/receiver'
import type { AttemptRow } from './attempts'
import { withoutBadRows } from './bad-row'
import { endpointFromRow, ENDPOINT_BY_ID_SQL, ENDPOINT_BY_SLUG_SQL, ENDPOINTS_SQL, type EndpointDbRow } from './endpoints'
import { legFromRow, LEGS_OF_REQUEST_SQL, type ForwardLegReadRow } from './forward-legs'
import { REQUEST_BY_ID_SQL } from './requests'
import { readSchemaVerdicts } from './schema-verdicts'
import { ruleFromRow, RULE_BY_ID_SQL, RULES_SQL, type RuleDbRow, type StoredRule } from './rules'
import type { SecretBox } from './secret-box'
import { SIMULATION_OF_ATTEMPT_SQL, SIMULATION_OF_DELIVERY_SQL, type SimulationRow } from './simulations'
import type { SqlEngine } from './sql-engine'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'
import type { RequestRow } from './requests'
import type { SubscriptionRow } from './subscriptions'

type Target = Pick<SubscriptionRow, 'url' | 'endpoint_slug' | 'envelope' | 'provider' | 'api_version'>

/** A delivery with its event; the target is null when its subscription is gone. */
export type DeliveryDetailRow = Pick<DeliveryRow, 'id' | 'event_id' | 'subscription_id' | 'status' | 'faults_json'> &
  Pick<EventRow, 'event_type' | 'payload'> & { event_created_at: number } & { [K in keyof Target]: Target[K] | null }

/** An attempt and its own request, the first one linked to it (the request columns are null without one). */
export type AttemptDetailRow = AttemptRow &
  Pick<RequestRow, 'verify_reason' | 'duplicate_number'> & { request_id: number | null; request_fault_json: string | null }

const DELIVERY_DETAIL_SQL = `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, e.payload, e.created_at AS event_created_at, d.faults_json, s.url, s.endpoint_slug, s.envelope, s.provider, s.api_version
       FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN subscriptions s ON s.id = d.subscription_id WHERE d.id = ?`
const ATTEMPT_DETAILS_SQL = `SELECT a.*, r.id AS request_id, r.verify_reason, r.duplicate_number, r.fault_json AS request_fault_json
       FROM attempts a LEFT JOIN requests r ON r.id = (SELECT MIN(id) FROM requests WHERE attempt_id = a.id)
      WHERE a.delivery_id = ? ORDER BY a.n`

/** On the data folder's own connection, synchronously: a scenario's report and a recording read here while their engine runs. */
export function createDetailReads(db: Database) {
  const delivery = db.prepare<[number], DeliveryDetailRow>(DELIVERY_DETAIL_SQL)
  const attempts = db.prepare<[number], AttemptDetailRow>(ATTEMPT_DETAILS_SQL)
  return {
    delivery: (id: number) => delivery.get(id),
    attempts: (deliveryId: number) => attempts.all(deliveryId),
  }
}

/**
 * What the inspector and the endpoint list read, on either store engine (SqlEngine): a delivery
 * and its attempts, a captured request whole, the simulation either ran in, a request's forward
 * legs, and the endpoints and rules they name, decoded by their own store modules (secrets opened
 * with the store's `secrets`). The same statements as the table modules', which export them.
 */
export function createInspectorReads(engine: SqlEngine, secrets: SecretBox) {
  const endpoint = (row: EndpointDbRow | undefined) => row && endpointFromRow(row, secrets)
  return {
    delivery: (id: number) => engine.get<DeliveryDetailRow>(DELIVERY_DETAIL_SQL, [id]),
    attempts: (deliveryId: number) => engine.all<AttemptDetailRow>(ATTEMPT_DETAILS_SQL, [deliveryId]),
    request: (id: number) => engine.get<RequestRow>(REQUEST_BY_ID_SQL, [id]),
    simulationOfDelivery: (deliveryId: number) => engine.get<SimulationRow>(SIMULATION_OF_DELIVERY_SQL, [deliveryId]),
    simulationOfAttempt: (attemptId: number) => engine.get<SimulationRow>(SIMULATION_OF_ATTEMPT_SQL, [attemptId]),
    legsOf: async (requestId: number): Promise<ForwardLeg[]> => (await engine.all<ForwardLegReadRow>(LEGS_OF_REQUEST_SQL, [requestId])).map(legFromRow),
    /** Its body against its provider's schema; null when not judged (no provider, or not yet). */
    schemaVerdictOf: async (requestId: number): Promise<SchemaVerdict | null> => (await readSchemaVerdicts(engine, [requestId])).get(requestId) ?? null,
    rule: async (id: string): Promise<StoredRule | undefined> => {
      const row = await engine.get<RuleDbRow>(RULE_BY_ID_SQL, [id])
      return row && ruleFromRow(row)
    },
    /** Every rule that parses, in endpoint then position order (a row that does not is set aside, as the app's list does). */
    rules: async (): Promise<StoredRule[]> => withoutBadRows(await engine.all<RuleDbRow>(RULES_SQL), ruleFromRow),
    endpoint: async (id: string): Promise<Endpoint | undefined> => endpoint(await engine.get<EndpointDbRow>(ENDPOINT_BY_ID_SQL, [id])),
    endpointBySlug: async (slug: string): Promise<Endpoint | undefined> => endpoint(await engine.get<EndpointDbRow>(ENDPOINT_BY_SLUG_SQL, [slug])),
    endpoints: async (): Promise<Endpoint[]> => withoutBadRows(await engine.all<EndpointDbRow>(ENDPOINTS_SQL), (row) => endpointFromRow(row, secrets)),
    /** Every subscription's signing secrets, opened: what an answer to an agent must never hold. */
    subscriptionSecrets: async (): Promise<string[]> =>
      (await engine.all<{ secrets_json: string }>('SELECT secrets_json FROM subscriptions')).flatMap((row) => {
        try {
          const list = JSON.parse(secrets.open(row.secrets_json)) as unknown
          return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : []
        } catch {
          return []
        }
      }),
  }
}

export type InspectorReads = ReturnType<typeof createInspectorReads>
