// Recording at the host's command layer, over the real control socket: a session with sending
// faults, a final 4xx and Retry now, pause / resume and a secret rotation is recorded on the
// virtual clock; Stop gives a valid scenario whose expectations are what happened, and running it
// on a fresh engine (runScenario, what `hookloop run` does) gives the same outcome.
import { describe, expect, it } from 'vitest'
import { parseScenario } from '../../../shared/scenario'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { startApp } from '../../support/forward-apps'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()

const SECRET = `whsec_${Buffer.from('recorded-session-secret-32-byte!').toString('base64')}`

describe('recording a session into a scenario', () => {
  it('faults, a final 4xx with Retry now, pause / resume and rotation replay headless with the same outcome', async () => {
    const { host: h, call } = await openSession()
    await call('clock.set', { mode: 'virtual' })
    expect((await call('snapshot', {})).recording.active).toBe(false)

    await call('record.start', {})
    const shop = await call('endpoint.create', { name: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'header', name: 'webhook-id' } })
    await call('rule.addPreset', { endpointId: shop.id, preset: 'fail-first', parameters: { n: 1 } })
    const gone = await call('endpoint.create', { name: 'gone', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'header', name: 'webhook-id' } })
    await call('rule.addPreset', { endpointId: gone.id, preset: 'always-410' })
    const feed = await call('subscription.create', { name: 'shop feed', target: { endpointId: shop.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'pandoktorek' })
    const goneFeed = await call('subscription.create', { name: 'gone feed', target: { endpointId: gone.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'pandoktorek' })
    const payload = JSON.stringify({ booking_id: 'b_1' })

    const twice = await call('event.send', { subscriptionId: feed.id, eventType: 'booking.created', payload, count: 1, faults: ['duplicate'] })
    expect(twice.deliveryIds).toHaveLength(2)
    await settled(h, twice.deliveryIds)
    const corrupt = await call('event.send', { subscriptionId: feed.id, eventType: 'booking.updated', payload, count: 1, faults: ['corrupt-signature'] })
    await settled(h, corrupt.deliveryIds)

    const final = await call('event.send', { subscriptionId: goneFeed.id, eventType: 'booking.cancelled', payload, count: 1, faults: [] })
    await settled(h, final.deliveryIds)
    await call('delivery.retryNow', { id: final.deliveryIds[0]! })
    await settled(h, final.deliveryIds)

    await call('subscription.setPaused', { id: feed.id, paused: true })
    const held = await call('event.send', { subscriptionId: feed.id, eventType: 'booking.moved', payload, count: 1, faults: [] })
    await call('subscription.setPaused', { id: feed.id, paused: false })
    await settled(h, held.deliveryIds)

    await call('subscription.rotateSecret', { id: feed.id })
    const rotated = await call('event.send', { subscriptionId: feed.id, eventType: 'booking.noted', payload, count: 1, faults: [] })
    await settled(h, rotated.deliveryIds)
    expect((await call('snapshot', {})).recording).toMatchObject({ active: true, events: 5 })

    const recorded = await call('record.stop', {})
    expect(recorded.problems).toEqual([])
    const parsed = parseScenario(recorded.text)
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    const scenario = parsed.scenario
    expect(scenario.clock.mode).toBe('virtual')
    expect(scenario.endpoints.map((e) => e.slug).sort()).toEqual(['gone', 'shop'])
    expect(scenario.events.map((e) => e.faults.map((f) => f.type))).toEqual([['duplicate'], ['corrupt-signature'], [], [], []])
    expect(scenario.actions.map((a) => a.type)).toEqual(['retry-now', 'pause', 'resume', 'rotate-secret'])
    // The recorded outcome, as expectations: the copy is dup #2, the corrupted one a mismatch, the 410 final twice.
    const byEvent = (event: string, copy = false) => scenario.expect.deliveries.find((d) => d.event === event && d.copy === copy)
    expect(byEvent('e1', true)?.duplicates).toEqual([2])
    expect([byEvent('e2')?.signatures].flat()).toContain('signature_mismatch')
    expect(byEvent('e3')).toMatchObject({ status: 'failed', attempts: 2, outcomes: ['http_410', 'http_410'] })
    expect([byEvent('e5')?.signatures].flat()).toContain('signature_mismatch')

    const report = await runScenario(scenario)
    const failed = report.expectations.filter((e) => !e.ok).map((e) => `${e.path}: ${e.message}`)
    expect(failed).toEqual([])
    expect(report.actions.every((a) => a.ok)).toBe(true)
    expect(report.ok).toBe(true)
    expect(report.expectations.length).toBeGreaterThan(30)
  })

  it('on the real clock: a final 4xx under a policy without retries records and replays the same', async () => {
    const { host, call } = await openSession()
    await call('record.start', {})
    const gone = await call('endpoint.create', { name: 'gone', scheme: null, secrets: [], dedupe: { type: 'header', name: 'x-github-delivery' } })
    await call('rule.addPreset', { endpointId: gone.id, preset: 'always-410' })
    const sub = await call('subscription.create', { name: 'hooks', target: { endpointId: gone.id }, scheme: 'github', secret: 'gh-secret', policyId: 'github' })
    const sent = await call('event.send', { subscriptionId: sub.id, eventType: 'push', payload: '{"ref":"main"}', count: 2, faults: [] })
    await settled(host, sent.deliveryIds)
    const recorded = await call('record.stop', {})
    expect(recorded.problems).toEqual([])
    const parsed = parseScenario(recorded.text)
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    expect(parsed.scenario.clock).toEqual({ mode: 'real' })
    expect(parsed.scenario.subscriptions[0]?.policy).toBe('github')
    expect(parsed.scenario.expect.deliveries).toHaveLength(2)
    expect(parsed.scenario.expect.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1, at_ms: [0], tolerance_ms: 1000, outcomes: ['http_410'] })
    const report = await runScenario(parsed.scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
  })

  it("an endpoint's forward target set while recording is part of the scenario, and what the app answered is expected", async () => {
    const { host, call } = await openSession()
    const app = await startApp((_, res) => res.writeHead(204).end())
    try {
      await call('record.start', {})
      const shop = await call('endpoint.create', { name: 'shop', scheme: null, secrets: [], dedupe: { type: 'header', name: 'x-github-delivery' } })
      await call('endpoint.setForwardTo', { id: shop.id, forwardTo: [`${app.url}/hooks`] })
      const sub = await call('subscription.create', { name: 'hooks', target: { endpointId: shop.id }, scheme: 'github', secret: 'gh-secret', policyId: 'github' })
      const sent = await call('event.send', { subscriptionId: sub.id, eventType: 'push', payload: '{"ref":"main"}', count: 1, faults: [] })
      await settled(host, sent.deliveryIds)
      expect(app.seen).toHaveLength(1)
      const recorded = await call('record.stop', {})
      expect(recorded.problems).toEqual([])
      const parsed = parseScenario(recorded.text)
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
      expect(parsed.scenario.endpoints[0]?.forward_to).toEqual([`${app.url}/hooks`])
      expect(parsed.scenario.expect.deliveries[0]).toMatchObject({ status: 'succeeded', outcomes: ['http_204'] })
      const report = await runScenario(parsed.scenario)
      expect(report.expectations.filter((e) => !e.ok)).toEqual([])
      expect(app.seen).toHaveLength(2) // the scenario's run forwarded to the app as well
    } finally {
      await app.close()
    }
  })

  it('Stop without an event says so, and a second Record while recording is refused', async () => {
    const { call } = await openSession()
    await call('record.start', {})
    await expect(call('record.start', {})).rejects.toThrow(/conflict: a recording is already running/)
    await expect(call('record.stop', {})).rejects.toThrow(/nothing was sent while recording/)
    await expect(call('record.stop', {})).rejects.toThrow(/no recording is running/)
    expect((await call('snapshot', {})).recording.active).toBe(false)
  })
  it('names and dates the scenario by the wall time it was recorded, not by the simulation’s clock hours ahead', async () => {
    const { host: h, call } = await openSession()
    await call('clock.set', { mode: 'virtual' })
    // A whole retry schedule first: the virtual clock runs 14.5 h ahead of the wall.
    const down = await call('endpoint.create', { name: 'down', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'header', name: 'webhook-id' } })
    await call('rule.addPreset', { endpointId: down.id, preset: 'always-500' })
    const downFeed = await call('subscription.create', { name: 'down feed', target: { endpointId: down.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'pandoktorek' })
    const failed = await call('event.send', { subscriptionId: downFeed.id, eventType: 'booking.created', payload: '{}', count: 1, faults: [] })
    await settled(h, failed.deliveryIds)

    await call('record.start', {})
    const up = await call('endpoint.create', { name: 'up', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'header', name: 'webhook-id' } })
    const upFeed = await call('subscription.create', { name: 'up feed', target: { endpointId: up.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'pandoktorek' })
    const sent = await call('event.send', { subscriptionId: upFeed.id, eventType: 'booking.created', payload: '{}', count: 1, faults: [] })
    await settled(h, sent.deliveryIds)
    const recorded = await call('record.stop', {})
    const parsed = parseScenario(recorded.text)
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    const named = /^Recorded session (\d{4}-\d\d-\d\d \d\d:\d\d) UTC$/.exec(parsed.scenario.name)
    expect(named, parsed.scenario.name).not.toBeNull()
    const namedAt = Date.parse(`${named![1]!.replace(' ', 'T')}:00Z`)
    // On the wall: before now, and not the simulation's clock, which is more than 14 h ahead.
    expect(namedAt).toBeLessThanOrEqual(Date.now())
    expect(namedAt).toBeGreaterThan(Date.now() - 3_600_000)
    const described = /Recorded in Hookloop on (\S+);/.exec(parsed.scenario.description ?? '')
    expect(Date.parse(described![1]!)).toBeLessThanOrEqual(Date.now())
  })
})
