// The lists `hookloop requests` and `hookloop deliveries` read (store/list-reads.ts), on a real
// SQLite file of 100k requests and 100k deliveries, through the plans SQLite picks: each common
// filter walks or searches an index in the order asked, never the whole table, and sorts only
// what an index range narrowed. The rows are checked too: newest first, each filter narrowing.
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteEngine, openDatabase } from '../../../electron/engine/store'
import { createListReads, deliveryListSql, readsEachSubscription, requestListSql, type DeliveryListFilter, type RequestListFilter } from '../../../electron/engine/store/list-reads'
import { makeTempDir } from '../../support/temp-dir'

const ROWS = 100_000
const BASE = Date.UTC(2026, 0, 1)

let temp: ReturnType<typeof makeTempDir>
let db: Database

function seed(): void {
  db.prepare(`INSERT INTO endpoints (id, slug, name, secrets_json, dedupe_json, created_at) VALUES ('ep-a', 'a', 'A', '[]', NULL, 0), ('ep-b', 'b', 'B', '[]', NULL, 0)`).run()
  db.prepare(`INSERT INTO subscriptions (id, name, url, endpoint_slug, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('sub-a', 'to a', '', 'a', 'standard-webhooks', '[]', '{}', 0, 0), ('sub-x', 'outside', 'http://127.0.0.1:9/', NULL, 'standard-webhooks', '[]', '{}', 0, 0)`).run()
  const request = db.prepare(
    `INSERT INTO requests (endpoint_id, received_at, stored_at, method, path, headers_json, body_size, dedupe_key, duplicate_number, verify_valid, refused_reason) VALUES (?, ?, ?, 'POST', '/h/x', '[]', 2, ?, ?, ?, ?)`,
  )
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 'order.paid', '{}', ?)`)
  const delivery = db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, attempts, created_at, created_wall_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?)`)
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const at = BASE + i * 1000
      request.run(i % 2 ? 'ep-a' : 'ep-b', at, at, `evt_${i}`, i % 10 === 0 ? 2 : 1, i % 7 === 0 ? 0 : 1, i % 1000 === 0 ? 'body_too_large' : null)
      event.run(`evt_d${i}`, at)
      delivery.run(`evt_d${i}`, i % 2 ? 'sub-a' : 'sub-x', ['succeeded', 'failed', 'retrying'][i % 3], at, at, at)
    }
  })()
}

beforeAll(() => {
  temp = makeTempDir('hookloop-list-plans-')
  db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
  seed()
})
afterAll(() => {
  db.close()
  temp.cleanup()
})

/** Plan lines that read a whole table, or sort rows no index range narrowed. */
function fullScans(sql: string, params: unknown[]): string[] {
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, 50) as Array<{ detail: string }>).map((r) => r.detail)
  // Narrowed by an index range, or by the ids an IN list of index ranges gave (an event id prefix:
  // prefix-search.ts; a request's key read endpoint by endpoint, from request_counts' few rows, `c`).
  const byIds = plan.some((line) => /^SEARCH [rd] USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(line)) && plan.some((line) => line.startsWith('LIST SUBQUERY')) && !plan.some((line) => line.startsWith('SCAN ') && line !== 'SCAN c')
  const narrowed = byIds || plan.some((line) => /^SEARCH [rd] USING (COVERING )?INDEX \w+ \(.*[<>=]/.test(line))
  return plan.filter((line) => /^SCAN ([rd]|requests|deliveries)$/.test(line) || (line.startsWith('USE TEMP B-TREE') && !narrowed))
}

const requestFilters: Array<[string, Omit<RequestListFilter, 'limit'>]> = [
  ['none', {}],
  ['endpoint', { endpointId: 'ep-a' }],
  ['event id prefix', { eventIdPrefix: 'EVT_9999' }],
  ['since', { sinceWall: BASE + (ROWS - 100) * 1000 }],
  ['status', { statuses: ['invalid'] }],
  ['endpoint and since', { endpointId: 'ep-b', sinceWall: BASE + (ROWS - 100) * 1000 }],
]
const deliveryFilters: Array<[string, Omit<DeliveryListFilter, 'limit'>]> = [
  ['none', {}],
  ['status', { statuses: ['failed'] }],
  ['subscription', { subscriptionId: 'sub-x' }],
  ['endpoint', { endpointId: 'ep-a' }],
  ['event id prefix', { eventIdPrefix: 'Evt_D9999' }],
  ['since', { sinceWall: BASE + (ROWS - 100) * 1000 }],
]

