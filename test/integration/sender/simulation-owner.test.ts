// A simulation's clock belongs to the engine that runs it. Two engines on one data folder (a
// `listen` on the wall clock beside a scenario run or Try the loop on a simulated one) each send
// only the deliveries of their own clock: the wall engine never sends a simulation's retry early
// because its simulated due time lies in the wall clock's past, and a simulation starting in the
// future never sends the wall clock's retries. Once a simulation ends (its engine closed, or its
// process gone), what it left is continued on the wall clock, as a single engine always did.
import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { createRealClock } from '../../../electron/engine/clock'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { openDatabase } from '../../../electron/engine/store'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../support/use-temp-dir'
import { startServer } from './support'

const temp = useTempDir()
const DAY = 86_400_000

/** Until the delivery's failed attempt is recorded and its retry scheduled. */
async function retryScheduled(engine: Engine, deliveryId: number): Promise<void> {
  const retrying = () => engine.db.prepare("SELECT attempts >= 1 AND in_flight = 0 AND next_attempt_at IS NOT NULL AND status = 'retrying' FROM deliveries WHERE id = ?").pluck().get(deliveryId) === 1
  for (let i = 0; i < 1000 && !retrying(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(retrying()).toBe(true)
}

async function settled(engine: Engine, deliveryId: number): Promise<void> {
  for (let i = 0; i < 1000 && !engine.isDeliverySettled(deliveryId); i++) await new Promise((r) => setTimeout(r, 10))
  expect(engine.isDeliverySettled(deliveryId)).toBe(true)
}

describe("a simulation's clock belongs to its engine", () => {
  it('the wall engine and a simulated one on one folder each send only their own deliveries; an ended simulation is continued on the wall', async () => {
    // Event ids named "fail…" are refused (503: retried by the policy), the rest accepted.
    const server = await startServer(createRealClock(), (req, res, body) => {
      const failing = body.toString().includes('"fail')
      res.writeHead(failing ? 503 : 200).end()
    })
    const sentOf = (marker: string) => server.requests.filter((r) => r.body.toString().includes(marker)).length
    const engines: Engine[] = []
    const open = async (clock: Parameters<typeof createEngine>[0]['clock']) => {
      const engine = await createEngine({ dataDir: temp.dir, clock, receiver: { host: '127.0.0.1', port: 0 } })
      engines.push(engine)
      return engine
    }
    try {
      // A scenario run whose clock starts in January, at real speed: its first attempt fails and
      // the policy retries 2 minutes later on its clock — long past on the wall clock.
      const run = await open({ mode: 'scaled', factor: 1, start: Date.UTC(2026, 0, 1) })
      const sub = await run.putSubscription({ name: 'app', target: { url: `${server.url}/hook` }, scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'pandoktorek' })
      const simulated = await run.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 'fail-simulated' } })
      await retryScheduled(run, simulated.deliveryIds[0]!)
      expect(sentOf('fail-simulated')).toBe(1)

      // `listen` starts on the same folder on the wall clock and sends a delivery of its own, due
      // after the simulation's retry on the sender's order: had it taken the simulation's, it
      // would have sent it first.
      const listen = await open({ mode: 'real' })
      const wall = await listen.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 'ok-wall' } })
      await settled(listen, wall.deliveryIds[0]!)
      expect(sentOf('fail-simulated')).toBe(1)
      expect(run.isDeliverySettled(simulated.deliveryIds[0]!)).toBe(false)

      // A wall-clock retry is not sent by a simulation that starts in a year.
      const failing = await listen.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 'fail-wall' } })
      await retryScheduled(listen, failing.deliveryIds[0]!)
      const future = await open({ mode: 'virtual', start: Date.now() + 365 * DAY })
      const own = await future.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 'ok-future' } })
      await settled(future, own.deliveryIds[0]!)
      expect(sentOf('fail-wall')).toBe(1)
      expect(sentOf('fail-simulated')).toBe(1)

      // The January run ends: the next wall engine continues what it left.
      await run.close()
      await listen.close()
      const next = await open({ mode: 'real' })
      for (let i = 0; i < 500 && sentOf('fail-simulated') < 2; i++) await new Promise((r) => setTimeout(r, 10))
      expect(sentOf('fail-simulated')).toBe(2)
      expect(sentOf('fail-wall')).toBeGreaterThanOrEqual(1)
      expect(next.simulation).toBeNull()
    } finally {
      for (const engine of engines) await engine.close()
      await server.close()
    }
  })

  it('a simulation whose process died has ended: the next engine continues its deliveries on the wall clock', async () => {
    const server = await startServer(createRealClock(), (_req, res) => void res.writeHead(200).end())
    // A process that ran a simulation and is gone (its pid no longer runs).
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid
    const first = await createEngine({ dataDir: temp.dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
    const sub = await first.putSubscription({ name: 'app', target: { url: `${server.url}/hook` }, scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'pandoktorek' })
    await first.close()
    const seeded = await createEngine({ dataDir: temp.dir, clock: { mode: 'virtual', start: Date.UTC(2026, 0, 1) }, receiver: { host: '127.0.0.1', port: 0 } })
    const simulationId = seeded.simulation!.id
    // Its sender stopped first, it leaves the delivery scheduled; then its simulation is made the dead process's, as a kill -9 leaves it.
    await seeded.sender.stop()
    const sent = await seeded.sender.publish({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 'left-behind' } })
    const deliveryId = sent.deliveries[0]!.id
    await seeded.close()
    const db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
    db.prepare('UPDATE simulations SET owner = ? WHERE id = ?').run(`${hostname()}:${dead}:gone`, simulationId)
    db.close()
    const next = await createEngine({ dataDir: temp.dir, clock: { mode: 'real' }, receiver: { host: '127.0.0.1', port: 0 } })
    try {
      await settled(next, deliveryId)
      expect(server.requests.filter((r) => r.body.toString().includes('left-behind'))).toHaveLength(1)
      expect(next.db.prepare('SELECT owner FROM simulations WHERE id = ?').pluck().get(simulationId)).toBeNull()
    } finally {
      await next.close()
      await server.close()
    }
  })
})
