// The timeline and the inspector read the same from a data folder and from a team's PostgreSQL:
// a real engine fills a data folder (test/support/team-store-seed.ts: a loop delivery retried
// through a fault rule, a duplicate arrival, a refused request, a forward leg, keyless bodies, a
// simulation's deliveries), `copyStore` copies it into a real PostgreSQL, and every filter the app
// and `hookloop mcp` use is read through the host's views from both, with every row's detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TimelineFilter } from '../../../shared/contract'
import { createDetailViews, createTimelineViews, type DetailViews, type TimelineViews } from '../../../electron/engine/host'
import type { OpenedStore } from '../../../electron/engine/store'
import { seedTeamStore, type TeamStoreSeed } from '../../support/team-store-seed'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

const postgres = usePostgres()
const temp = makeTempDir('hookloop-team-views-')
let seed: TeamStoreSeed
let simulationId: string | null = null
let views: Record<'sqlite' | 'postgres', { timeline: TimelineViews; details: DetailViews }>

const viewsOver = (store: OpenedStore) => ({
  timeline: createTimelineViews(store.engine),
  details: createDetailViews(store.engine, store.secrets, {
    explainRule: (rule) => JSON.stringify(rule),
    explainFault: (fault) => JSON.stringify(fault),
    endpointUrls: (slug) => ({ localUrl: `http://127.0.0.1:7780/h/${slug}`, publicUrl: null }),
  }),
})

beforeAll(async () => {
  seed = await seedTeamStore(temp.dir, () => postgres.freshDatabase())
  simulationId = seed.simulationId
  views = { sqlite: viewsOver(seed.folder), postgres: viewsOver(seed.team) }
}, 120_000)

afterAll(async () => {
  await seed?.close()
  temp.cleanup()
})

const filters = (ordersId: string): Array<[string, TimelineFilter]> => [
  ['every row', {}],
  ['an endpoint', { endpointId: ordersId }],
  ['a delivery status', { status: ['succeeded'] }],
  ['received rows', { status: ['received'] }],
  ['an event id search', { search: 'EVT_TEAM' }],
  ["a keyless body's text, ASCII case folded", { search: 'CAFé ø' }],
  ['an event type read from bodies', { eventType: 'charge.failed' }],
  ['an event type read from a header before the body', { eventType: 'push' }],
  ['the wall clock', { clock: 'wall' }],
  ['a simulation', { clock: simulationId ?? 'none' }],
]

describe('the host views on both store engines', () => {
  it('read every filter the same, page by page, and each row in detail', async () => {
    const ordersId = (await views.sqlite.details.endpointViews()).find((e) => e.slug === 'orders')?.id ?? 'orders'
    for (const [name, filter] of filters(ordersId)) {
      const all = await views.sqlite.timeline.page(filter, 0, 100)
      expect(all.rows.length, name).toBeGreaterThan(0)
      const team = await views.postgres.timeline.page(filter, 0, 100)
      expect(team.rows, name).toEqual(all.rows)
      expect(team.total, name).toBe(all.total)
      // Paging: the second row alone, from either engine.
      expect((await views.postgres.timeline.page(filter, 1, 1)).rows, `${name}, page 2`).toEqual((await views.sqlite.timeline.page(filter, 1, 1)).rows)
    }
    const { rows } = await views.sqlite.timeline.page({}, 0, 100)
    expect(rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['delivery', 'received']))
    expect(rows.find((r) => r.kind === 'delivery')?.marks.length).toBe(3) // two faults, then the answer
    expect(rows.find((r) => r.eventId === 'evt_team_charge')?.duplicates).toBe(1)
    expect(rows.some((r) => r.eventType === 'ping')).toBe(true)
    expect(rows.some((r) => r.eventType === 'push')).toBe(true)
    expect(rows.some((r) => r.eventType === 'not-this')).toBe(false)
    expect(rows.find((r) => r.eventType === 'forwarded')?.marks[0]?.app).toBeDefined()
    const smallId = (await views.sqlite.details.endpointViews()).find((e) => e.slug === 'small')?.id
    expect(rows.find((r) => r.endpointId === smallId)?.lastStatusCode).toBe(413)
    for (const row of rows) {
      if (row.deliveryId !== null) expect(await views.postgres.details.deliveryDetail(row.deliveryId)).toEqual(await views.sqlite.details.deliveryDetail(row.deliveryId))
      for (const mark of row.kind === 'received' ? row.marks : []) {
        expect(await views.postgres.details.requestDetail(mark.id)).toEqual(await views.sqlite.details.requestDetail(mark.id))
        expect(await views.postgres.timeline.rowOfRequest(mark.id)).toEqual(await views.sqlite.timeline.rowOfRequest(mark.id))
      }
    }
    expect(await views.postgres.details.endpointViews()).toEqual(await views.sqlite.details.endpointViews())
  })
})

describe('the received rows counted on a copied team store', () => {
  // The counters are kept by triggers; the store copy makes them again from the copied requests
  // (store-copy.ts), since PostgreSQL fires a statement's row triggers after the whole batch.
  it('the total of received rows is the data folder’s', async () => {
    expect((await views.postgres.timeline.page({}, 0, 1)).total).toBe((await views.sqlite.timeline.page({}, 0, 1)).total)
  })
})