describe('list reads on 100k rows', () => {
  it.each(requestFilters)('requests by %s read an index', (_name, filter) => {
    const { sql, params } = requestListSql(filter)
    expect(fullScans(sql, params)).toEqual([])
  })
  it.each(deliveryFilters)('deliveries by %s read an index', (_name, filter) => {
    // A list of every subscription's deliveries is read one subscription at a time (wall-age-reads.ts): that statement is checked.
    const { sql, params } = deliveryListSql(readsEachSubscription(filter) ? { ...filter, subscriptionId: 'sub-a' } : filter)
    expect(fullScans(sql, params)).toEqual([])
  })

  it("searches deliveries by either id, each a range on its own index: Hookloop's (lower-case, with capitals) and the consumer's", () => {
    const { sql, params } = deliveryListSql({ eventIdPrefix: 'Evt_D9999' })
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params, 50) as Array<{ detail: string }>).map((r) => r.detail).join('\n')
    expect(plan).toMatch(/deliveries_by_event \(event_id>\? AND event_id<\?\)/)
    expect(plan).toMatch(/deliveries_by_event_with_capitals \(event_id>\? AND event_id<\?\)/)
    expect(plan).toMatch(/deliveries_by_consumer_id_nocase \(consumer_event_id>\? AND consumer_event_id<\?\)/)
  })

  it('returns the newest rows first, each filter narrowing', async () => {
    const reads = createListReads(createSqliteEngine(db, { closeDatabase: false }))
    const newest = await reads.requests({ limit: 3 })
    expect(newest.map((r) => r.id)).toEqual([ROWS, ROWS - 1, ROWS - 2])
    expect((await reads.requests({ limit: 5, endpointId: 'ep-a' })).every((r) => r.endpointSlug === 'a')).toBe(true)
    // Prefix in any ASCII case: evt_9999 and evt_99990 … evt_99999.
    expect((await reads.requests({ limit: 50, eventIdPrefix: 'EVT_9999' })).map((r) => r.eventId).sort()).toEqual(['evt_9999', ...Array.from({ length: 10 }, (_, i) => `evt_9999${i}`)].sort())
    expect(await reads.requests({ limit: 500, sinceWall: BASE + (ROWS - 100) * 1000 })).toHaveLength(100)
    const invalid = await reads.requests({ limit: 20, statuses: ['invalid'] })
    expect(invalid).toHaveLength(20)
    expect(invalid.every((r) => r.verdict === 'invalid')).toBe(true)
    const refusedOrDuplicate = await reads.requests({ limit: 100, statuses: ['refused', 'duplicate'] })
    expect(refusedOrDuplicate.every((r) => r.refusedReason !== null || (r.duplicateNumber ?? 1) > 1)).toBe(true)

    expect((await reads.deliveries({ limit: 2 })).map((d) => d.eventId)).toEqual([`evt_d${ROWS - 1}`, `evt_d${ROWS - 2}`])
    expect((await reads.deliveries({ limit: 30, statuses: ['failed'] })).every((d) => d.status === 'failed')).toBe(true)
    const toA = await reads.deliveries({ limit: 30, endpointId: 'ep-a' })
    expect(toA).toHaveLength(30)
    expect(toA.every((d) => d.subscriptionId === 'sub-a' && d.endpointId === 'ep-a')).toBe(true)
    expect((await reads.deliveries({ limit: 30, subscriptionId: 'sub-x' })).every((d) => d.subscriptionName === 'outside' && d.endpointId === null)).toBe(true)
    expect(await reads.deliveries({ limit: 50, eventIdPrefix: 'Evt_D9999' })).toHaveLength(11)
    expect(await reads.deliveries({ limit: 500, sinceWall: BASE + (ROWS - 100) * 1000 })).toHaveLength(100)
    await expect(reads.deliveries({ limit: 0 })).rejects.toThrow(/limit must be a whole number/)
  })
})
