// Every number the contract gives the UI equals a count made straight in the SQLite file: the
// subscription cards (deliveries by status, attempts, successes, failures, duplicate arrivals), the
// 24 h badge, the timeline's totals under filters, each row's attempts and dup badge, and the top
// bar's captured requests. The store is made by the engine itself through the host's commands and
// real HTTP on loopback (test/support/known-mix.ts).
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { SubscriptionView, TimelineFilter } from '../../../shared/contract'
import { DELIVERY_STATUSES } from '../../../shared/sender'
import { directMetrics, directRow, directRowTotal, seedKnownMix, shownMetrics, startConsumer } from '../../support/known-mix'
import { settled, useHostSessions, type HostSession } from './support/session'

const openSession = useHostSessions()

/** The snapshot's cards once the engine has counted what the store holds (the figures are published within a second). */
async function cardsMatching(call: HostSession['call'], expected: (view: SubscriptionView) => unknown): Promise<SubscriptionView[]> {
  let views: SubscriptionView[] = []
  for (let i = 0; i < 200; i++) {
    views = (await call('snapshot', {})).subscriptions
    if (views.every((v) => !v.metrics.counting && JSON.stringify(shownMetrics(v)) === JSON.stringify(expected(v)))) return views
    await new Promise((r) => setTimeout(r, 50))
  }
  return views
}

/** Once the engine has written all it holds, reads its store file on a connection of its own, closed after `read`. */
async function readStore(session: HostSession, read: (db: Database.Database) => Promise<void>): Promise<void> {
  await session.host.engine.quiesce()
  const db = new Database(session.host.engine.db.name, { readonly: true, fileMustExist: true })
  try {
    await read(db)
  } finally {
    db.close()
  }
}

