import { describe, expect, it } from 'vitest'
import { SenderError } from '../../../electron/engine/sender'
import { verify } from '../../../electron/engine/signatures'
import { createExportReads, openDatabase, storeOfDatabase } from '../../../electron/engine/store'
import { createEventFeed } from '../../../electron/engine/feed/feed'
import { collectSelection } from '../../../electron/engine/exports/collect'
import { answer, senderWithServer } from './support'

// The two body shapes a subscription can send, checked on the bytes a real loopback receiver got:
// Hookloop's envelope (seed provider A) and the payload as the whole body (seed provider B).

const SECRET = 'whsec_c2VlZCBwcm92aWRlciBCIHNlY3JldCE='
const EVENT_ID = '3b1f9a52-6c1e-4d2b-9f3a-0c8e5d7b2a41'
// Seed B's body shape, with non-ASCII text so a re-encoding would show in the bytes.
const PAYLOAD = { event: 'message.received', message: { id: 'msg_88412', channel: 'whatsapp', text: 'Halo, pesanan saya belum sampai — ✓' } }

describe('subscription envelope', () => {
  const start = senderWithServer()

  it('sends the Hookloop envelope or the payload as the body, signed, with the event id in its header', async () => {
    const { rig, server, sender } = await start({ start: 1_700_000_000_000 }, answer(200))
    const wrapped = await sender.createSubscription({ id: 'wrapped', target: { url: `${server.url}/wrapped` }, scheme: 'standard-webhooks', policy: 'csku', secrets: [SECRET] })
    const bare = await sender.createSubscription({ id: 'bare', target: { url: `${server.url}/bare` }, scheme: 'standard-webhooks', policy: 'csku', secrets: [SECRET], envelope: 'payload' })
    expect(wrapped.envelope).toBe('event')
    expect(bare.envelope).toBe('payload')
    const published = await sender.publish({ eventId: EVENT_ID, eventType: 'message.received', payload: PAYLOAD })
    await sender.settled()

    const expected: Record<string, Buffer> = {
      '/wrapped': Buffer.from(JSON.stringify({ event_id: EVENT_ID, event_type: 'message.received', payload: PAYLOAD })),
      '/bare': Buffer.from(JSON.stringify(PAYLOAD)),
    }
    expect(server.requests.map((r) => r.path).sort()).toEqual(['/bare', '/wrapped'])
    for (const request of server.requests) {
      const body = expected[request.path]!
      expect(request.body.equals(body), `${request.path}: ${request.body.toString('utf8')}`).toBe(true)
      expect(request.headers['webhook-id']).toBe(EVENT_ID)
      const result = verify('standard-webhooks', { body: request.body, headers: request.headers, secrets: [SECRET], now: Math.floor(Date.now() / 1000) }) // signed at wall time: a URL target
      expect(result.valid, JSON.stringify(result)).toBe(true)
    }

    // What the panels show as sent is what went out; the payload itself is kept once.
    for (const delivery of published.deliveries) {
      const view = await sender.viewPayload(delivery.id)
      const path = delivery.subscriptionId === 'bare' ? '/bare' : '/wrapped'
      expect(view.body.equals(expected[path]!)).toBe(true)
      expect(view.payload.equals(expected['/bare']!)).toBe(true)
    }

    // The polling feed lists the payload, and exports carry each delivery's body as sent, whatever the envelope.
    const db = openDatabase({ file: rig.file })
    try {
      const store = storeOfDatabase(db)
      const page = await createEventFeed(store.engine).page({ since: null, after: null, limit: 10 })
      expect(page.data.map((e) => ({ id: e.event_id, payload: e.payload }))).toEqual([{ id: EVENT_ID, payload: PAYLOAD }])
      const collected = await collectSelection(createExportReads(store.engine, store.secrets), { deliveryIds: published.deliveries.map((d) => d.id) })
      for (const { delivery, body } of collected.deliveries) {
        expect(body.equals(expected[delivery.subscription_id === 'bare' ? '/bare' : '/wrapped']!)).toBe(true)
      }
      expect(collected.subscriptions.map((s) => [s.id, s.envelope]).sort()).toEqual([
        ['bare', 'payload'],
        ['wrapped', 'event'],
      ])
    } finally {
      db.close()
    }
  })

  it('keeps the envelope across updates, stores it, and names a bad value', async () => {
    const { rig, sender } = await start({ start: 0 }, answer(200))
    await sender.createSubscription({ id: 's', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', envelope: 'payload' })
    expect((await sender.updateSubscription('s', { name: 'renamed' })).envelope).toBe('payload')
    expect((await sender.updateSubscription('s', { envelope: 'event' })).envelope).toBe('event')
    const bad = () => sender.createSubscription({ id: 't', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', envelope: 'body' as never })
    await expect(bad()).rejects.toThrow(SenderError)
    await expect(bad()).rejects.toThrow(/^envelope: must be one of "event", "payload", got "body"$/)
    await expect(sender.updateSubscription('s', { envelope: 'raw' as never })).rejects.toThrow(/^envelope: /)
    await sender.updateSubscription('s', { envelope: 'payload' })
    // The store holds it (a sender started on this file reads it back).
    const db = openDatabase({ file: rig.file })
    try {
      const row = db.prepare('SELECT envelope FROM subscriptions WHERE id = ?').get('s') as { envelope: string }
      expect(row.envelope).toBe('payload')
    } finally {
      db.close()
    }
  })
})
