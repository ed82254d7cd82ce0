import { PROVIDERS } from '../../../shared/providers'
import { providerBody } from '../providers'
import type { DeliveryRow } from '../store'
import type { CachedDeliveries } from './delivery-cache'
import { sentBody } from './envelope'
import { SenderError } from './sender-error'
import type { Sender, SenderParts } from './sender'
import { attemptView, deliveryView } from './views'

// What the sender answers about its deliveries: lists, one delivery with its attempts, and the
// body a delivery sends.

export async function requireDelivery(deliveries: CachedDeliveries, id: number): Promise<DeliveryRow> {
  const row = await deliveries.get(id)
  if (!row) throw new SenderError('not_found', `no delivery ${id}`)
  return row
}

export function createDeliveryReads(parts: SenderParts): Pick<Sender, 'viewPayload' | 'listDeliveries' | 'getDelivery' | 'deliveriesOfEvent'> {
  const { storedEvents, events, deliveries, attempts, subscriptions } = parts
  return {
    async viewPayload(deliveryId) {
      const row = await requireDelivery(deliveries, deliveryId)
      const event = await storedEvents.get(row.event_id)
      if (!event) throw new SenderError('not_found', `event ${row.event_id} is missing`)
      const sub = subscriptions.get(row.subscription_id)
      const pack = sub?.provider ? PROVIDERS[sub.provider] : null
      const body = pack
        ? providerBody(pack, { eventId: event.id, eventType: event.eventType, payload: event.payload, createdAt: event.createdAt, sentAt: event.createdAt, apiVersion: sub?.apiVersion ?? null })
        : sentBody(event, sub?.envelope ?? 'event')
      return { eventId: event.id, eventType: event.eventType, body, payload: event.payload }
    },
    async listDeliveries(query) {
      subscriptions.require(query.subscriptionId)
      const limit = Math.min(Math.max(query.limit ?? 100, 1), 10_000)
      const rows = await deliveries.list({ subscription_id: query.subscriptionId, limit, ...(query.status ? { status: query.status } : {}) })
      return Promise.all(rows.map(async (row) => deliveryView(row, await events.eventType(row.event_id))))
    },
    async getDelivery(deliveryId) {
      const row = await requireDelivery(deliveries, deliveryId)
      const stored = await attempts.byDelivery(deliveryId)
      return { delivery: deliveryView(row, await events.eventType(row.event_id)), attempts: stored.map((a) => attemptView(a, row.event_id)) }
    },
    async deliveriesOfEvent(eventId) {
      const eventType = await events.eventType(eventId)
      return (await deliveries.byEvent(eventId)).map((row) => deliveryView(row, eventType))
    },
  }
}
