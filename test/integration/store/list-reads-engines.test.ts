// The lists `hookloop requests` and `hookloop deliveries` read (store/list-reads.ts) give the same
// rows from a data folder and from a team's PostgreSQL: a real SQLite file is filled, copied into
// a real PostgreSQL (store copy), and every filter is read from both. Ids chosen to trip a server
// whose locale sorts text by language ('ab-c' beside 'abc', capitals, a non-ASCII letter) show
// that prefixes match byte by byte, ASCII case folded, as on SQLite; and PostgreSQL can answer
// the prefix searches from their indexes.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyStore, createListReads, openStore, parseStoreLocation, type DeliveryListFilter, type ListReads, type OpenedStore, type RequestListFilter } from '../../../electron/engine/store'
import { deliveryListSql, requestListSql } from '../../../electron/engine/store/list-reads'
import { postgresText } from '../../../electron/engine/store/postgres-dialect'
import { usePostgres } from '../../support/use-postgres'
import { makeTempDir } from '../../support/temp-dir'

const postgres = usePostgres()
const quiet = { notice: () => undefined }
const ROWS = 3000
const BASE = Date.UTC(2026, 0, 1)
const ODD_IDS = ['ab-c', 'abc', 'ABD', 'Ab_x', 'évt_1', 'Évt_2', 'evt_Mixed', 'EVT_upper']

let temp: ReturnType<typeof makeTempDir>
let folder: OpenedStore
let team: OpenedStore
let reads: Record<'sqlite' | 'postgres', ListReads>

