import { describe, expect, it } from 'vitest'
import { SenderError } from '../../../electron/engine/sender'
import { closedAfterEach, startSender } from './support'

// Publishing on a real SQLite file: an event id is stored once. The check is the events table's
// primary key inside publish's transaction (no read before the insert), so a second publish of
// the id must leave the first event and its deliveries exactly as they were, and write nothing.

describe('publishing an event id twice', () => {
  const open = closedAfterEach()

  it('refuses the second with a conflict and writes nothing of it', async () => {
    const rig = (open.rig = await startSender())
    const { sender, db } = rig
    // Paused: the deliveries wait, so the rows stay as publish wrote them.
    await sender.createSubscription({ id: 'a', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    await sender.createSubscription({ id: 'b', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    await sender.pause('a')
    await sender.pause('b')
    const eventId = '6a1f0c52-9a57-4d3e-8f3c-0b7e2f9d1c44'
    const first = await sender.publish({ eventId, eventType: 'order.paid', payload: { n: 1 } })
    expect(first.deliveries).toHaveLength(2)
    const rows = () => ({
      events: db.prepare('SELECT id, event_type, CAST(payload AS TEXT) AS payload FROM events').all(),
      deliveries: db.prepare('SELECT id, event_id, subscription_id FROM deliveries ORDER BY id').all(),
    })
    const before = rows()

    let refused: unknown
    try {
      await sender.publish({ eventId, eventType: 'order.refunded', payload: { n: 2 } })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(SenderError)
    expect((refused as SenderError).code).toBe('conflict')
    expect((refused as SenderError).message).toContain(eventId)
    expect(rows()).toEqual(before)
    expect(before.events).toEqual([{ id: eventId, event_type: 'order.paid', payload: '{"n":1}' }])
    // The sender's own view of the event is the first one too.
    expect((await sender.getDelivery(first.deliveries[0]!.id)).delivery.eventType).toBe('order.paid')
  })
})
