// The dedupe window compares two arrivals on one clock: their own when they share it, else the
// wall. A loop delivery of a simulation whose clock starts months back (a scenario's clock.start)
// and a real request with the same event id seconds later on the wall are one event arriving
// twice, not eleven months apart (docs/time.md).
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function simulationEngine(start: number): Promise<Engine> {
  const temp = makeTempDir('hookloop-dedupe-clocks-')
  cleanups.push(() => temp.cleanup())
  // The engine's clock is the simulation's; real traffic stays on the real wall clock.
  const engine = await createEngine({ dataDir: temp.dir, clock: { mode: 'virtual', start }, receiver: { host: '127.0.0.1', port: 0 } })
  cleanups.push(() => engine.close())
  return engine
}

async function delivered(engine: Engine, eventId: string): Promise<void> {
  const sub = await engine.putSubscription({ name: 'loop', target: { endpoint: 'clinic' }, scheme: 'standard-webhooks', policy: 'csku', eventIdHeader: 'x-event' })
  const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventId, eventType: 'booking.created', payload: { n: 1 } })
  for (let i = 0; i < 1000 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((r) => setTimeout(r, 10))
  expect(engine.isDeliverySettled(sent.deliveryIds[0]!)).toBe(true)
}

const duplicateNumbers = async (engine: Engine) => {
  await engine.quiesce()
  return engine.receiver.requests.list({ limit: 10 }).reverse().map((r) => [r.attemptId === null ? 'real' : 'loop', r.duplicateNumber])
}

describe('dedupe windows across clocks', () => {
  it('a real request after a simulated arrival months back on its own clock is dup #2 (seconds apart on the wall)', async () => {
    const engine = await simulationEngine(Date.UTC(2026, 0, 5, 9))
    await engine.putEndpoint({ slug: 'clinic', dedupe: { type: 'header', name: 'x-event' } })
    const eventId = randomUUID()
    await delivered(engine, eventId)
    const response = await fetch(engine.receiver.endpointUrl('clinic'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-event': eventId }, body: '{}' })
    await response.arrayBuffer()
    expect(await duplicateNumbers(engine)).toEqual([
      ['loop', 1],
      ['real', 2],
    ])
  })

  it('a simulated arrival after a real one, its clock a year ahead, is dup #2 too', async () => {
    const engine = await simulationEngine(Date.now() + 365 * 86_400_000)
    await engine.putEndpoint({ slug: 'clinic', dedupe: { type: 'header', name: 'x-event' } })
    const eventId = randomUUID()
    const response = await fetch(engine.receiver.endpointUrl('clinic'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-event': eventId }, body: '{}' })
    await response.arrayBuffer()
    await delivered(engine, eventId)
    expect(await duplicateNumbers(engine)).toEqual([
      ['real', 1],
      ['loop', 2],
    ])
  })
})

describe('dup numbers across processes on one folder', () => {
  it('a second engine on the folder continues the count, and the first continues from it', async () => {
    const temp = makeTempDir('hookloop-dedupe-shared-')
    cleanups.push(() => temp.cleanup())
    const open = async () => {
      const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
      cleanups.push(() => engine.close())
      return engine
    }
    let n = 0
    const post = async (engine: Engine, eventId: string) => {
      const response = await fetch(engine.receiver.endpointUrl('shop'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-event': eventId }, body: JSON.stringify({ n: ++n }) })
      await response.arrayBuffer()
      await engine.quiesce()
    }
    const first = await open()
    await first.putEndpoint({ slug: 'shop', dedupe: { type: 'header', name: 'x-event' } })
    await post(first, 'evt_1')
    // The app and `hookloop listen` on one folder: two engines, each with its own receiver.
    const second = await open()
    await post(second, 'evt_1')
    await post(first, 'evt_1')
    await post(second, 'evt_1')
    // Both were running before a key the second sees first: the first continues its count too.
    await post(second, 'evt_2')
    await post(first, 'evt_2')
    // In the order they were sent (ids from two processes interleave: each claims its own block).
    const rows = first.receiver.requests.list({ limit: 10 }).map((r) => ({ n: (JSON.parse(Buffer.from(r.body).toString()) as { n: number }).n, number: r.duplicateNumber }))
    expect(rows.sort((a, b) => a.n - b.n).map((r) => r.number)).toEqual([1, 2, 3, 4, 1, 2])
  })

  it('two engines opened on an empty folder before any capture count one key together', async () => {
    const temp = makeTempDir('hookloop-dedupe-shared-')
    cleanups.push(() => temp.cleanup())
    const open = async () => {
      const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
      cleanups.push(() => engine.close())
      return engine
    }
    const first = await open()
    await first.putEndpoint({ slug: 'shop', dedupe: { type: 'header', name: 'x-event' } })
    const second = await open()
    const post = async (engine: Engine, n: number) => {
      const response = await fetch(engine.receiver.endpointUrl('shop'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-event': 'evt_9' }, body: JSON.stringify({ n }) })
      expect(response.status).toBe(200)
      await response.arrayBuffer()
      await engine.quiesce()
    }
    await post(first, 1)
    await post(second, 2)
    const rows = first.receiver.requests.list({ limit: 10 }).map((r) => ({ n: (JSON.parse(Buffer.from(r.body).toString()) as { n: number }).n, number: r.duplicateNumber }))
    expect(rows.sort((a, b) => a.n - b.n).map((r) => r.number)).toEqual([1, 2])
  })
})
