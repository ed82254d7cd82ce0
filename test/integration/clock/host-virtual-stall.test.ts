// The app's path to a slow endpoint on the virtual clock, over the real control socket: the
// engine in the host process, an endpoint with the "slow" preset (11 s before answering), a csku
// subscription (5 s timeout, 4 attempts 30 s apart) and a dozen concurrent deliveries sent from a
// UI. Every delivery must end `failed` after 4 attempts that each timed out at exactly 5 000 ms;
// the virtual clock must never stop short of that. On a stall the failure lists every
// delivery, its attempts and what the clock was waiting on.
import { afterEach, describe, expect, it } from 'vitest'
import { isVirtualClock } from '../../../electron/engine/clock'
import type { Host } from '../../../electron/engine/host/run-host'
import { createTunnelServer, type TunnelServer } from '../../support/tunnel-server'
import type { ServerFrame, TimelineRow } from '../../../shared/contract'
import type { Call } from '../host/support/control-client'
import { useHostSessions } from '../host/support/session'

let tunnelServer: TunnelServer | null = null
afterEach(async () => {
  await tunnelServer?.stop()
  tunnelServer = null
})
// Registered after the tunnel server's hook, so it runs first: the host closes before its tunnel server.
const openSession = useHostSessions()

interface AttemptRow {
  delivery_id: number
  outcome: string | null
  duration_ms: number | null
  started_at: number
}

function report(h: Host, ids: readonly number[]): string {
  const db = h.engine.db
  const lines = ids.map((id) => {
    const d = db.prepare('SELECT status, attempts, in_flight, next_attempt_at FROM deliveries WHERE id = ?').get(id) as Record<string, unknown>
    const attempts = db.prepare('SELECT outcome, duration_ms FROM attempts WHERE delivery_id = ? ORDER BY id').all(id) as AttemptRow[]
    return `  delivery ${id}: ${JSON.stringify(d)} attempts ${JSON.stringify(attempts.map((a) => `${a.outcome}/${a.duration_ms}`))}`
  })
  const clock = h.engine.clock
  const state = isVirtualClock(clock) ? JSON.stringify(clock.inspect()) : clock.mode
  return `clock now ${clock.now()} ${state}\n${lines.join('\n')}`
}

async function allFinal(h: Host, ids: readonly number[], realSeconds = 20): Promise<void> {
  // Bounded: 4 attempts of 11 s answers against a 5 s timeout need no real waiting on a virtual clock.
  for (let i = 0; i < realSeconds * 20; i++) {
    if (ids.every((id) => h.engine.isDeliverySettled(id))) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`deliveries did not all become final within ${realSeconds} s real:\n${report(h, ids)}`)
}

function expectFailedByTimeouts(h: Host, ids: readonly number[]): void {
  const db = h.engine.db
  for (const id of ids) {
    const d = db.prepare('SELECT status, attempts FROM deliveries WHERE id = ?').get(id) as { status: string; attempts: number }
    expect(d, `delivery ${id}`).toEqual({ status: 'failed', attempts: 4 })
    const attempts = db.prepare('SELECT outcome, duration_ms, started_at FROM attempts WHERE delivery_id = ? ORDER BY id').all(id) as AttemptRow[]
    expect(attempts.map((a) => [a.outcome, a.duration_ms])).toEqual(Array.from({ length: 4 }, () => ['timeout', 5_000]))
    // Each retry 30 s after the timeout that ended the attempt before it: nothing jumped in between.
    const gaps = attempts.slice(1).map((a, i) => a.started_at - (attempts[i] as AttemptRow).started_at)
    expect(gaps, `delivery ${id} attempt start gaps`).toEqual([35_000, 35_000, 35_000])
  }
}

// What the UI shows: the latest timeline row per delivery, from the pushed timeline.upsert frames.
type UiRows = Map<number, TimelineRow>

/** The UI's view must end where the store is: every delivery failed after 4 attempts. */
async function uiShowsFailed(ui: UiRows, ids: readonly number[]): Promise<void> {
  const done = () => ids.every((id) => ui.get(id)?.status === 'failed' && ui.get(id)?.attempts === 4)
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25))
  const shown = ids.map((id) => `${id}:${ui.get(id)?.status ?? 'unseen'}/${ui.get(id)?.attempts ?? '-'}`)
  expect(done(), `the UI still shows ${shown.join(' ')}`).toBe(true)
}

