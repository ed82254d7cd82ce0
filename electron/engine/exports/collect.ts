// Reads what an export needs from the store, on either engine (store/export-reads.ts): the
// selected requests and deliveries (with their attempts and event bodies), and the endpoints (with
// rules) and subscriptions involved. Signing secrets are read too, whatever the export keeps:
// redaction blanks every known secret wherever it appears (a body that echoes one), and a case
// file says when a loop subscription signs with a secret its endpoint does not verify with.
import type { Endpoint, RequestRecord, SchemaVerdict } from '../../../shared/receiver'
import { toRequestRecord } from '../receiver'
import { DEFAULT_WORKSPACE, EXPORT_BATCH, type AttemptRow
, type DeliveryRow, type ExportReads, type StoredEvent, type StoredRule, type SubscriptionRow } from '../store'
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
  /** Rules for every endpoint (endpoint null) of the workspaces the selection is in. */
  globalRules: StoredRule[]
  subscriptions: SubscriptionRow[]
  /** Endpoint id → slug, for every endpoint (requests name their endpoint by slug). */
  slugs: Map<string, string>
  /** Request id → its schema verdict, for the requests judged. */
  schemaVerdicts: Map<number, SchemaVerdict>
}

export class ExportSelectionError extends Error {
  override readonly name = 'ExportSelectionError'
}

/** A request's schema verdict as an export field: absent when it was not judged. */
export function schemaOf(collected: Collected, requestId: number): { schema?: SchemaVerdict } {
  const verdict = collected.schemaVerdicts.get(requestId)
  return verdict ? { schema: verdict } : {}
}

/** Rows read so far of all the selection asks for (a long export shows it): reported after each batch. */
export type CollectProgress = (done: number, total: number) => void

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}

export async function collectSelection(reads: ExportReads, selection: { requestIds?: readonly number[]; deliveryIds?: readonly number[] }, onProgress?: CollectProgress): Promise<Collected> {
  const allEndpoints = await reads.endpoints()
  const slugs = new Map(allEndpoints.map((e) => [e.id, e.slug]))

  const requestIds = selection.requestIds ?? []
  const deliveryIds = selection.deliveryIds ?? []
  const total = requestIds.length + deliveryIds.length
  const requests: RequestRecord[] = []
  for (let from = 0; from < requestIds.length; from += EXPORT_BATCH) {
    const batch = requestIds.slice(from, from + EXPORT_BATCH)
    const rows = new Map((await reads.requests(batch)).map((row) => [row.id, row]))
    for (const id of batch) {
      const row = rows.get(id)
      if (row) requests.push(toRequestRecord(row))
    }
    onProgress?.(from + batch.length, total)
  }
  // A set: `export --all` may select a whole store, and a scan per id would be quadratic.
  const found = new Set(requests.map((r) => r.id))
  const missingRequests = requestIds.filter((id) => !found.has(id))
  if (missingRequests.length > 0) throw new ExportSelectionError(`no captured request with id ${missingRequests.join(', ')}`)

  // Each subscription read once, in the order the deliveries name them.
  const subscriptionsById = new Map<string, SubscriptionRow | undefined>()
  const deliveries: CollectedDelivery[] = []
  for (let from = 0; from < deliveryIds.length; from += EXPORT_BATCH) {
    const batch = deliveryIds.slice(from, from + EXPORT_BATCH)
    const rows = new Map((await reads.deliveries(batch)).map((row) => [row.delivery.id, row]))
    const events = new Map((await reads.events([...new Set([...rows.values()].map((row) => row.delivery.event_id))])).map((event) => [event.id, event]))
    const attempts = groupBy(await reads.attempts([...rows.keys()]), (a) => a.delivery_id)
    for (const id of batch) {
      const row = rows.get(id)
      if (!row) throw new ExportSelectionError(`no delivery with id ${id}`)
      const { delivery, simulationId } = row
      const event = events.get(delivery.event_id)
      if (!event) throw new ExportSelectionError(`delivery ${id}: its event ${delivery.event_id} is missing from the store`)
      if (!subscriptionsById.has(delivery.subscription_id)) subscriptionsById.set(delivery.subscription_id, await reads.subscription(delivery.subscription_id))
      const envelope = subscriptionsById.get(delivery.subscription_id)?.envelope
      deliveries.push({ delivery, event, body: sentBody(event, isEnvelope(envelope) ? envelope : 'event'), attempts: attempts.get(id) ?? [], simulationId })
    }
    onProgress?.(requestIds.length + deliveries.length, total)
  }
  const subscriptions = [...subscriptionsById.values()].filter((s): s is SubscriptionRow => s !== undefined)

  // Endpoints involved: those the requests arrived on, and those loop-mode subscriptions target.
  const endpointIds = new Set(requests.map((r) => r.endpointId).filter((id): id is string => id !== null))
  for (const sub of subscriptions) {
    const target = allEndpoints.find((e) => e.slug === sub.endpoint_slug)
    if (target) endpointIds.add(target.id)
  }
  const rules = groupBy(await reads.rules(), (r) => r.endpointId)
  const endpoints = allEndpoints.filter((e) => endpointIds.has(e.id)).map((endpoint) => ({ endpoint, rules: rules.get(endpoint.id) ?? [] }))
  // The rules for every endpoint that answered too: those of the workspaces the selection is in
  // (its endpoints' and subscriptions'; a request at no endpoint's path is default's), never another's.
  const owners = await reads.owners()
  const workspaces = new Set<string>()
  for (const id of endpointIds) workspaces.add(owners.endpoints.get(id) ?? DEFAULT_WORKSPACE)
  for (const sub of subscriptions) workspaces.add(owners.subscriptions.get(sub.id) ?? DEFAULT_WORKSPACE)
  if (requests.some((r) => r.endpointId === null)) workspaces.add(DEFAULT_WORKSPACE)
  const globalRules = (rules.get(null) ?? []).filter((r) => workspaces.has(r.workspaceId))
  const schemaVerdicts = await reads.schemaVerdicts(requests.map((r) => r.id))
  return { requests, deliveries, endpoints, globalRules, subscriptions, slugs, schemaVerdicts }
}
