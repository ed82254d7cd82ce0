// Attempt links across real processes: `hookloop trigger` sends from a store of its own, so its
// attempt #1 never lands on the app's attempt #1 (it gets a row of its own); `hookloop listen` on
// the same data folder as the engine that sends shares the folder's link key, so a delivery sent
// by one and received by the other still links. The CLI runs as built (out/).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Engine } from '../../../electron/engine/engine'
import { createDetailViews } from '../../../electron/engine/host/detail-views'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { createVirtualClock } from '../../../electron/engine/clock'
import { openEngine } from '../../support/engine'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { createSqliteEngine, secretBoxOf } from '../../../electron/engine/store'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => Promise<unknown> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function engineOn(dir: string): Promise<Engine> {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) })
  const engine = await openEngine(dir, clock)
  cleanups.push(() => clock.dispose(), () => engine.close())
  return engine
}

function readsOf(engine: Engine) {
  return {
    timeline: createTimelineViews(createSqliteEngine(engine.db, { closeDatabase: false })),
    details: createDetailViews(createSqliteEngine(engine.db, { closeDatabase: false }), secretBoxOf(engine.db), { explainRule: () => '', explainFault: () => '', endpointUrls: (slug) => ({ localUrl: engine.receiver.endpointUrl(slug), publicUrl: null }) }),
  }
}

const bodyOf = (request: { bodyBase64: string } | null | undefined) => JSON.parse(Buffer.from(request?.bodyBase64 ?? '', 'base64').toString()) as Record<string, unknown>

describe('attempt links between processes', () => {
  it('hookloop trigger into an endpoint: its attempt #1 stays out of our attempt #1, and the triggered event has a row of its own', async () => {
    const temp = makeTempDir('hookloop-links-trigger-')
    cleanups.push(() => temp.cleanup())
    const engine = await engineOn(temp.dir)
    await engine.putEndpoint({ slug: 'orders', dedupe: 'stripe', rules: [] })
    const subscription = await engine.putSubscription({ name: 'orders', target: { endpoint: 'orders' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
    const own = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: 1 } })
    await engine.sender.settled()
    const ourAttempt = (await engine.sender.getDelivery(own.deliveryIds[0] as number)).attempts[0]

    const triggered = await runCli(['trigger', 'stripe', 'payment_intent.succeeded', '--to', engine.receiver.endpointUrl('orders'), '--secret', 'whsec_trigger', '--json'])
    expect(triggered.code).toBe(0)
    const report = JSON.parse(triggered.stdout) as { attempts: { id: number }[] }
    // The same attempt number in both stores: only the link tells them apart.
    expect(report.attempts.map((a) => a.id)).toEqual([ourAttempt?.id])
    await engine.quiesce()

    const { timeline, details } = readsOf(engine)
    const { rows } = await timeline.page({}, 0, 100)
    const ours = rows.find((r) => r.deliveryId === own.deliveryIds[0])
    expect(ours?.marks).toHaveLength(1)
    const detail = await details.deliveryDetail(own.deliveryIds[0] as number)
    const ownRequest = await details.requestDetail(detail?.attempts[0]?.requestId ?? -1)
    expect(bodyOf(ownRequest).event_id ?? bodyOf(ownRequest).id).toBe(own.eventId)
    const theirs = rows.filter((r) => r.kind === 'received')
    expect(theirs.map((r) => [r.eventType, r.marks.length])).toEqual([['payment_intent.succeeded', 1]])
    const theirRequest = await details.requestDetail(theirs[0]?.marks[0]?.id ?? -1)
    expect(theirRequest?.attemptId).toBeNull()
    expect(bodyOf(theirRequest).object).toBe('event')
  })

  it('hookloop listen on the same data folder receives what an engine on that folder sends, linked to its attempts', async () => {
    const temp = makeTempDir('hookloop-links-listen-')
    cleanups.push(() => temp.cleanup())
    const data = join(temp.dir, 'data')
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'orders', dedupe: { type: 'header', name: 'webhook-id' }, rules: [{ preset: 'fail-first', n: 1 }] }] }))
    const listen = await startListen(['--config', config, '--data', data])
    cleanups.push(async () => {
      listen.kill()
      await listen.exited
    })
    const engine = await engineOn(data)
    const subscription = await engine.putSubscription({ name: 'to listen', target: { url: `http://127.0.0.1:${listen.port}/h/orders` }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'csku' })
    const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: 2 } })
    await engine.sender.settled()
    // SIGINT: listen commits what it captured and exits.
    listen.kill()
    expect(await listen.exited).toBe(0)

    const { timeline, details } = readsOf(engine)
    const { rows } = await timeline.page({}, 0, 100)
    expect(rows.map((r) => [r.kind, r.marks.length])).toEqual([['delivery', 2]])
    const detail = await details.deliveryDetail(sent.deliveryIds[0] as number)
    expect(detail?.attempts.map((a) => a.statusCode)).toEqual([503, 200])
    const requests = await Promise.all((detail?.attempts ?? []).map((a) => details.requestDetail(a.requestId ?? -1)))
    expect(requests.map((r) => r?.attemptId)).toEqual(detail?.attempts.map((a) => a.id))
    expect(requests.map((r) => r?.headers.find((h) => h.name === 'webhook-id')?.value)).toEqual([sent.eventId, sent.eventId])
  })
})
