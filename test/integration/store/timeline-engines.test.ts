// The timeline and the inspector read the same from a data folder and from a team's PostgreSQL:
// a real engine fills a data folder (test/support/team-store-seed.ts: a loop delivery retried
// through a fault rule, a duplicate arrival, a refused request, a forward leg, keyless bodies, a
// simulation's deliveries), `copyStore` copies it into a real PostgreSQL, and every filter the app
// and `hookloop mcp` use is read through the host's views from both, with every row's detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TimelineFilter } from '../../../shared/contract'
import { createDetailViews, createTimelineViews, type DetailViews, type TimelineViews } from '../../../electron/engine/host'
import type { OpenedStore, SqlEngine } from '../../../electron/engine/store'
import { receivedGroupSql } from '../../../electron/engine/store/counts'
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

describe("the timeline's group reads on PostgreSQL", () => {
  /** The real engine, with every read it is asked kept (statement and parameters). */
  function recording(engine: SqlEngine): { engine: SqlEngine; reads: Array<{ sql: string; params: unknown[] }> } {
    const reads: Array<{ sql: string; params: unknown[] }> = []
    return {
      reads,
      engine: {
        ...engine,
        all: (sql, params = []) => (reads.push({ sql, params: [...params] }), engine.all(sql, params)),
        get: (sql, params = []) => (reads.push({ sql, params: [...params] }), engine.get(sql, params)),
      },
    }
  }

  // IS NOT DISTINCT FROM (SQLite's `IS` carried over) is no index condition on PostgreSQL: a
  // group's probe spelt with it filtered every request. Spelt as IS NULL or =, each is an index
  // probe; the rows read are the data folder's (above, and the group counts here).
  it('find a group by its endpoint and key through an index, for an endpoint and for none', async () => {
    const { engine, reads } = recording(seed.team.engine)
    const timeline = createTimelineViews(engine)
    const ordersId = (await views.sqlite.details.endpointViews()).find((e) => e.slug === 'orders')?.id ?? 'orders'
    for (const filter of [{}, { endpointId: ordersId }, { status: ['received'] }] as TimelineFilter[]) await timeline.page(filter, 0, 100)
    const keyed = await seed.team.engine.all<{ endpoint_id: string | null; dedupe_key: string }>('SELECT DISTINCT endpoint_id, dedupe_key FROM requests WHERE dedupe_key IS NOT NULL ORDER BY 1, 2')
    expect(keyed.some((g) => g.endpoint_id !== null)).toBe(true)
    // A group at no endpoint, as a request at a path no endpoint has leaves it.
    for (const group of [...keyed, { endpoint_id: null, dedupe_key: 'evt_nowhere' }]) {
      const { sql, params } = receivedGroupSql(group.endpoint_id, group.dedupe_key)
      reads.push({ sql, params })
      const counted = (kind: 'sqlite' | 'postgres') => (kind === 'sqlite' ? seed.folder : seed.team).engine.get<{ arrivals: number; duplicates: number }>(sql, params)
      const [folder, team] = await Promise.all([counted('sqlite'), counted('postgres')])
      expect({ arrivals: Number(team?.arrivals), duplicates: Number(team?.duplicates) }).toEqual({ arrivals: Number(folder?.arrivals), duplicates: Number(folder?.duplicates) })
    }
    const groupReads = reads.filter((r) => /\bdedupe_key = /.test(r.sql))
    expect(groupReads.length).toBeGreaterThan(3)
    const plans = await seed.team.engine.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off')
      const out: string[] = []
      for (const { sql, params } of groupReads) out.push((await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((l) => l['QUERY PLAN']).join('\n'))
      return out
    })
    for (const plan of plans) {
      expect(plan).not.toMatch(/IS NOT DISTINCT FROM/)
      expect(plan).toMatch(/Index Cond: \(.*endpoint_id (IS NULL|=)/)
      expect(plan).not.toMatch(/Seq Scan on requests/)
    }
  })
})
