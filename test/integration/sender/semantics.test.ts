import { describe, expect, it } from 'vitest'
import type { SenderEventMap } from '../../../shared/sender'
import { SenderError } from '../../../electron/engine/sender'
import { verify } from '../../../electron/engine/signatures'
import { createCountReads } from '../../../electron/engine/store/counts'
import { answer, senderWithServer } from './support'

// The panel operations of seed A (pause, rotate secret, retry now, view payload, filter, the 24 h
// failure badge) and seed B's metrics, against real loopback servers on a virtual clock.

const MIN = 60_000

describe('subscription and delivery operations', () => {
  const start = senderWithServer()

  it('pause: new deliveries wait, a delivery already retrying goes on; resume sends the waiting ones', async () => {
    let fail = true
    const { server, sender, clock } = await start({ start: 0 }, (req, res) => answer(fail ? 503 : 200)(req, res))
    await sender.createSubscription({ id: 'p', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const active = (await sender.publish({ eventType: 'a', payload: {} })).deliveries[0]!.id
    await new Promise<void>((resolve) => sender.on('attempt.finished', () => resolve()))
    await sender.pause('p')
    const waiting = (await sender.publish({ eventType: 'b', payload: {} })).deliveries[0]!
    expect(waiting).toMatchObject({ status: 'pending', nextAttemptAt: null })
    fail = false
    await sender.settled()
    // The active one retried at +2 min while paused; the new one never went out.
    expect((await sender.getDelivery(active)).delivery.status).toBe('succeeded')
    expect((await sender.getDelivery(active)).attempts.map((a) => a.startedAt)).toEqual([0, 2 * MIN])
    expect((await sender.getDelivery(waiting.id)).attempts).toEqual([])
    expect(server.requests).toHaveLength(2)
    const resumedAt = clock.now()
    await sender.resume('p')
    await sender.settled()
    const after = await sender.getDelivery(waiting.id)
    expect(after.delivery.status).toBe('succeeded')
    expect(after.attempts.map((a) => a.startedAt)).toEqual([resumedAt])
  })

  it('rotate secret: the new secret signs from the next attempt on, the old one is invalid at once', async () => {
    const { server, sender } = await start({ start: 1_700_000_000_000 }, answer(503))
    const sub = await sender.createSubscription({ id: 'r', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })
    const oldSecret = sub.secret!
    await sender.publish({ eventType: 'a', payload: { x: 1 } })
    await new Promise<void>((resolve) => sender.on('attempt.finished', () => resolve()))
    const newSecret = await sender.rotateSecret('r')
    expect(newSecret).not.toBe(oldSecret)
    expect(newSecret).toMatch(/^whsec_/)
    await new Promise<void>((resolve) => sender.on('attempt.finished', () => resolve()))
    const [first, second] = server.requests
    const check = (r: typeof first, secret: string) => verify('standard-webhooks', { body: r!.body, headers: r!.headers, secrets: [secret], now: Math.floor(Date.now() / 1000) }) // signed at wall time: a URL target
    expect(check(first, oldSecret).valid).toBe(true)
    expect(check(second, oldSecret)).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(check(second, newSecret).valid).toBe(true)
    expect(sender.getSubscription('r')?.retiredSecrets).toEqual([oldSecret])
  })

  it('retry now: after failed, one more attempt at once; refused while one is in flight', async () => {
    let status = 404
    const { server, sender, clock } = await start({ start: 0 }, (req, res) => answer(status)(req, res))
    await sender.createSubscription({ id: 'n', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const id = (await sender.publish({ eventType: 'a', payload: {} })).deliveries[0]!.id
    await sender.settled()
    expect((await sender.getDelivery(id)).delivery.status).toBe('failed')
    status = 200
    await clock.sleep(5 * MIN)
    const retried = await sender.retryNow(id)
    expect(retried).toMatchObject({ status: 'retrying', nextAttemptAt: 5 * MIN })
    await sender.settled()
    const { delivery, attempts } = await sender.getDelivery(id)
    expect(delivery.status).toBe('succeeded')
    expect(attempts.map((a) => [a.startedAt, a.outcome])).toEqual([
      [0, 'http_404'],
      [5 * MIN, 'http_200'],
    ])
    await expect(sender.retryNow(999_999)).rejects.toThrow(SenderError)
  })

  it('retry now moves a scheduled retry to now, and the schedule continues from there', async () => {
    const { server, sender } = await start({ start: 0 }, answer(503))
    await sender.createSubscription({ id: 'n', target: { url: server.url }, scheme: 'standard-webhooks', policy: { preset: 'pandoktorek', max_attempts: 3 } })
    const id = (await sender.publish({ eventType: 'a', payload: {} })).deliveries[0]!.id
    await new Promise<void>((resolve) => sender.on('attempt.finished', () => resolve()))
    await sender.retryNow(id)
    await sender.settled()
    // 0 (fails, next at +2 min) → retry now at 0 (2nd, next +4 min) → 4 min (3rd, final).
    expect((await sender.getDelivery(id)).attempts.map((a) => a.startedAt / MIN)).toEqual([0, 0, 4])
    expect((await sender.getDelivery(id)).delivery.status).toBe('failed')
  })

  it('view payload gives the envelope exactly as sent; list filters by status; the 24 h failure badge turns red above 5 %', async () => {
    const { server, sender, rig, clock } = await start({ start: 0 }, (req, res) => answer(JSON.parse(req.headers['x-want'] as string) as number)(req, res))
    await sender.createSubscription({ id: 'ok', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'github', headers: { 'X-Want': '200' } })
    await sender.createSubscription({ id: 'bad', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'github', headers: { 'X-Want': '500' } })
    const published = await sender.publish({ eventId: '550e8400-e29b-41d4-a716-446655440000', eventType: 'booking.created', payload: { booking: { id: 7 } }, subscriptionIds: ['ok', 'bad'] })
    for (let i = 0; i < 19; i++) await sender.publish({ eventType: 'booking.created', payload: { i }, subscriptionIds: ['ok'] })
    await sender.settled()
    const payload = await sender.viewPayload(published.deliveries[0]!.id)
    expect(payload.body.toString()).toBe('{"event_id":"550e8400-e29b-41d4-a716-446655440000","event_type":"booking.created","payload":{"booking":{"id":7}}}')
    expect(server.requests.find((r) => r.headers['x-want'] === '500')?.body.toString()).toBe(payload.body.toString())
    expect(await sender.listDeliveries({ subscriptionId: 'ok', status: 'succeeded' })).toHaveLength(20)
    expect(await sender.listDeliveries({ subscriptionId: 'ok', status: 'failed' })).toHaveLength(0)
    expect(await sender.listDeliveries({ subscriptionId: 'bad', status: 'failed' })).toHaveLength(1)
    const counts = createCountReads(rig.db)
    expect(counts.failureWindow('ok', clock.now())).toEqual({ deliveries: 20, failed: 0, rate: 0, red: false })
    expect(counts.failureWindow('bad', clock.now())).toEqual({ deliveries: 1, failed: 1, rate: 1, red: true })
    expect(counts.attempts('ok')).toEqual({ attempts: 20, successes: 20, failures: 0 })
  })

  it('counts a retried delivery\'s attempts: the failed ones and the one that succeeded', async () => {
    let n = 0
    const { server, sender, rig } = await start({ start: 0 }, (req, res) => answer(++n <= 2 ? 500 : 200)(req, res))
    await sender.createSubscription({ id: 'm', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'csku' })
    await sender.publish({ eventType: 'message', payload: {} })
    await sender.settled()
    const counts = createCountReads(rig.db)
    expect(counts.deliveries('m')).toMatchObject({ deliveries: 1, byStatus: { succeeded: 1, failed: 0, retrying: 0, pending: 0 }, attemptsMade: 3 })
    expect(counts.attempts('m')).toEqual({ attempts: 3, successes: 1, failures: 2 })
  })

  it('emits delivery and attempt events in order', async () => {
    const { server, sender } = await start({ start: 0 }, answer(200))
    const log: string[] = []
    for (const type of ['delivery.created', 'delivery.updated', 'attempt.started', 'attempt.finished'] as const) {
      sender.on(type, (p: SenderEventMap[typeof type]) => log.push(`${type}:${'outcome' in p ? p.outcome : p.status}`))
    }
    await sender.createSubscription({ id: 'e', target: { url: server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    await sender.publish({ eventType: 'a', payload: {} })
    await sender.settled()
    expect(log).toEqual(['delivery.created:pending', 'attempt.started:in_flight', 'delivery.updated:pending', 'attempt.finished:http_200', 'delivery.updated:succeeded'])
  })

  it('bad input is refused with a sentence naming what is wrong', async () => {
    const { sender } = await start({ start: 0 }, answer(200))
    await expect(sender.createSubscription({ target: { url: 'ftp://x' }, scheme: 'standard-webhooks', policy: 'pandoktorek' })).rejects.toThrow(/http or https/)
    await expect(sender.createSubscription({ target: { url: 'http://127.0.0.1:1/' }, scheme: 'nope' as never, policy: 'pandoktorek' })).rejects.toThrow(/scheme/)
    await expect(sender.createSubscription({ target: { url: 'http://127.0.0.1:1/' }, scheme: 'standard-webhooks', policy: { max_attempts: 0 } })).rejects.toThrow(/policy\.max_attempts/)
    await sender.createSubscription({ id: 's', target: { url: 'http://127.0.0.1:1/' }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    await expect(sender.publish({ eventId: 'msg cust 1', eventType: 'a', payload: {} })).rejects.toThrow(/eventId: an event id is 1 to 200 letters, digits .*; got "msg cust 1"/)
    await expect(sender.publish({ eventId: 'evt_1\r\nx-injected: 1', eventType: 'a', payload: {} })).rejects.toThrow(/eventId: an event id/)
    await expect(sender.publish({ eventType: 'a', payload: {}, faults: [{ type: 'dupe' } as never] })).rejects.toThrow(/faults\[0\]/)
    await expect(sender.publish({ eventType: 'a', payload: {}, subscriptionIds: ['missing'] })).rejects.toThrow(/no subscription "missing"/)
  })
})
