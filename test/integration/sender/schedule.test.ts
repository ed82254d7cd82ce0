import { describe, expect, it } from 'vitest'
import { expectedSchedule, POLICY_PRESETS } from '../../../shared/sender'
import { createScaledClock } from '../../../electron/engine/clock'
import { answer, closedAfterEach, deliveredOnce, linkedAttemptId, startSender, startServer } from './support'

// Whole retry schedules played out on the virtual clock against real loopback servers: every
// attempt recorded at its exact clock time, the receiver seeing it at that same time.

const MIN = 60_000

describe('full schedules on the virtual clock', () => {
  const t = closedAfterEach()

  it('seed A against an always-503 endpoint: 10 attempts at 0, 2, 6, 14, 30, 62, 126, 254, 510, 870 min, then failed', async () => {
    t.rig = await startSender({ start: 0 })
    t.server = await startServer(t.rig.clock, answer(503))
    const { sender } = t.rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'a', target: { url: `${t.server.url}/hook` }, scheme: 'standard-webhooks', policy: 'pandoktorek' }, { eventType: 'booking.created', payload: { booking: 42 } })
    expect(delivery).toMatchObject({ status: 'failed', attempts: 10, nextAttemptAt: null, lastStatusCode: 503 })
    expect(attempts.map((a) => a.startedAt / MIN)).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 870])
    expect(attempts.map((a) => a.startedAt)).toEqual(expectedSchedule(POLICY_PRESETS.pandoktorek).map((s) => s.at_ms))
    expect(attempts.map((a) => a.decision)).toEqual([...Array(9).fill('retry'), 'failed'])
    // The exchange's real length: the virtual clock stands still while the server answers.
    expect(attempts.every((a) => a.outcome === 'http_503' && a.durationMs !== null && a.durationMs >= 0)).toBe(true)
    // The receiver saw each one at the same clock time, with the same event id in body and header.
    expect(t.server.requests.map((r) => r.at / MIN)).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 870])
    const ids = new Set(t.server.requests.map((r) => r.headers['webhook-id']))
    expect(ids).toEqual(new Set([delivery.eventId]))
    expect(t.server.requests.every((r) => r.headers['x-pandoktorek-event-id'] === delivery.eventId)).toBe(true)
    expect(t.server.requests.map((r) => linkedAttemptId(r.headers))).toEqual(attempts.map((a) => a.id))
  })

  it('seed A: fails twice then 200 → succeeded on the 3rd attempt at 6 min', async () => {
    t.rig = await startSender({ start: 0 })
    let n = 0
    t.server = await startServer(t.rig.clock, (req, res) => answer(++n <= 2 ? 500 : 200)(req, res))
    const { sender } = t.rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'a', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' }, { eventType: 'booking.created', payload: {} })
    expect(delivery.status).toBe('succeeded')
    expect(attempts.map((a) => [a.startedAt / MIN, a.outcome])).toEqual([
      [0, 'http_500'],
      [2, 'http_500'],
      [6, 'http_200'],
    ])
  })

  it('seed B against an always-500 endpoint: 4 attempts 30 s apart, then failed', async () => {
    t.rig = await startSender({ start: 0 })
    t.server = await startServer(t.rig.clock, answer(500))
    const { sender } = t.rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'b', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'csku' }, { eventType: 'message.received', payload: { message: { id: 'm1' } } })
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4 })
    expect(attempts.map((a) => a.startedAt)).toEqual([0, 30_000, 60_000, 90_000])
  })

  it('seed B on a scaled clock (x1000): the same 4 attempts, each at least 30 s of clock time after the previous', async () => {
    const clock = createScaledClock({ factor: 1_000, start: 0 })
    t.rig = await startSender({ clock: clock as never })
    t.server = await startServer(clock, answer(500))
    const { sender } = t.rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'b', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'csku' }, { eventType: 'message.received', payload: {} })
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4 })
    for (let i = 1; i < attempts.length; i++) expect(attempts[i]!.startedAt - attempts[i - 1]!.startedAt).toBeGreaterThanOrEqual(30_000)
  })

  it('seed B counts only HTTP 200 as success: a 201 is retried', async () => {
    t.rig = await startSender({ start: 0 })
    let n = 0
    t.server = await startServer(t.rig.clock, (req, res) => answer(++n === 1 ? 201 : 200)(req, res))
    const { sender } = t.rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'b', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'csku' }, { eventType: 'message.received', payload: {} })
    expect(delivery.status).toBe('succeeded')
    expect(attempts.map((a) => [a.startedAt, a.outcome, a.decision])).toEqual([
      [0, 'http_201', 'retry'],
      [30_000, 'http_200', 'succeeded'],
    ])
  })

  it('Retry-After is honoured where the policy says so', async () => {
    t.rig = await startSender({ start: 0 })
    let n = 0
    t.server = await startServer(t.rig.clock, (req, res) => (++n === 1 ? answer(429, { 'retry-after': '90' }) : answer(200))(req, res))
    const { sender } = t.rig
    await sender.createSubscription({ id: 'c', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'custom' })
    const { deliveries } = await sender.publish({ eventType: 'x', payload: {} })
    await sender.settled()
    expect((await sender.getDelivery(deliveries[0]!.id)).attempts.map((a) => a.startedAt)).toEqual([0, 90_000])
  })

  it('a policy that follows redirects re-posts to the Location', async () => {
    t.rig = await startSender({ start: 0 })
    t.server = await startServer(t.rig.clock, (req, res) => {
      if (req.url === '/new') return answer(200)(req, res)
      res.writeHead(308, { location: '/new' })
      res.end()
    })
    const { sender } = t.rig
    await sender.createSubscription({ id: 'r', target: { url: `${t.server.url}/old` }, scheme: 'standard-webhooks', policy: { preset: 'custom', follow_redirects: 2 } })
    const { deliveries } = await sender.publish({ eventType: 'x', payload: {} })
    await sender.settled()
    expect((await sender.getDelivery(deliveries[0]!.id)).delivery.status).toBe('succeeded')
    expect(t.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /old', 'POST /new'])
  })

  it('many deliveries due at the same instants all run at their exact times', async () => {
    t.rig = await startSender({ start: 0, concurrency: 8 })
    const seen = new Map<string, number>()
    t.server = await startServer(t.rig.clock, (req, res, _body, captured) => {
      const id = String(req.headers['webhook-id'])
      const n = (seen.get(id) ?? 0) + 1
      seen.set(id, n)
      void captured
      answer(n <= 3 ? 503 : 200)(req, res)
    })
    const { sender } = t.rig
    await sender.createSubscription({ id: 'm', target: { url: t.server.url }, scheme: 'standard-webhooks', policy: 'pandoktorek' })
    const ids: number[] = []
    for (let i = 0; i < 200; i++) ids.push((await sender.publish({ eventType: 'x', payload: { i } })).deliveries[0]!.id)
    await sender.settled()
    for (const id of ids) {
      const { delivery, attempts } = await sender.getDelivery(id)
      expect(delivery.status).toBe('succeeded')
      expect(attempts.map((a) => a.startedAt / MIN)).toEqual([0, 2, 6, 14])
    }
    expect(t.server.requests).toHaveLength(800)
  })
})