async function seed(store: OpenedStore): Promise<void> {
  const e = store.engine
  await e.run(`INSERT INTO endpoints (id, slug, name, secrets_json, dedupe_json, created_at) VALUES ('ep-a', 'a', 'A', '[]', NULL, 0), ('ep-b', 'b', 'B', '[]', NULL, 0)`)
  await e.run(
    `INSERT INTO subscriptions (id, name, url, endpoint_slug, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('sub-a', 'to a', '', 'a', 'standard-webhooks', '[]', '{}', 0, 0), ('sub-x', 'outside', 'http://127.0.0.1:9/', NULL, 'standard-webhooks', '[]', '{}', 0, 0)`,
  )
  await e.run(`INSERT INTO simulations (id, label, mode, started_at, started_wall_at) VALUES ('sim-1', 'run', 'virtual', ?, ?)`, [Date.UTC(2025, 5, 1), BASE])
  await e.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const at = BASE + i * 1000
      const key = i < ODD_IDS.length ? ODD_IDS[i] : i % 11 === 0 ? null : `evt_${i}`
      await tx.run(
        `INSERT INTO requests (endpoint_id, received_at, stored_at, method, path, headers_json, body_size, dedupe_key, duplicate_number, verify_valid, refused_reason) VALUES (?, ?, ?, 'POST', '/h/x', '[]', 2, ?, ?, ?, ?)`,
        [i % 2 ? 'ep-a' : 'ep-b', at, at, key, i % 10 === 0 ? 2 : 1, i % 7 === 0 ? 0 : i % 5 === 0 ? null : 1, i % 500 === 0 ? 'body_too_large' : null],
      )
      const eventId = i < ODD_IDS.length ? `${ODD_IDS[i]}-event` : `evt_d${i}`
      await tx.run(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 'order.paid', ?, ?)`, [eventId, Buffer.from('{}'), at])
      await tx.run(
        `INSERT INTO deliveries (event_id, subscription_id, status, attempts, created_at, created_wall_at, updated_at, simulation_id, consumer_event_id) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)`,
        [eventId, i % 2 ? 'sub-a' : 'sub-x', ['succeeded', 'failed', 'retrying'][i % 3], at, at, at, i % 4 === 0 ? 'sim-1' : null, i % 3 === 0 ? `Evt_C${i}` : null],
      )
    }
  })
}

beforeAll(async () => {
  temp = makeTempDir('hookloop-list-engines-')
  folder = await openStore(parseStoreLocation(join(temp.dir, 'folder')), quiet)
  await seed(folder)
  team = await openStore(parseStoreLocation(await postgres.freshDatabase()), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
  await copyStore(folder, team)
  await team.engine.exec('ANALYZE')
  reads = { sqlite: createListReads(folder.engine), postgres: createListReads(team.engine) }
}, 120_000)
afterAll(async () => {
  await folder?.engine.close()
  await team?.engine.close()
  temp?.cleanup()
})

const requestFilters: Array<[string, RequestListFilter]> = [
  ['nothing', { limit: 50 }],
  ['an endpoint', { limit: 40, endpointId: 'ep-a' }],
  ['an event id prefix in another case', { limit: 50, eventIdPrefix: 'EVT_29' }],
  ["a prefix a locale's order would widen", { limit: 50, eventIdPrefix: 'ab' }],
  ['a prefix with a capital', { limit: 50, eventIdPrefix: 'AB-' }],
  ['a non-ASCII prefix (its case not folded)', { limit: 50, eventIdPrefix: 'é' }],
  ['a wall start', { limit: 500, sinceWall: BASE + (ROWS - 120) * 1000 }],
  ['statuses', { limit: 60, statuses: ['invalid', 'refused'] }],
  ['no verdict', { limit: 60, statuses: ['none'] }],
  ['duplicates at an endpoint since', { limit: 100, statuses: ['duplicate'], endpointId: 'ep-b', sinceWall: BASE + (ROWS - 400) * 1000 }],
]
const deliveryFilters: Array<[string, DeliveryListFilter]> = [
  ['nothing', { limit: 50 }],
  ['a status', { limit: 50, statuses: ['failed'] }],
  ['a subscription', { limit: 50, subscriptionId: 'sub-x' }],
  ['an endpoint', { limit: 50, endpointId: 'ep-a' }],
  ["Hookloop's id prefix", { limit: 50, eventIdPrefix: 'EVT_D29' }],
  ["the consumer's id prefix", { limit: 50, eventIdPrefix: 'evt_c12' }],
  ["a prefix a locale's order would widen", { limit: 50, eventIdPrefix: 'ab' }],
  ['a wall start', { limit: 500, sinceWall: BASE + (ROWS - 90) * 1000 }],
]

describe('list reads on both engines', () => {
  it.each(requestFilters)('requests by %s are the same rows on PostgreSQL', async (_name, filter) => {
    const rows = await reads.sqlite.requests(filter)
    expect(rows.length).toBeGreaterThan(0)
    expect(await reads.postgres.requests(filter)).toEqual(rows)
  })

  it.each(deliveryFilters)('deliveries by %s are the same rows on PostgreSQL', async (_name, filter) => {
    const rows = await reads.sqlite.deliveries(filter)
    expect(rows.length).toBeGreaterThan(0)
    expect(await reads.postgres.deliveries(filter)).toEqual(rows)
  })

  it('matches prefixes byte by byte with ASCII case folded, whatever the server locale', async () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      expect((await reads[engine].requests({ limit: 50, eventIdPrefix: 'ab' })).map((r) => r.eventId).sort()).toEqual(['ABD', 'Ab_x', 'ab-c', 'abc'])
      expect((await reads[engine].requests({ limit: 50, eventIdPrefix: 'abc' })).map((r) => r.eventId)).toEqual(['abc'])
      expect((await reads[engine].requests({ limit: 50, eventIdPrefix: 'É' })).map((r) => r.eventId)).toEqual(['Évt_2'])
    }
  })

  it('names endpoints and subscriptions, and every id, the same way', async () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      expect(await reads[engine].endpointOf('a')).toEqual({ id: 'ep-a', slug: 'a' })
      expect(await reads[engine].endpointOf('ep-b')).toEqual({ id: 'ep-b', slug: 'b' })
      expect(await reads[engine].subscriptionOf('outside')).toEqual({ id: 'sub-x', name: 'outside' })
      expect(await reads[engine].subscriptionOf('nobody')).toBeUndefined()
    }
    expect(await reads.postgres.allRequestIds()).toEqual(await reads.sqlite.allRequestIds())
    expect(await reads.postgres.allDeliveryIds()).toEqual(await reads.sqlite.allDeliveryIds())
  })

  it('lets PostgreSQL answer every prefix search from an index', async () => {
    const plans: string[] = []
    await team.engine.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off')
      for (const { sql, params } of [requestListSql({ eventIdPrefix: 'EVT_29' }, 'postgres'), deliveryListSql({ eventIdPrefix: 'EVT_D29' })]) {
        const lines = await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params, 50])
        plans.push(lines.map((l) => l['QUERY PLAN']).join('\n'))
      }
    })
    expect(postgresText(requestListSql({ eventIdPrefix: 'x' }, 'postgres').sql)).toContain('lower(r.dedupe_key) >= lower(CAST($1 AS TEXT) COLLATE "C")')
    expect(plans[0]).toMatch(/requests_by_key_nocase/)
    expect(plans[1]).toMatch(/deliveries_by_event\b/)
    expect(plans[1]).toMatch(/deliveries_by_event_with_capitals/)
    expect(plans[1]).toMatch(/deliveries_by_consumer_id_nocase/)
    expect(plans.join('\n')).not.toMatch(/Seq Scan on (requests|deliveries)/)
  })
})
