// One time model (docs/time.md), through the host's command layer over the real control socket:
// after "Try the loop" has put the host on a virtual clock, real traffic is still recorded and
// judged on the wall clock; a delivery that leaves Hookloop through an endpoint forwarding to an
// app is signed at wall time, so the app's official Stripe SDK accepts it; rows say which clock
// they are on, the clock filter keeps one kind, the snapshot lists the simulation; and an export
// gives each real request its own wall time.
import { randomBytes, randomUUID } from 'node:crypto'
import Stripe from 'stripe'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import type { ServerFrame, SimulationView, TimelineRow } from '../../../shared/contract'
import { post, startApp } from '../../support/forward-apps'
import { closeEngine, virtualEngine } from '../../support/engine'
import { createCountReads } from '../../../electron/engine/store/counts'
import { settled, useHostSessions, type HostSession } from './support/session'

const openSession = useHostSessions()

/** Try the loop, and wait until its delivery has run its retries: the virtual clock is then minutes ahead of the wall. */
async function tryTheLoop(session: HostSession): Promise<{ subscriptionId: string }> {
  const { host, call } = session
  const tried = await call('loop.try', {})
  const { rows } = await call('timeline.page', { offset: 0, limit: 10, filter: { subscriptionId: tried.subscriptionId } })
  await settled(host, rows.map((r) => r.deliveryId as number))
  expect(host.engine.clock.mode).toBe('virtual')
  // 2 + 4 + 8 minutes of retries passed on the virtual clock, none on the wall.
  expect(host.engine.clock.now() - Date.now()).toBeGreaterThan(10 * 60_000)
  return { subscriptionId: tried.subscriptionId }
}