async function setUp(virtualFirst: boolean, tunnel?: TunnelServer): Promise<{ h: Host; call: Call; subscriptionId: string; ui: UiRows }> {
  const { host: h, call, ws } = await openSession()
  const ui: UiRows = new Map()
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    if (frame.t !== 'events') return
    for (const message of frame.batch) {
      if (message.name !== 'timeline.upsert') continue
      for (const row of (message.payload as { rows: TimelineRow[] }).rows) if (row.deliveryId !== null) ui.set(row.deliveryId, row)
    }
  })
  if (virtualFirst) await call('clock.set', { mode: 'virtual' })
  if (tunnel) {
    // Loop mode then delivers through the tunnel's public URL, as the app does while it is up.
    await call('tunnel.start', { host: tunnel.url, subdomain: 'slow-shop' })
    for (let i = 0; i < 200 && (await call('snapshot', {})).tunnel.state !== 'online'; i++) await new Promise((r) => setTimeout(r, 50))
    expect((await call('snapshot', {})).tunnel.state).toBe('online')
  }
  const endpoint = await call('endpoint.create', { name: 'slow shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: { type: 'header', name: 'webhook-id' } })
  await call('rule.addPreset', { endpointId: endpoint.id, preset: 'slow' })
  const sub = await call('subscription.create', { name: 'csku feed', target: { endpointId: endpoint.id }, scheme: 'standard-webhooks', secret: SECRET, policyId: 'csku' })
  if (!virtualFirst) await call('clock.set', { mode: 'virtual' })
  return { h, call, subscriptionId: sub.id, ui }
}

const SECRET = `whsec_${Buffer.from('slow-endpoint-session-secret-32!').toString('base64')}`
const payload = JSON.stringify({ order: 1 })

describe('a slow endpoint under csku on the virtual clock, through the host', () => {
  for (let round = 0; round < Number(process.env.STALL_ROUNDS ?? 3); round++) {
    it(`12 events in one batch fail after 4 timeouts each (round ${round + 1})`, async () => {
      const { h, call, subscriptionId, ui } = await setUp(true)
      const sent = await call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 12, faults: [] })
      await allFinal(h, sent.deliveryIds)
      expectFailedByTimeouts(h, sent.deliveryIds)
      await uiShowsFailed(ui, sent.deliveryIds)
    })
  }

  it('12 events sent one by one in quick succession after switching to virtual', async () => {
    const { h, call, subscriptionId, ui } = await setUp(false)
    const sent = await Promise.all(Array.from({ length: 12 }, () => call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 1, faults: [] })))
    const ids = sent.flatMap((s) => s.deliveryIds)
    await allFinal(h, ids)
    expectFailedByTimeouts(h, ids)
    await uiShowsFailed(ui, ids)
  })

  it('more events sent while retries are pending', async () => {
    const { h, call, subscriptionId, ui } = await setUp(true)
    const first = await call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 6, faults: [] })
    for (let i = 0; i < 200 && (h.engine.db.prepare('SELECT count(*) FROM attempts').pluck().get() as number) < 6; i++) await new Promise((r) => setTimeout(r, 10))
    const more = await Promise.all(Array.from({ length: 6 }, () => call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 1, faults: [] })))
    const ids = [...first.deliveryIds, ...more.flatMap((s) => s.deliveryIds)]
    await allFinal(h, ids)
    expectFailedByTimeouts(h, ids)
    await uiShowsFailed(ui, ids)
  })
})

describe('a slow endpoint under csku across clock switches, through the host', () => {
  it('virtual → real → virtual while attempts are out, then more events: all fail after 4 exact timeouts', async () => {
    const { h, call, subscriptionId, ui } = await setUp(true)
    const first = await call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 12, faults: [] })
    for (let i = 0; i < 200 && (h.engine.db.prepare('SELECT count(*) FROM attempts').pluck().get() as number) < 12; i++) await new Promise((r) => setTimeout(r, 5))
    await call('clock.set', { mode: 'real' })
    await call('clock.set', { mode: 'virtual' })
    const more = await Promise.all(Array.from({ length: 6 }, () => call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 1, faults: [] })))
    const ids = [...first.deliveryIds, ...more.flatMap((s) => s.deliveryIds)]
    await allFinal(h, ids)
    expectFailedByTimeouts(h, ids)
    await uiShowsFailed(ui, ids)
  })

  it('real → virtual with attempts out, events sent while the engine is rebuilt: all fail after 4 timeouts', async () => {
    const { h, call, subscriptionId, ui } = await setUp(false)
    await call('clock.set', { mode: 'real' })
    const first = await call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 12, faults: [] })
    for (let i = 0; i < 200 && (h.engine.db.prepare('SELECT count(*) FROM attempts').pluck().get() as number) < 12; i++) await new Promise((r) => setTimeout(r, 5))
    // The switch waits for the real 5 s timeouts of the attempts out; sends meanwhile reach the old engine's store.
    const switching = call('clock.set', { mode: 'virtual' })
    const more = await Promise.all(Array.from({ length: 6 }, () => call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 1, faults: [] })))
    await switching
    const ids = [...first.deliveryIds, ...more.flatMap((s) => s.deliveryIds)]
    await allFinal(h, ids)
    const db = h.engine.db
    for (const id of ids) {
      expect(db.prepare('SELECT status, attempts FROM deliveries WHERE id = ?').get(id), `delivery ${id}`).toEqual({ status: 'failed', attempts: 4 })
      const outcomes = db.prepare('SELECT outcome FROM attempts WHERE delivery_id = ? ORDER BY id').pluck().all(id)
      expect(outcomes, `delivery ${id}`).toEqual(['timeout', 'timeout', 'timeout', 'timeout'])
    }
    await uiShowsFailed(ui, ids)
  }, 30_000)
})

describe('a slow endpoint under csku through a tunnel with fewer sockets than deliveries', () => {
  // 10 requests sleep in the receiver (parked) and hold every tunnel socket; the other 2 wait at
  // the tunnel server for a socket that frees only once the clock moves. Their holds must not keep
  // the clock still until their real-time limit (the policy timeout, 5 s real per round).
  it('12 events through a 10-socket tunnel fail after 4 exact timeouts, no hold running out its limit', async () => {
    tunnelServer = await createTunnelServer({ maxSockets: 10 })
    const { h, call, subscriptionId, ui } = await setUp(true, tunnelServer)
    const sent = await call('event.send', { subscriptionId, eventType: 'order.created', payload, count: 12, faults: [] })
    expect(h.engine.endpointUrl('slow-shop')).toContain('slow-shop.localhost')
    await allFinal(h, sent.deliveryIds, 60)
    expectFailedByTimeouts(h, sent.deliveryIds)
    await uiShowsFailed(ui, sent.deliveryIds)
    const clock = h.engine.clock
    if (!isVirtualClock(clock)) throw new Error('the engine should run on the virtual clock')
    expect(clock.inspect().expiredHolds, report(h, sent.deliveryIds)).toBe(0)
  }, 90_000)
})
