import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { sign } from '../../../electron/engine/signatures'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver } from '../../../electron/engine/receiver'
import { instantClock, post, send, startHarness, type Harness } from './support'

const UUID = '3f2a8c1e-9b7d-4e21-a0c4-5d6e7f809a1b'

describe('dedupe keys and windows', () => {
  let h: Harness
  afterEach(() => h?.stop())

  it('provider A: header X-Pandoktorek-Event-Id — dups numbered #2, #3 and linked to the first, still answered 2xx', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'a', dedupe: { type: 'header', name: 'X-Pandoktorek-Event-Id' } })
    const raw = post('/h/a', `{"event_id":"${UUID}","event_type":"booking.created","payload":{}}`, { 'X-Pandoktorek-Event-Id': UUID })
    for (let i = 0; i < 3; i++) expect((await send(h.receiver.port, raw)).responses[0]?.status).toBe(200)
    const rows = h.receiver.requests.list().reverse()
    expect(rows.map((r) => r.duplicateNumber)).toEqual([1, 2, 3])
    expect(rows.map((r) => r.dedupeKey)).toEqual([UUID, UUID, UUID])
    expect(rows.map((r) => r.duplicateOf)).toEqual([null, rows[0]?.id, rows[0]?.id])
    const dups = h.events.filter((e) => e.type === 'request.duplicate')
    expect(dups.map((e) => (e.type === 'request.duplicate' ? e.number : 0))).toEqual([2, 3])
  })

  it('provider A: body field event_id', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'a', dedupe: 'pandoktorek-body' })
    await send(h.receiver.port, post('/h/a', `{"event_id":"${UUID}"}`))
    await send(h.receiver.port, post('/h/a', `{"payload":{}, "event_id": "${UUID}"}`))
    await send(h.receiver.port, post('/h/a', `{"event_id":"other"}`))
    const rows = h.receiver.requests.list().reverse()
    expect(rows.map((r) => [r.dedupeKey, r.duplicateNumber])).toEqual([
      [UUID, 1],
      [UUID, 2],
      ['other', 1],
    ])
  })

  it('provider B: composite template ${event}_${message.id}; a missing field gives no key', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'b', dedupe: 'csku' })
    await send(h.receiver.port, post('/h/b', '{"event":"message.received","message":{"id":"m-1"}}'))
    await send(h.receiver.port, post('/h/b', '{"message":{"id":"m-1"},"event":"message.received"}'))
    await send(h.receiver.port, post('/h/b', '{"event":"message.read","message":{"id":"m-1"}}'))
    await send(h.receiver.port, post('/h/b', '{"event":"message.read"}'))
    const rows = h.receiver.requests.list().reverse()
    expect(rows.map((r) => [r.dedupeKey, r.duplicateNumber])).toEqual([
      ['message.received_m-1', 1],
      ['message.received_m-1', 2],
      ['message.read_m-1', 1],
      [null, null],
    ])
  })

  it('the window: an arrival past it starts a new group (fixed from the first arrival)', async () => {
    const clock = instantClock()
    h = await startHarness({ clock: clock.clock })
    await h.receiver.endpoints.create({ slug: 'w', dedupe: { type: 'header', name: 'webhook-id' }, dedupe_window_ms: 60_000 })
    const raw = post('/h/w', '{}', { 'webhook-id': 'msg_1' })
    await send(h.receiver.port, raw)
    clock.advance(59_000)
    await send(h.receiver.port, raw)
    clock.advance(2_000) // 61 s after the first arrival
    await send(h.receiver.port, raw)
    await send(h.receiver.port, raw)
    const rows = h.receiver.requests.list().reverse()
    expect(rows.map((r) => r.duplicateNumber)).toEqual([1, 2, 1, 2])
    expect(rows[3]?.duplicateOf).toBe(rows[2]?.id)
  })

  it('numbering continues across a restart on the same data file', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'r', dedupe: { type: 'header', name: 'webhook-id' } })
    const raw = post('/h/r', '{}', { 'webhook-id': 'msg_r' })
    await send(h.receiver.port, raw)
    await send(h.receiver.port, raw)
    await h.receiver.close()
    const again = await createReceiver({ db: h.db, clock: createRealClock() })
    try {
      await send(again.port, raw)
      const rows = again.requests.list()
      expect(rows[0]?.duplicateNumber).toBe(3)
      expect(rows[0]?.duplicateOf).toBe(rows[2]?.id)
    } finally {
      await again.close()
    }
  })
})

describe('signature verification on the raw bytes', () => {
  let h: Harness
  afterEach(() => h?.stop())
  const secret = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')

  it('Standard Webhooks: a request signed by the official library is valid; a re-serialised body is not', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'sw', scheme: 'standard-webhooks', secrets: [secret], dedupe: 'standard-webhooks' })
    const body = '{"type":"invoice.paid",  "data":{"id":1}}'
    const ts = new Date()
    const headers = {
      'webhook-id': 'msg_abc',
      'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_abc', ts, body),
    }
    await send(h.receiver.port, post('/h/sw', body, headers))
    await send(h.receiver.port, post('/h/sw', JSON.stringify(JSON.parse(body)), headers))
    const [second, first] = h.receiver.requests.list()
    expect(first?.verify?.valid).toBe(true)
    expect(first?.verify?.reason).toBe('ok')
    expect(second?.verify?.valid).toBe(false)
    expect(second?.verify?.reason).toBe('signature_mismatch')
    expect(second?.duplicateNumber).toBe(2)
    const verified = h.events.filter((e) => e.type === 'request.verified')
    expect(verified).toHaveLength(2)
    // Per request, in this order: captured → verified → duplicate (the second only) → responded →
    // schema (the endpoint verifies a provider's scheme: judged after the answer).
    await h.waitFor('request.responded', (e) => e.requestId === second?.id)
    await h.receiver.schemaVerdicts.idle()
    const order = (id: number | undefined) =>
      h.events.filter((e) => ('requestId' in e ? e.requestId : e.type === 'request.captured' ? e.request.id : -1) === id).map((e) => e.type)
    expect(order(first?.id)).toEqual(['request.captured', 'request.verified', 'request.responded', 'request.schema'])
    expect(order(second?.id)).toEqual(['request.captured', 'request.verified', 'request.duplicate', 'request.responded', 'request.schema'])
  })

  it('a URL-signed scheme (Square) verifies against the public URL when one is set, else the local one', async () => {
    let publicUrl: string | undefined = 'https://hooks.example.test/'
    h = await startHarness({ publicUrl: () => publicUrl })
    await h.receiver.endpoints.create({ slug: 'sq', scheme: 'square', secrets: ['square-signature-key'] })
    const body = '{"type":"payment.created"}'
    const signedFor = (url: string) => sign('square', { body: Buffer.from(body), secret: 'square-signature-key', url })
    await send(h.receiver.port, post('/h/sq?x=1', body, signedFor('https://hooks.example.test/h/sq?x=1')))
    publicUrl = undefined
    await send(h.receiver.port, post('/h/sq', body, signedFor(`${h.receiver.url}/h/sq`)))
    await send(h.receiver.port, post('/h/sq', body, signedFor('https://hooks.example.test/h/sq')))
    const rows = h.receiver.requests.list().reverse()
    expect(rows.map((r) => r.verify?.valid)).toEqual([true, true, false])
  })
})
