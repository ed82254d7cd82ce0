import { randomUUID } from 'node:crypto'
import type { DeliveryStatus } from '../../../shared/sender'
import { sendFaultSchema, type SendFault, EVENT_ID_RULE, isEventId } from '../../../shared/sender'
import { insertEventDeliveries, insertedDelivery, type DeliveryRow, type PlannedDelivery } from '../store'
import type { StoredEvent, Subscription } from '../store'
import { storedConsumerEventId } from '../providers'
import { payloadBytes } from './envelope'
import { requireDelivery } from './delivery-reads'
import { SenderError } from './sender-error'
import type { Sender, SenderParts } from './sender'
import { deliveryView, type DeliveryFaults } from './views'

// Putting deliveries on the schedule: an event published to its subscriptions (one delivery each,
// plus the copies its sending-side faults ask for), an event resent, a delivery retried now.

/** The id the subscription's consumer knows the event by, when it is not Hookloop's own (a provider's evt_…, X-GitHub-Delivery …). */
function consumerIdOf(event: StoredEvent, sub: Subscription): string | null {
  const found = storedConsumerEventId(sub.provider, { eventId: event.id, eventType: event.eventType, payload: event.payload, createdAt: event.createdAt, apiVersion: sub.apiVersion })
  return found && found.value !== event.id ? found.value : null
}

function stringifyFaults(faults: DeliveryFaults): string | null {
  return faults.faults.length === 0 && faults.duplicate_of === undefined ? null : JSON.stringify(faults)
}

export function createPublishing(parts: SenderParts): Pick<Sender, 'publish' | 'retryNow' | 'resend'> {
  const { store, clock, wallNow, simulationId, storedEvents, events, deliveries, subscriptions, scheduler, runner, emitter } = parts

  // Returns the rows as inserted (insertedDelivery), for the views and the delivery cache: nothing
  // is read back. The event's id is checked by its insert (its primary key), not by a read before
  // it: a publish is one read fewer. A conflict writes nothing.
  async function insertDeliveries(event: StoredEvent, subs: Subscription[], faults: SendFault[]): Promise<DeliveryRow[]> {
    const now = event.createdAt
    const wallAt = event.storedAt
    const copyFaults = faults.filter((f) => f.type !== 'duplicate' && f.type !== 'drop' && f.type !== 'out-of-order')
    const outOfOrder = faults.find((f) => f.type === 'out-of-order')
    const plan: PlannedDelivery[] = subs.map((sub) => {
      const consumer = consumerIdOf(event, sub)
      // Pause: deliveries created while paused wait (no schedule) until resume.
      const first = sub.paused ? null : now + (outOfOrder?.delay_ms ?? 0)
      const made = { event_id: event.id, subscription_id: sub.id, created_at: now, simulation_id: simulationId, created_wall_at: wallAt, consumer_event_id: consumer }
      return {
        row: { ...made, next_attempt_at: first, faults_json: stringifyFaults({ faults }) },
        copies: (main: number) =>
          faults.flatMap((fault) => {
            if (fault.type !== 'duplicate') return []
            const at = sub.paused || first === null ? null : fault.mode === 'parallel' ? first : fault.mode === 'delayed' ? first + fault.delay_ms : null
            const copy: DeliveryFaults = { faults: copyFaults, duplicate_of: main, ...(fault.mode === 'at-once' ? { after_first_attempt_of: main } : {}) }
            return [{ ...made, next_attempt_at: at, faults_json: stringifyFaults(copy) }]
          }),
      }
    })
    const created = await insertEventDeliveries(store, event, plan)
    if (!created) throw new SenderError('conflict', `event ${event.id} was published already (retry its deliveries instead)`)
    return created
  }

  return {
    async publish(input) {
      const eventId = input.eventId ?? randomUUID()
      if (!isEventId(eventId)) throw new SenderError('invalid_event', `eventId: ${EVENT_ID_RULE}; got ${JSON.stringify(eventId)}`)
      if (typeof input.eventType !== 'string' || input.eventType === '') throw new SenderError('invalid_event', 'eventType must be a non-empty string')
      const faults = (input.faults ?? []).map((fault, i) => {
        const parsed = sendFaultSchema.safeParse(fault)
        if (!parsed.success) throw new SenderError('invalid_event', `faults[${i}]: ${parsed.error.issues[0]?.message ?? 'invalid fault'}`)
        return parsed.data
      })
      const subs = input.subscriptionIds ? input.subscriptionIds.map((id) => subscriptions.require(id)) : subscriptions.list()
      // The payload, serialised once: every attempt sends these bytes, wrapped or not by its
      // subscription's envelope (sentBody).
      const createdAt = clock.now()
      const event: StoredEvent = { id: eventId, eventType: input.eventType, payload: payloadBytes(input.payload), createdAt, storedAt: clock.mode === 'real' ? createdAt : wallNow() }
      const created = await insertDeliveries(event, subs, faults)
      events.remember(event)
      for (const row of created) deliveries.remember(row) // committed
      const views = created.map((row) => deliveryView(row, input.eventType))
      for (const view of views) emitter.emit('delivery.created', view)
      for (const { id, next_attempt_at: at } of created) if (at !== null) scheduler.schedule(id, at)
      return { eventId, deliveries: views }
    },

    async retryNow(deliveryId) {
      const row = await requireDelivery(deliveries, deliveryId)
      if (row.in_flight === 1 || runner.isRunning(deliveryId)) throw new SenderError('in_flight', `delivery ${deliveryId} has an attempt in flight`)
      const now = clock.now()
      const status: DeliveryStatus = row.attempts === 0 ? 'pending' : 'retrying'
      await deliveries.reschedule(deliveryId, status, now, now)
      scheduler.schedule(deliveryId, now)
      await runner.emitDelivery(deliveryId, 'delivery.updated')
      return deliveryView(await requireDelivery(deliveries, deliveryId), await events.eventType(row.event_id))
    },
    async resend(eventId, subscriptionId) {
      const event = await storedEvents.get(eventId)
      if (!event) throw new SenderError('not_found', `event ${eventId} is missing`)
      const sub = subscriptions.require(subscriptionId)
      const now = clock.now()
      const at = sub.paused ? null : now
      const row = { event_id: eventId, subscription_id: sub.id, next_attempt_at: at, faults_json: null, created_at: now, simulation_id: simulationId, created_wall_at: clock.mode === 'real' ? now : wallNow(), consumer_event_id: consumerIdOf(event, sub) }
      const inserted = insertedDelivery(await deliveries.insert(row), row)
      deliveries.remember(inserted)
      const view = deliveryView(inserted, event.eventType)
      emitter.emit('delivery.created', view)
      if (at !== null) scheduler.schedule(inserted.id, at)
      return view
    },
  }
}
