// Reads what an export needs from the store: the selected requests and deliveries (with their
// attempts and event bodies), and the endpoints (with rules) and subscriptions involved.
import type { Database } from 'better-sqlite3'
import type { Endpoint, RequestRecord } from '../../../shared/receiver'
import { toRequestRecord } from '../receiver'
import { createAttemptStatements, type AttemptRow, createDeliveryStatements, type DeliveryRow, createEndpointStore, createEventStatements, createRequestStore, createRuleStore, type StoredRule, createSubscriptionStatements, type SubscriptionRow, createSimulationStatements } from '../store'
import type { StoredEvent } from '../store'
import { isEnvelope } from '../../../shared/sender'
import { sentBody } from '../sender'

export interface CollectedDelivery {
  delivery: DeliveryRow
  event: StoredEvent
  /** The body its attempts send: the stored payload in the subscription's envelope. */
  body: Buffer
  attempts: AttemptRow[]
  /** The simulation it ran in: its attempts' times are on that clock (docs/time.md); null on the wall clock. */
  simulationId: string | null
}

export interface Collected {
  requests: RequestRecord[]
  deliveries: CollectedDelivery[]
  endpoints: Array<{ endpoint: Endpoint; rules: StoredRule[] }>
  /** Rules of every endpoint (endpoint null). */
  globalRules: StoredRule[]
  subscriptions: SubscriptionRow[]
  /** Endpoint id → slug, for every endpoint (requests name their endpoint by slug). */
  slugs: Map<string, string>
}

export class ExportSelectionError extends Error {
  override readonly name = 'ExportSelectionError'
}

/** Rows read so far of all the selection asks for (a long export shows it). */
export type CollectProgress = (done: number, total: number) => void

/** Requests read between two progress reports. */
const PROGRESS_EVERY = 200

export function collectSelection(db: Database, selection: { requestIds?: readonly number[]; deliveryIds?: readonly number[] }, onProgress?: CollectProgress): Collected {
  const endpointStore = createEndpointStore(db)
  const ruleStore = createRuleStore(db)
  const allEndpoints = endpointStore.list()
  const slugs = new Map(allEndpoints.map((e) => [e.id, e.slug]))

  const requestIds = selection.requestIds ?? []
  const total = requestIds.length + (selection.deliveryIds?.length ?? 0)
  const requestStore = createRequestStore(db)
  const requests: ReturnType<typeof toRequestRecord>[] = []
  for (let from = 0; from < requestIds.length; from += PROGRESS_EVERY) {
    requests.push(...requestStore.byIds(requestIds.slice(from, from + PROGRESS_EVERY)).map(toRequestRecord))
    onProgress?.(Math.min(from + PROGRESS_EVERY, requestIds.length), total)
  }
  // A set: `export --all` may select a whole store, and a scan per id would be quadratic.
  const found = new Set(requests.map((r) => r.id))
  const missingRequests = requestIds.filter((id) => !found.has(id))
  if (missingRequests.length > 0) throw new ExportSelectionError(`no captured request with id ${missingRequests.join(', ')}`)

  const deliveryStatements = createDeliveryStatements(db)
  const subscriptionStatements = createSubscriptionStatements(db)
  const events = createEventStatements(db)
  const attempts = createAttemptStatements(db)
  const simulations = createSimulationStatements(db)
  const deliveries: CollectedDelivery[] = []
  for (const id of selection.deliveryIds ?? []) {
    const delivery = deliveryStatements.get(id)
    if (!delivery) throw new ExportSelectionError(`no delivery with id ${id}`)
    const event = events.get(delivery.event_id)
    if (!event) throw new ExportSelectionError(`delivery ${id}: its event ${delivery.event_id} is missing from the store`)
    const envelope = subscriptionStatements.get(delivery.subscription_id)?.envelope
    deliveries.push({ delivery, event, body: sentBody(event, isEnvelope(envelope) ? envelope : 'event'), attempts: attempts.byDelivery(id), simulationId: simulations.ofDelivery(id)?.id ?? null })
    onProgress?.(requestIds.length + deliveries.length, total)
  }

  const subscriptionIds = [...new Set(deliveries.map((d) => d.delivery.subscription_id))]
  const subscriptions = subscriptionIds.map((id) => subscriptionStatements.get(id)).filter((s): s is SubscriptionRow => s !== undefined)

  // Endpoints involved: those the requests arrived on, and those loop-mode subscriptions target.
  const endpointIds = new Set(requests.map((r) => r.endpointId).filter((id): id is string => id !== null))
  for (const sub of subscriptions) {
    const target = allEndpoints.find((e) => e.slug === sub.endpoint_slug)
    if (target) endpointIds.add(target.id)
  }
  const endpoints = allEndpoints.filter((e) => endpointIds.has(e.id)).map((endpoint) => ({ endpoint, rules: ruleStore.listFor(endpoint.id) }))
  return { requests, deliveries, endpoints, globalRules: ruleStore.listFor(null), subscriptions, slugs }
}