describe('the numbers on screen, against the store', () => {
  it('a known mix: every card, badge, total, row and the store size equal a direct count', async () => {
    const session = await openSession()
    const { host, call } = session
    const consumer = await startConsumer()
    try {
      const mix = await seedKnownMix(call, { receiverUrl: host.engine.receiver.url, consumerUrl: consumer.url })
      await readStore(session, async (db) => {
        const direct = (id: string) => directMetrics(db, id, Date.now())
        const cards = await cardsMatching(call, (v) => direct(v.id))
        expect(cards).toHaveLength(Object.keys(mix.subs).length)
        for (const card of cards) expect({ id: card.id, ...shownMetrics(card) }).toEqual({ id: card.id, ...direct(card.id) })

        // The mix is what it says: every status, duplicates flagged, the figures not all zero.
        const byId = new Map(cards.map((c) => [c.id, c.metrics]))
        for (const status of DELIVERY_STATUSES) expect(cards.some((c) => c.metrics.byStatus[status] > 0), status).toBe(true)
        expect(byId.get(mix.subs.billing)).toMatchObject({ deliveries: 1, attempts: 10, successes: 0, failures: 10, duplicates: 9, failureRate24h: 1 })
        expect(byId.get(mix.subs.orders)?.duplicates).toBeGreaterThanOrEqual(6)
        expect(byId.get(mix.subs.retrying)).toMatchObject({ byStatus: { retrying: 1 }, duplicates: null })
        expect(byId.get(mix.subs.paused)).toMatchObject({ byStatus: { pending: 1 }, attempts: 0 })

        // The timeline: its total, each row's counts, and the totals under each filter.
        const page = async (filter: TimelineFilter = {}) => call('timeline.page', { offset: 0, limit: 2000, filter })
        const all = await page()
        expect(all.total).toBe(directRowTotal(db))
        expect(all.rows).toHaveLength(all.total)
        for (const row of all.rows) expect({ key: row.key, attempts: row.attempts, duplicates: row.duplicates }).toEqual({ key: row.key, ...directRow(db, row) })
        const count = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number
        for (const status of DELIVERY_STATUSES) expect((await page({ status: [status] })).total, status).toBe(count('SELECT COUNT(*) FROM deliveries WHERE status = ?', status))
        expect((await page({ status: ['received'] })).total).toBe(directRowTotal(db) - count('SELECT COUNT(*) FROM deliveries'))
        for (const card of cards) {
          const rows = await page({ subscriptionId: card.id })
          expect(rows.total).toBe(card.metrics.deliveries)
          // The card's duplicate arrivals are its rows' dup badges added up.
          if (card.metrics.duplicates !== null) expect(rows.rows.reduce((sum, r) => sum + r.duplicates, 0)).toBe(card.metrics.duplicates)
        }
        // Real captures: a duplicate at one endpoint; one event id at two endpoints is no duplicate.
        const received = all.rows.filter((r) => r.kind === 'received')
        expect(received.filter((r) => r.eventId === 'evt_twice').map((r) => [r.attempts, r.duplicates])).toEqual([[2, 1]])
        expect(received.filter((r) => r.eventId === 'evt_shared').map((r) => [r.endpointId, r.duplicates]).sort()).toEqual(
          [[mix.endpoints.billing, 0], [mix.endpoints.orders, 0]].sort(),
        )

        // The top bar: the captured requests of the data folder.
        expect((await call('history.size', {})).requests).toBe(count('SELECT COUNT(*) FROM requests'))
      })
    } finally {
      await consumer.close()
    }
  })

  it('a delivery made more than 24 h ago on a virtual clock still counts, and its failure turns the badge red', async () => {
    // The card said 0 deliveries and a green 0 % beside 10 failed attempts: the window was the
    // engine's clock, a day ahead after a long simulation.
    const session = await openSession()
    const { host, call } = session
    const consumer = await startConsumer()
    try {
      await call('clock.set', { mode: 'virtual' })
      const billing = await call('endpoint.create', { name: 'billing', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } })
      await call('rule.addPreset', { endpointId: billing.id, preset: 'always-500' })
      const failing = await call('subscription.create', { name: 'billing feed', target: { endpointId: billing.id }, scheme: 'standard-webhooks', policyId: 'pandoktorek' })
      const late = await call('subscription.create', { name: 'late', target: { url: `${consumer.url}/fail` }, scheme: 'standard-webhooks', policyId: 'pandoktorek' })
      const send = async (subscriptionId: string) => (await call('event.send', { subscriptionId, eventType: 'invoice.failed', payload: '{}', count: 1, faults: [] })).deliveryIds
      await settled(host, await send(failing.id))
      await settled(host, await send(late.id))
      expect(host.engine.clock.now() - Date.now()).toBeGreaterThan(24 * 3600_000 - 3 * 3600_000)
      await readStore(session, async (db) => {
        const card = (await cardsMatching(call, (v) => directMetrics(db, v.id, Date.now()))).find((v) => v.id === failing.id)
        expect(card?.metrics).toMatchObject({ deliveries: 1, attempts: 10, successes: 0, failures: 10, deliveries24h: 1, failed24h: 1, failureRate24h: 1 })
      })
    } finally {
      await consumer.close()
    }
  })

  it('duplicates: the card and the row count the same arrivals, across dedupe windows', async () => {
    // The card said 9 duplicates (every resend that reached the endpoint) where the row said dup ×3
    // (the highest number the receiver gave, which starts again with each window).
    const session = await openSession()
    const { host, call } = session
    await call('clock.set', { mode: 'virtual' })
    const endpoint = await host.engine.receiver.endpoints.create({ slug: 'short', dedupe: { type: 'header', name: 'webhook-id' }, dedupe_window_ms: 10 * 60_000 })
    await call('rule.addPreset', { endpointId: endpoint.id, preset: 'always-500' })
    const sub = await call('subscription.create', { name: 'short feed', target: { endpointId: endpoint.id }, scheme: 'standard-webhooks', policyId: 'pandoktorek' })
    const [id] = (await call('event.send', { subscriptionId: sub.id, eventType: 'invoice.failed', payload: '{}', count: 1, faults: [] })).deliveryIds
    await settled(host, [id!])
    await readStore(session, async (db) => {
      // Arrivals at 0, 2, 6, 14, 30 … min: the window of 10 min holds the first three, so two are duplicates.
      expect(db.prepare('SELECT duplicate_number FROM requests ORDER BY id').pluck().all()).toEqual([1, 2, 3, 1, 1, 1, 1, 1, 1, 1])
      const card = (await cardsMatching(call, (v) => directMetrics(db, v.id, Date.now()))).find((v) => v.id === sub.id)
      const [row] = (await call('timeline.page', { offset: 0, limit: 10, filter: { subscriptionId: sub.id } })).rows
      expect([card?.metrics.duplicates, row?.duplicates]).toEqual([2, 2])
    })
  })

  it('a received row counts every arrival of its key, past the marks it draws', async () => {
    // A provider retrying one event 205 times: the row said 200 requests (the marks it reads).
    const session = await openSession()
    const { host, call } = session
    const inbox = await call('endpoint.create', { name: 'inbox', scheme: null, secrets: [], dedupe: { type: 'header', name: 'webhook-id' } })
    const arrivals = 205
    for (let i = 0; i < arrivals; i++) {
      const response = await fetch(`${host.engine.receiver.url}/h/inbox`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_storm' } })
      await response.arrayBuffer()
    }
    await readStore(session, async (db) => {
      const { rows, total } = await call('timeline.page', { offset: 0, limit: 10, filter: { endpointId: inbox.id } })
      expect(total).toBe(1)
      expect({ attempts: rows[0]?.attempts, duplicates: rows[0]?.duplicates }).toEqual(directRow(db, rows[0]!))
      expect(rows[0]).toMatchObject({ attempts: arrivals, duplicates: arrivals - 1 })
    })
  })
})
