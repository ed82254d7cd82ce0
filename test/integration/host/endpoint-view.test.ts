// An endpoint's view ("Show on timeline" of an endpoint, the timeline's endpoint filter) holds
// what reached that endpoint: the requests it received and the deliveries made to it by a
// subscription that targets it (their attempts arrived there). A real engine (receiver and sender
// on real sockets) over a real SQLite file; the rule is in store/count-definitions.ts.
import { afterEach, describe, expect, it } from 'vitest'
import type { TimelineRow } from '../../../shared/contract'
import type { Engine } from '../../../electron/engine/engine'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { virtualEngine } from '../../support/engine'
import { createSqliteEngine } from '../../../electron/engine/store'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function deliver(engine: Engine, name: string, target: { endpoint: string } | { url: string }) {
  const subscription = await engine.putSubscription({ name, target, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
  const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: name } })
  await engine.sender.settled()
  await engine.quiesce()
  return sent.deliveryIds[0] as number
}

const endpointIdOf = (engine: Engine, slug: string) => engine.receiver.endpoints.list().find((e) => e.slug === slug)?.id as string

describe('an endpoint’s view', () => {
  it('holds the deliveries made to that endpoint beside its received rows; its total counts them; each delivery row names its endpoint', async () => {
    const { temp, clock, engine } = await virtualEngine()
    cleanups.push(() => temp.cleanup(), () => clock.dispose(), () => engine.close())
    for (const slug of ['orders', 'billing']) await engine.putEndpoint({ slug, scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: slug === 'orders' ? [{ preset: 'fail-first', n: 2 }] : [] })
    const orders = endpointIdOf(engine, 'orders')
    const billing = endpointIdOf(engine, 'billing')

    const toOrders = await deliver(engine, 'orders feed', { endpoint: 'orders' })
    const toBilling = await deliver(engine, 'billing feed', { endpoint: 'billing' })
    // A delivery to a URL outside Hookloop belongs to no endpoint.
    const outside = await deliver(engine, 'outside feed', { url: 'http://127.0.0.1:9/hooks' })
    // A provider's request straight into the endpoint: a received row of its own.
    const response = await fetch(engine.receiver.endpointUrl('orders'), { method: 'POST', body: '{"type":"ping"}', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_direct' } })
    await response.arrayBuffer()
    await engine.quiesce()

    const timeline = createTimelineViews(createSqliteEngine(engine.db, { closeDatabase: false }))
    const everything = (await timeline.page({}, 0, 1000)).rows
    const deliveryRow = (id: number) => everything.find((r) => r.deliveryId === id) as TimelineRow
    expect([toOrders, toBilling, outside].map((id) => deliveryRow(id).endpointId)).toEqual([orders, billing, null])

    const view = await timeline.page({ endpointId: orders }, 0, 1000)
    expect(view.rows.map((r) => (r.kind === 'delivery' ? `d:${r.deliveryId}` : `r:${r.eventId}`)).sort()).toEqual([`d:${toOrders}`, 'r:evt_direct'].sort())
    expect(view.total).toBe(view.rows.length)
    // The delivery row in the endpoint's view holds exactly its attempts, as in the whole timeline.
    expect(view.rows.find((r) => r.deliveryId === toOrders)?.marks.map((m) => m.label)).toEqual(['503', '503', '200'])
    // The engine's filter and the row's endpointId (which the app filters live pushes by) agree.
    expect(everything.filter((r) => r.endpointId === orders).map((r) => r.key).sort()).toEqual(view.rows.map((r) => r.key).sort())

    // Filters combine: the endpoint's deliveries of one subscription ("Watch on timeline").
    const subscriptionId = deliveryRow(toOrders).subscriptionId as string
    expect((await timeline.page({ endpointId: orders, subscriptionId }, 0, 1000)).rows.map((r) => r.deliveryId)).toEqual([toOrders])
    expect((await timeline.page({ endpointId: billing, subscriptionId }, 0, 1000)).total).toBe(0)
    expect((await timeline.page({ endpointId: orders, status: ['received'] }, 0, 1000)).rows.map((r) => r.eventId)).toEqual(['evt_direct'])
  })
})
