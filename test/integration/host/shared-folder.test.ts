// The app's engine (the host `serve` runs) and a `hookloop listen` process on one data folder, both
// running: what listen defines and captures shows in the host — its endpoint list (pushed), its
// timeline page and pushed upserts, its own routing — and what the host defines, listen routes.
// A second engine on the folder adds a subscription: the host lists it. Real processes, a real file.
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EndpointView, EventName, EventPayloads, ServerFrame, TimelineRow } from '../../../shared/contract'
import { createEngine } from '../../../electron/engine/engine'
import { createToken } from '../../../electron/engine/host/guard'
import { startHost } from '../../../electron/engine/host/run-host'
import { startListen } from '../../support/listen-cli'
import { makeTempDir } from '../../support/temp-dir'
import { connectControl } from './support/control-client'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

/** Polls `read` until it returns something (bounded: a missing push fails the test, it never hangs). */
async function eventually<T>(what: string, read: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`never saw: ${what}`)
}

/** A host (the engine `serve` runs) on a fresh data folder, stopped and removed after the test. */
async function hostOnNewFolder() {
  const temp = makeTempDir('hookloop-shared-folder-')
  cleanups.push(temp.cleanup)
  const token = createToken()
  const host = await startHost({ dataDir: temp.dir, port: 0, token })
  cleanups.push(() => host.close())
  return { temp, host, token }
}

