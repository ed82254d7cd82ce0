import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import type { FeedErrorBody, FeedPage } from '../../../shared/contract'
import { startPollingIntegration, type PollingIntegration } from '../../support/polling-integration'
import { createTunnelServer } from '../../support/tunnel-server'
import { Agent, request } from 'undici'
import { tunnelLookup } from '../../../electron/engine/tunnel/lookup'
import { makeTempDir } from '../../support/temp-dir'

// GET /api/v1/events on the receiver's own port, over real HTTP, against events the real sender
// published on a virtual clock (so several events share one created_at millisecond).

const START = Date.UTC(2026, 10, 29, 12, 0, 0)
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function engineOnVirtualClock(): Promise<Engine> {
  const temp = makeTempDir('hookloop-feed-')
  cleanups.push(() => temp.cleanup())
  const engine = await createEngine({ dataDir: temp.dir, clock: { mode: 'virtual', start: START }, receiver: { host: '127.0.0.1', port: 0 } })
  cleanups.push(() => engine.close())
  return engine
}

async function get(engine: Engine, query: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${engine.receiver.url}/api/v1/events${query}`)
  return { status: response.status, body: await response.json() }
}

async function page(engine: Engine, query: string): Promise<FeedPage> {
  const { status, body } = await get(engine, query)
  expect(status, JSON.stringify(body)).toBe(200)
  return body as FeedPage
}

/** Publishes one event per type to a subscription that goes nowhere reachable (paused: no attempt). */
async function publishAt(engine: Engine, subscriptionId: string, types: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const type of types) ids.push((await engine.sendEvent({ subscriptionIds: [subscriptionId], eventType: type, payload: { type } })).eventId)
  return ids
}

const iso = (ms: number) => new Date(ms).toISOString()

describe('polling feed', () => {
  it('lists events from updated_since inclusive, in the order they were stored, paged across equal timestamps', async () => {
    const engine = await engineOnVirtualClock()
    const sub = await engine.putSubscription({ name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
    const first = await publishAt(engine, sub.id, ['a', 'b', 'c', 'd', 'e']) // all at START
    await engine.clock.sleep(1000)
    const later = await publishAt(engine, sub.id, ['f', 'g']) // at START + 1000

    const all = await page(engine, `?updated_since=${iso(START)}`)
    expect(all.has_more).toBe(false)
    expect(all.next_cursor).toBeNull()
    const expectedOrder = [...first, ...later]
    expect(all.data.map((e) => e.event_id)).toEqual(expectedOrder)
    expect(all.data[0]).toMatchObject({ created_at: iso(START), deliveries: [{ subscription_id: sub.id, status: 'pending', attempts: 0, last_outcome: null }] })
    expect(all.data.find((e) => e.event_id === first[2])?.payload).toEqual({ type: 'c' })

    // Inclusive: an event created exactly at updated_since is listed; one ms later it is not.
    expect((await page(engine, `?updated_since=${iso(START + 1000)}`)).data.map((e) => e.event_id)).toEqual(later)
    expect((await page(engine, `?updated_since=${iso(START + 1001)}`)).data).toEqual([])
    expect((await page(engine, `?updated_since=${iso(START + 999)}`)).data.map((e) => e.event_id)).toEqual(later)
    // Zone offsets name the same instant.
    expect((await page(engine, `?updated_since=${encodeURIComponent('2026-11-29T13:00:01+01:00')}`)).data.map((e) => e.event_id)).toEqual(later)

    // Pages of 2 cut through the five equal timestamps and lose or repeat nothing.
    const seen: string[] = []
    let next = await page(engine, `?updated_since=${iso(START)}&limit=2`)
    for (let i = 0; i < 10; i++) {
      seen.push(...next.data.map((e) => e.event_id))
      if (!next.has_more) break
      expect(next.data).toHaveLength(2)
      next = await page(engine, `?cursor=${next.next_cursor}&limit=2`)
    }
    expect(seen).toEqual(expectedOrder)

    // An event published after a page was read shows up on the next page, not shifted.
    const one = await page(engine, `?updated_since=${iso(START)}&limit=6`)
    await engine.clock.sleep(1)
    const [newest] = await publishAt(engine, sub.id, ['h'])
    const rest = await page(engine, `?cursor=${one.next_cursor}&limit=6`)
    expect(rest.data.map((e) => e.event_id)).toEqual([expectedOrder[6], newest])
  })

  it('pages in the store’s sequence: an event a later simulation stamps months earlier is not skipped by a cursor', async () => {
    const temp = makeTempDir('hookloop-feed-')
    cleanups.push(() => temp.cleanup())
    const open = (start: number) => createEngine({ dataDir: temp.dir, clock: { mode: 'virtual', start }, receiver: { host: '127.0.0.1', port: 0 } })
    const first = await open(START)
    const sub = await first.putSubscription({ name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
    const [a, b] = await publishAt(first, sub.id, ['a', 'b'])
    const one = await page(first, `?updated_since=1970-01-01T00:00:00Z&limit=1`)
    expect(one.data.map((e) => e.event_id)).toEqual([a])
    // The event's own time is its simulation's; the wall time it was stored is beside it.
    expect(one.data[0]).toMatchObject({ created_at: iso(START), simulation_id: first.simulation?.id })
    expect(Date.parse(one.data[0]!.stored_at)).toBeGreaterThan(Date.now() - 60_000)
    await first.close()

    // The next run on the folder: a scenario whose clock starts in January, before the first.
    const second = await open(Date.UTC(2026, 0, 5, 9))
    cleanups.push(() => second.close())
    const [c] = await publishAt(second, sub.id, ['c'])
    const rest = await page(second, `?cursor=${one.next_cursor}`)
    expect(rest.data.map((e) => e.event_id)).toEqual([b, c])
    expect(rest.data[1]).toMatchObject({ created_at: '2026-01-05T09:00:00.000Z', simulation_id: second.simulation?.id })
  })

  it('answers bad parameters with a 400 that names the parameter', async () => {
    const engine = await engineOnVirtualClock()
    const cases: Array<[string, string]> = [
      ['?updated_since=yesterday', 'updated_since'],
      ['?updated_since=2026-11-29', 'updated_since'],
      ['', 'updated_since'],
      [`?updated_since=${iso(START)}&limit=0`, 'limit'],
      [`?updated_since=${iso(START)}&limit=5000`, 'limit'],
      [`?updated_since=${iso(START)}&limit=abc`, 'limit'],
      ['?cursor=garbage!', 'cursor'],
      [`?cursor=${Buffer.from('[2,"x","y"]').toString('base64url')}`, 'cursor'],
    ]
    for (const [query, parameter] of cases) {
      const { status, body } = await get(engine, query)
      expect(status, query).toBe(400)
      expect((body as FeedErrorBody).error.parameter, query).toBe(parameter)
      expect((body as FeedErrorBody).error.message, query).toContain(parameter)
    }
    expect((await fetch(`${engine.receiver.url}/api/v1/events?updated_since=${iso(START)}`, { method: 'POST', body: '{}' })).status).toBe(405)
    expect((await fetch(`${engine.receiver.url}/api/v1/nothing`)).status).toBe(404)
    // API calls are not webhooks: nothing was captured.
    expect(engine.receiver.requests.count()).toBe(0)
  })

  it('lists an event whose delivery the drop fault lost, and an integration recovers it by polling', async () => {
    const engine = await engineOnVirtualClock()
    const integration: PollingIntegration = await startPollingIntegration({ feedUrl: `${engine.receiver.url}/api/v1/events`, since: iso(START), pageSize: 2 })
    cleanups.push(() => integration.close())
    const sub = await engine.putSubscription({ name: 'consumer', target: { url: integration.url }, scheme: 'standard-webhooks', policy: 'csku' })
    const delivered = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { order: 1 } })
    const lost = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { order: 2 }, faults: [{ type: 'drop' }] })
    const alsoDelivered = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { order: 3 } })
    await engine.sender.settled()

    expect([...integration.processed.keys()].sort()).toEqual([delivered.eventId, alsoDelivered.eventId].sort())
    const feed = await page(engine, `?updated_since=${iso(START)}`)
    const dropped = feed.data.find((e) => e.event_id === lost.eventId)
    expect(dropped).toMatchObject({ event_type: 'order.paid', payload: { order: 2 }, deliveries: [{ last_outcome: 'dropped' }] })

    expect(await integration.reconcile()).toEqual([lost.eventId])
    expect(integration.processed.get(lost.eventId)).toBe('poll')
    // Polling again finds nothing new (idempotent by event_id; the watermark is inclusive).
    expect(await integration.reconcile()).toEqual([])
  })

  it('is reachable through the public tunnel, where an integration under test polls it', async () => {
    const server = await createTunnelServer({ maxSockets: 4 })
    cleanups.push(() => server.stop())
    const temp = makeTempDir('hookloop-feed-')
    cleanups.push(() => temp.cleanup())
    const engine = await createEngine({
      dataDir: temp.dir,
      receiver: { host: '127.0.0.1', port: 0 },
      tunnel: { host: server.url, requestTimeoutMs: 2000, healthIntervalMs: 500, backoff: { initialMs: 100, maxMs: 500, jitter: 0.2 } },
    })
    cleanups.push(() => engine.close())
    for (let i = 0; i < 2000 && engine.tunnel?.state.kind !== 'online'; i++) await new Promise((r) => setTimeout(r, 10))
    const publicUrl = engine.tunnel?.publicUrl()
    expect(publicUrl).toBeDefined()
    const sub = await engine.putSubscription({ name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
    const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { via: 'tunnel' } })
    // The tunnel hands out *.localhost URLs; resolve them to loopback as the engine does (RFC 6761).
    const dispatcher = new Agent({ connect: { lookup: tunnelLookup } })
    cleanups.push(() => dispatcher.close())
    const response = await request(`${publicUrl}/api/v1/events?updated_since=1970-01-01T00:00:00Z`, { dispatcher })
    expect(response.statusCode).toBe(200)
    const body = (await response.body.json()) as FeedPage
    expect(body.data.map((e) => e.event_id)).toEqual([sent.eventId])
  })
})