/** A Standard Webhooks endpoint of ours, and a way to send it a real request signed now with the official package. */
async function standardEndpoint(session: HostSession, slug: string) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`
  const endpoint = await session.call('endpoint.create', { name: slug, slug, scheme: 'standard-webhooks', secrets: [secret], dedupe: { type: 'header', name: 'webhook-id' } })
  const webhook = new Webhook(secret)
  return {
    endpoint,
    async send(id: string): Promise<{ before: number; after: number }> {
      const body = JSON.stringify({ type: 'invoice.paid', id })
      const before = Date.now()
      // One time for the signature and its header: read twice, a second boundary between the
      // reads would sign one time and send another.
      const signedAt = new Date()
      const signature = webhook.sign(id, signedAt, body)
      const answer = await post(endpoint.localUrl, body, { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)), 'webhook-signature': signature })
      const after = Date.now()
      expect('status' in answer && answer.status).toBe(200)
      return { before, after }
    },
  }
}

const rowOf = (rows: readonly TimelineRow[], eventId: string) => rows.find((r) => r.eventId === eventId)

describe('real traffic on the wall clock while a simulation runs', () => {
  it('a real POST signed now, after Try the loop, is recorded at its wall arrival time and verifies valid', async () => {
    const session = await openSession()
    const { host, call } = session
    await tryTheLoop(session)
    const real = await standardEndpoint(session, 'provider')
    const { before, after } = await real.send('msg_real_1')
    await host.engine.quiesce()

    const { rows } = await call('timeline.page', { offset: 0, limit: 10, filter: { endpointId: real.endpoint.id } })
    const row = rowOf(rows, 'msg_real_1')
    expect(row?.clock).toEqual({ kind: 'wall' })
    expect(row?.firstAt).toBeGreaterThanOrEqual(before)
    expect(row?.firstAt).toBeLessThanOrEqual(after)
    expect(row?.signature).toMatchObject({ state: 'valid' })
    const detail = await call('request.get', { id: row?.marks[0]?.id ?? -1 })
    expect(detail.verify).toMatchObject({ state: 'valid', reason: 'ok' })
  })

  it("rows of the simulation carry its clock, real rows the wall; the clock filter keeps one kind; the snapshot lists the run", async () => {
    const session = await openSession()
    const { host, call } = session
    const { subscriptionId } = await tryTheLoop(session)
    const real = await standardEndpoint(session, 'provider')
    await real.send('msg_real_2')
    await host.engine.quiesce()

    const snapshot = await call('snapshot', {})
    expect(snapshot.simulations).toHaveLength(1)
    const simulation = snapshot.simulations[0]!
    expect(simulation).toMatchObject({ mode: 'virtual', scale: 1, label: 'Try the loop' })
    expect(simulation.id).toBe(host.engine.simulation?.id)

    const all = await call('timeline.page', { offset: 0, limit: 50 })
    const loop = all.rows.find((r) => r.subscriptionId === subscriptionId)
    expect(loop?.clock).toEqual({ kind: 'simulated', simulationId: simulation.id, mode: 'virtual', startedAt: simulation.startedAt })
    // Each attempt shows its scenario time and, beside it, when it really went.
    expect(loop?.marks.length).toBe(4)
    for (const mark of loop?.marks ?? []) {
      expect(mark.wallAt).toBeGreaterThanOrEqual(simulation.startedWallAt)
      expect(mark.wallAt).toBeLessThanOrEqual(Date.now())
    }
    expect(loop?.marks[3]?.at).toBeGreaterThan((loop?.marks[3]?.wallAt ?? 0) + 10 * 60_000)
    expect(rowOf(all.rows, 'msg_real_2')?.clock).toEqual({ kind: 'wall' })

    const wall = await call('timeline.page', { offset: 0, limit: 50, filter: { clock: 'wall' } })
    expect(wall.total).toBe(wall.rows.length)
    expect(wall.rows.map((r) => r.eventId)).toContain('msg_real_2')
    expect(wall.rows.every((r) => r.clock.kind === 'wall')).toBe(true)
    const simulated = await call('timeline.page', { offset: 0, limit: 50, filter: { clock: simulation.id } })
    expect(simulated.total).toBe(1)
    expect(simulated.rows.map((r) => r.key)).toEqual([loop?.key])
    expect(simulated.rows.every((r) => r.clock.kind === 'simulated')).toBe(true)
  })

  it('four real requests a second apart after Try the loop export with four distinct wall-time startedDateTimes', async () => {
    const session = await openSession()
    const { host, call } = session
    await tryTheLoop(session)
    const real = await standardEndpoint(session, 'provider')
    const sent: { before: number; after: number }[] = []
    for (let i = 1; i <= 4; i++) {
      if (i > 1) await new Promise((resolve) => setTimeout(resolve, 1_000))
      sent.push(await real.send(`msg_har_${i}`))
    }
    await host.engine.quiesce()
    const { rows } = await call('timeline.page', { offset: 0, limit: 10, filter: { endpointId: real.endpoint.id } })
    const requestIds = [1, 2, 3, 4].map((i) => rowOf(rows, `msg_har_${i}`)?.marks[0]?.id ?? -1)
    const exported = await call('export.selection', { requestIds, deliveryIds: [], format: 'har', keepSecrets: false })
    const har = JSON.parse(exported.text) as { log: { entries: { startedDateTime: string }[] } }
    const times = har.log.entries.map((e) => Date.parse(e.startedDateTime))
    expect(times).toHaveLength(4)
    expect(new Set(times).size).toBe(4)
    times.forEach((at, i) => {
      expect(at).toBeGreaterThanOrEqual(sent[i]!.before)
      expect(at).toBeLessThanOrEqual(sent[i]!.after)
    })
  })
})

describe('a delivery that leaves Hookloop is signed at wall time', () => {
  it("a virtual-clock session delivering through an endpoint that forwards to an app: the app's stripe package accepts the signature", async () => {
    const session = await openSession()
    const { host, call } = session
    const secret = `whsec_${randomBytes(24).toString('hex')}`
    const stripe = new Stripe('sk_test_hookloop')
    const verdicts: string[] = []
    const app = await startApp((req, res) => {
      try {
        const event = stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), secret)
        verdicts.push(`accepted ${event.id}`)
        res.writeHead(200).end('ok')
      } catch (error) {
        verdicts.push(`refused: ${error instanceof Error ? error.message : String(error)}`)
        res.writeHead(400).end('bad signature')
      }
    })
    try {
      await call('clock.set', { mode: 'virtual' })
      const endpoint = await call('endpoint.create', { name: 'shop', slug: 'shop', scheme: 'stripe', secrets: [secret], dedupe: null, forwardTo: [`${app.url}/webhooks/stripe`] })
      // The first two attempts fail in front of the app: the third goes out an hour and a half later, in virtual time.
      await call('rule.addPreset', { endpointId: endpoint.id, preset: 'fail-then-forward', parameters: { n: 2 } })
      const subscription = await call('subscription.create', { name: 'Stripe → shop', target: { endpointId: endpoint.id }, scheme: 'stripe', secret, policyId: 'stripe', envelope: 'payload' })
      await call('event.send', { subscriptionId: subscription.id, eventType: 'payment_intent.succeeded', payload: JSON.stringify({ id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'payment_intent.succeeded', data: { object: { amount: 500 } } }), count: 1, faults: [] })
      const { rows } = await call('timeline.page', { offset: 0, limit: 10, filter: { subscriptionId: subscription.id } })
      await settled(host, rows.map((r) => r.deliveryId as number))

      expect(verdicts.length).toBeGreaterThanOrEqual(1)
      expect(verdicts.every((v) => v.startsWith('accepted')), verdicts.join('\n')).toBe(true)
      const [row] = (await call('timeline.page', { offset: 0, limit: 10, filter: { subscriptionId: subscription.id } })).rows
      expect(row?.status).toBe('succeeded')
      // Two refused in front, then the app's answer: three, whenever the engine reloads its rules
      // and however long the forward takes on the wall (it holds the virtual clock once it arrived).
      expect(row?.attempts).toBe(3)
      expect(row?.clock.kind).toBe('simulated')
      // Our endpoint judged the same signature on the clock it was made on: valid too.
      expect(row?.signature).toMatchObject({ state: 'valid' })
      // The schedule still ran on the simulation's clock: the third attempt is an hour and more after the first.
      expect((row?.marks.at(-1)?.at ?? 0) - (row?.marks[0]?.at ?? 0)).toBeGreaterThanOrEqual(60 * 60_000)
    } finally {
      await app.close()
    }
  })
})

describe('a simulation whose clock stood still', () => {
  it.each([
    ['forward targets', (appUrl: string) => ({ forward_to: [appUrl] })],
    ['a forward rule (one failure in front)', (appUrl: string) => ({ rules: [{ preset: 'fail-then-forward', n: 1, url: appUrl }] })],
  ])("an idle virtual-clock session an hour behind the wall, endpoint forwarding by %s: the app's stripe package accepts the wall-time t=", async (_how, forwarding) => {
    // A virtual clock stands still while nothing is due: an hour after the session started, its
    // time is still an hour behind the wall (the start below says so without waiting an hour).
    const { temp, clock, engine } = await virtualEngine(Date.now() - 3_600_000)
    const secret = `whsec_${randomBytes(24).toString('hex')}`
    const stripe = new Stripe('sk_test_hookloop')
    const verdicts: string[] = []
    const app = await startApp((req, res) => {
      try {
        stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), secret)
        verdicts.push('accepted')
        res.writeHead(200).end('ok')
      } catch (error) {
        verdicts.push(`refused: ${error instanceof Error ? error.message : String(error)}`)
        res.writeHead(400).end('bad signature')
      }
    })
    try {
      await engine.putEndpoint({ slug: 'shop', name: 'shop', scheme: 'stripe', secrets: [secret], ...forwarding(`${app.url}/webhooks/stripe`) })
      const subscription = await engine.putSubscription({ name: 'Stripe → shop', target: { endpoint: 'shop' }, scheme: 'stripe', secrets: [secret], policy: 'stripe', envelope: 'payload' })
      const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'charge.succeeded', payload: { id: 'evt_1', object: 'event', type: 'charge.succeeded', data: { object: {} } } })
      for (let i = 0; i < 400 && !sent.deliveryIds.every((id) => engine.isDeliverySettled(id)); i++) await new Promise((r) => setTimeout(r, 25))
      expect(verdicts).toEqual(['accepted'])
      expect(engine.simulation).toMatchObject({ mode: 'virtual', label: 'sender session (virtual clock)' })
      const delivery = await engine.sender.getDelivery(sent.deliveryIds[0]!)
      expect(delivery.delivery.status).toBe('succeeded')
      // Scheduled on the simulation's clock: the attempt's own time is the session's, an hour behind.
      expect(delivery.attempts[0]!.startedAt).toBeLessThan(Date.now() - 3_000_000)
    } finally {
      await app.close()
      await closeEngine(engine, clock, temp)
    }
  })
})

describe('the last 24 h are wall time', () => {
  it('a delivery that failed just now after three days of simulated retries counts in the 24 h failure rate', async () => {
    const { temp, clock, engine } = await virtualEngine(Date.now())
    const app = await startApp((_req, res) => res.writeHead(500).end('down'))
    try {
      const subscription = await engine.putSubscription({ name: 'Stripe → app', target: { url: `${app.url}/webhooks` }, scheme: 'stripe', secrets: ['whsec_x'], policy: 'stripe' })
      const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'charge.failed', payload: { id: 'evt_2' } })
      for (let i = 0; i < 400 && !sent.deliveryIds.every((id) => engine.isDeliverySettled(id)); i++) await new Promise((r) => setTimeout(r, 25))
      expect((await engine.sender.getDelivery(sent.deliveryIds[0]!)).delivery.status).toBe('failed')
      // The simulation's clock is days past the delivery's creation; the wall is not.
      expect(clock.now() - Date.now()).toBeGreaterThan(2 * 86_400_000)
      expect(createCountReads(engine.db).failureWindow(subscription.id, Date.now())).toEqual({ deliveries: 1, failed: 1, rate: 1, red: true })
    } finally {
      await app.close()
      await closeEngine(engine, clock, temp)
    }
  })
})

describe('real traffic forwarded to an app while a simulation runs', () => {
  it('the forward leg of a real request is sent at wall time, not at the simulation’s', async () => {
    const { temp, clock, engine } = await virtualEngine(Date.now() - 3_600_000)
    const app = await startApp((_req, res) => res.writeHead(200).end('ok'))
    try {
      await engine.putEndpoint({ slug: 'shop', name: 'shop', forward_to: [`${app.url}/webhooks`] })
      const before = Date.now()
      const answer = await post(engine.receiver.endpointUrl('shop'), '{"type":"order.paid"}', { 'content-type': 'application/json' })
      const after = Date.now()
      expect('status' in answer && answer.status).toBe(200)
      await engine.quiesce()
      const [request] = engine.receiver.requests.list({ limit: 1 })
      expect(request!.receivedAt).toBeGreaterThanOrEqual(before)
      const [leg] = engine.receiver.forwards.list(request!.id)
      expect(leg?.outcome).toBe('answered')
      expect(leg!.sentAt).toBeGreaterThanOrEqual(before)
      expect(leg!.sentAt).toBeLessThanOrEqual(after)
    } finally {
      await app.close()
      await closeEngine(engine, clock, temp)
    }
  })
})

describe('a sender session on the scaled clock', () => {
  it('clock.set scaled starts a simulation: listed in the snapshot with its scale, announced to every UI', async () => {
    const session = await openSession()
    const { call, ws } = session
    const announced = new Promise<SimulationView[]>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as ServerFrame
        if (frame.t !== 'events') return
        for (const event of frame.batch) if (event.name === 'simulations.changed') resolve(event.payload.simulations)
      })
    })
    expect((await call('snapshot', {})).simulations).toEqual([])
    await call('clock.set', { mode: 'scaled', scale: 60 })
    const [listed] = (await call('snapshot', {})).simulations
    expect(listed).toMatchObject({ mode: 'scaled', scale: 60, label: 'sender session (scaled clock)' })
    expect(await announced).toEqual([listed])
    // Back on the real clock: a simulation without a delivery is not kept in the list.
    await call('clock.set', { mode: 'real' })
    expect((await call('snapshot', {})).simulations).toEqual([])
  })
})