describe('one data folder, two processes, both running', () => {
  it("the host shows listen's endpoints and captures live, and each routes the other's endpoints", async () => {
    const { temp, host, token } = await hostOnNewFolder()
    const { call, ws } = await connectControl(host, token)
    cleanups.push(() => ws.close())
    const pushed: { name: EventName; payload: unknown }[] = []
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as ServerFrame
      if (frame.t === 'events') pushed.push(...(frame.batch as { name: EventName; payload: unknown }[]))
    })
    const last = <N extends EventName>(name: N): EventPayloads[N] | undefined => pushed.filter((e) => e.name === name).at(-1)?.payload as EventPayloads[N] | undefined
    const first = await call('snapshot', {})
    expect(first.endpoints.map((e) => e.slug)).toEqual([])

    // listen defines an endpoint the host has never seen, with a rule of its own.
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'shop', dedupe: 'standard-webhooks', rules: [{ preset: 'always-410' }] }] }))
    const listen = await startListen(['--config', config, '--data', temp.dir])
    cleanups.push(async () => {
      listen.kill()
      await listen.exited
    })
    const shop = await eventually('shop in a pushed endpoint list', () => last('endpoints.changed')?.endpoints.find((e: EndpointView) => e.slug === 'shop'))
    expect((await call('snapshot', {})).endpoints.map((e) => e.slug)).toEqual(['shop'])
    // listen writes its endpoint and then its rule: the host may push the two lists in separate batches.
    const shopRules = await eventually("shop's rule in a pushed rule list", () => {
      const rules = last('rules.changed')?.rules.filter((r) => r.endpointId === shop.id)
      return rules && rules.length > 0 ? rules : undefined
    })
    expect(shopRules).toHaveLength(1)

    // Requests captured by listen: rows in the host's timeline, pushed and paged, under that endpoint.
    for (const id of ['evt_1', 'evt_2', 'evt_1']) {
      const answer = await fetch(`http://127.0.0.1:${listen.port}/h/shop`, { method: 'POST', body: JSON.stringify({ id }), headers: { 'content-type': 'application/json', 'webhook-id': id } })
      expect(answer.status).toBe(410)
    }
    const upserted = (eventId: string) => pushed.flatMap((e) => (e.name === 'timeline.upsert' ? (e.payload as { rows: TimelineRow[] }).rows : [])).filter((r) => r.eventId === eventId).at(-1)
    expect(await eventually('evt_1 pushed twice', () => (upserted('evt_1')?.attempts === 2 ? upserted('evt_1') : undefined))).toMatchObject({ kind: 'received', endpointId: shop.id, lastStatusCode: 410 })
    const page = await call('timeline.page', { offset: 0, limit: 50, filter: { endpointId: shop.id } })
    expect(page.total).toBe(2)
    expect(page.rows.map((r) => [r.eventId, r.attempts])).toEqual([
      ['evt_2', 1],
      ['evt_1', 2],
    ])

    // The host's own receiver answers at listen's endpoint by listen's rule.
    const viaHost = await fetch(`${host.engine.receiver.url}/h/shop`, { method: 'POST', body: '{"id":"evt_3"}', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_3' } })
    expect(viaHost.status).toBe(410)

    // An endpoint made in the UI is routed by listen (its log says so) and answered there.
    await call('endpoint.create', { name: 'Cart', slug: 'cart', scheme: null, secrets: [], dedupe: null })
    await listen.waitForOutput((out) => out.includes('now: /h/cart') || /now: .*\/h\/cart/.test(out))
    const viaListen = await fetch(`http://127.0.0.1:${listen.port}/h/cart`, { method: 'POST', body: '{}' })
    expect(viaListen.status).toBe(200)
    const cart = (await call('snapshot', {})).endpoints.find((e) => e.slug === 'cart')
    await eventually('the request to cart on the timeline', async () => {
      const rows = await call('timeline.page', { offset: 0, limit: 10, filter: { endpointId: cart?.id ?? '' } })
      return rows.total === 1 ? rows : undefined
    })
  })

  it('a subscription another engine adds to the folder is listed by the host', async () => {
    const { temp, host, token } = await hostOnNewFolder()
    const { call, ws } = await connectControl(host, token)
    cleanups.push(() => ws.close())
    const other = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
    cleanups.push(() => other.close())
    const made = await other.putSubscription({ name: 'orders', target: { url: 'http://127.0.0.1:9/hooks' }, scheme: 'standard-webhooks', policy: 'github' })
    const listed = await eventually('orders in the snapshot', async () => (await call('snapshot', {})).subscriptions.find((s) => s.id === made.id))
    expect(listed.name).toBe('orders')
    await other.sender.pause(made.id)
    await eventually('orders paused in the snapshot', async () => ((await call('snapshot', {})).subscriptions.find((s) => s.id === made.id)?.paused ? true : undefined))
  })

  it('two processes capturing a burst at once into one file: every request is a row, the file is intact', async () => {
    const { temp, host, token } = await hostOnNewFolder()
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'burst' }] }))
    const listen = await startListen(['--config', config, '--data', temp.dir])
    cleanups.push(async () => {
      listen.kill()
      await listen.exited
    })
    // The store has listen's endpoint as soon as listen is up; the host routes it once its watch
    // has read it (a poll): probe with a GET, which the counts below leave out.
    await eventually('the host routes /h/burst', async () => ((await fetch(`${host.engine.receiver.url}/h/burst`)).status === 404 ? undefined : true))

    const PER_PROCESS = 150
    const LANES = 8
    const sent: string[] = []
    async function burst(base: string, tag: string): Promise<void> {
      let next = 0
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          while (next < PER_PROCESS) {
            const id = `${tag}-${next++}`
            const answer = await fetch(`${base}/h/burst`, { method: 'POST', body: JSON.stringify({ id }), headers: { 'content-type': 'application/json' } })
            expect(answer.status).toBe(200)
            sent.push(id)
          }
        }),
      )
    }
    await Promise.all([burst(host.engine.receiver.url, 'host'), burst(`http://127.0.0.1:${listen.port}`, 'listen')])
    listen.kill()
    expect(await listen.exited).toBe(0)
    host.engine.receiver.requests.flush()

    const db = new Database(join(temp.dir, 'hookloop.db'), { readonly: true })
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const stored = (db.prepare("SELECT CAST(body AS TEXT) AS body FROM requests WHERE path = '/h/burst' AND method = 'POST'").all() as { body: string }[]).map((r) => (JSON.parse(r.body) as { id: string }).id)
      expect(stored).toHaveLength(2 * PER_PROCESS)
      expect(new Set(stored)).toEqual(new Set(sent))
      // Every stored request answered: none half-written by a failed commit.
      expect(db.prepare("SELECT COUNT(*) FROM requests WHERE path = '/h/burst' AND method = 'POST' AND response_status = 200").pluck().get()).toBe(2 * PER_PROCESS)
    } finally {
      db.close()
    }
    const { call, ws } = await connectControl(host, token)
    cleanups.push(() => ws.close())
    const burstEndpoint = (await call('snapshot', {})).endpoints.find((e) => e.slug === 'burst')
    expect((await call('timeline.page', { offset: 0, limit: 1, filter: { endpointId: burstEndpoint?.id ?? '' } })).total).toBe(2 * PER_PROCESS + 1) // and the probe that was routed
  })

  it('two engines sending from one folder at once: every attempt is a row under its own id', async () => {
    const temp = makeTempDir('hookloop-shared-folder-')
    cleanups.push(temp.cleanup)
    const consumer = await new Promise<ReturnType<typeof createServer>>((resolve) => {
      const server = createServer((req, res) => {
        req.resume()
        req.on('end', () => res.writeHead(200).end())
      })
      server.listen(0, '127.0.0.1', () => resolve(server))
    })
    cleanups.push(() => new Promise<void>((resolve) => consumer.close(() => resolve())))
    const target = `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/hooks`
    const engines = [await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } }), await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })]
    for (const engine of engines) cleanups.push(() => engine.close())
    const subscriptions = await Promise.all(engines.map((engine, i) => engine.putSubscription({ name: `s${i}`, target: { url: target }, scheme: 'standard-webhooks', policy: 'github' })))
    const EACH = 40
    const sent = await Promise.all(
      engines.map((engine, i) => Promise.all(Array.from({ length: EACH }, (_, n) => engine.sendEvent({ subscriptionIds: [subscriptions[i]!.id], eventType: 'order.paid', payload: { n } })))),
    )
    const deliveryIds = sent.flatMap((batch, i) => batch.map((s) => [i, s.deliveryIds[0]!] as const))
    for (const [i, id] of deliveryIds) await eventually(`delivery ${id} settled`, () => (engines[i]!.isDeliverySettled(id) ? true : undefined))
    const db = new Database(join(temp.dir, 'hookloop.db'), { readonly: true })
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(db.prepare("SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded'").pluck().get()).toBe(2 * EACH)
      expect(db.prepare("SELECT COUNT(*) FROM attempts WHERE outcome = 'http_200'").pluck().get()).toBe(2 * EACH)
      expect(db.prepare('SELECT COUNT(DISTINCT delivery_id) FROM attempts').pluck().get()).toBe(2 * EACH)
    } finally {
      db.close()
    }
  })
})
