// Retention's reads of the sender's history by wall age (store/sender-history.ts), on a real SQLite
// file of 60k deliveries over three subscriptions: each subscription's oldest settled deliveries
// are a range walked on deliveries_by_subscription_wall, in order, stopping at the limit (never a
// pass over the table, never a sort), and the merged batch is the one a single statement over the
// whole table, ordered by wall age, picks.
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteEngine, openDatabase } from '../../../electron/engine/store'
import { createSenderHistoryStore, OLDEST_SETTLED_SQL, SETTLED_BY_AGE_SQL } from '../../../electron/engine/store/sender-history'
import { makeTempDir } from '../../support/temp-dir'

const ROWS = 60_000
const BASE = Date.UTC(2026, 0, 1)
const DAY = 86_400_000
const SUBSCRIPTIONS = ['sub-a', 'sub-b', 'sub-c']
const SETTLED = "status IN ('succeeded', 'failed') AND next_attempt_at IS NULL AND in_flight = 0"

let temp: ReturnType<typeof makeTempDir>
let db: Database

/** Wall time of the i-th delivery: mostly growing with the id, but every 97th made by a process whose clock was a minute behind. */
const wallAt = (i: number): number => BASE + i * 1000 - (i % 97 === 0 ? 60_000 : 0)

function seed(): void {
  const subscription = db.prepare(
    `INSERT INTO subscriptions (id, name, url, endpoint_slug, scheme, secrets_json, policy_json, created_at, updated_at) VALUES (?, ?, 'http://127.0.0.1:9/', NULL, 'standard-webhooks', '[]', '{}', 0, 0)`,
  )
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES (?, 'order.paid', '{}', ?, ?)`)
  const delivery = db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, attempts, next_attempt_at, created_at, created_wall_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?)`)
  db.transaction(() => {
    for (const id of SUBSCRIPTIONS) subscription.run(id, id)
    for (let i = 0; i < ROWS; i++) {
      const at = wallAt(i)
      const status = ['succeeded', 'failed', 'retrying', 'succeeded'][i % 4] as string
      event.run(`evt_${i}`, at, at)
      // Subscriptions take turns unevenly, so each stream holds a different share of the oldest.
      delivery.run(`evt_${i}`, SUBSCRIPTIONS[(i * 7) % 11 % 3], status, status === 'retrying' ? at + DAY : null, at, at, at + 10)
    }
  })()
}

beforeAll(() => {
  temp = makeTempDir('hookloop-sender-history-plans-')
  db = openDatabase({ file: join(temp.dir, 'hookloop.db') })
  seed()
})
afterAll(() => {
  db.close()
  temp.cleanup()
})

const planOf = (sql: string, params: unknown[]): string[] => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail)

describe("retention's reads by wall age on 60k deliveries", () => {
  it("walks a subscription's deliveries by wall age on its index, in order", () => {
    const byAge = planOf(SETTLED_BY_AGE_SQL, ['sub-a', BASE + DAY, BASE + DAY, Number.MAX_SAFE_INTEGER, 500])
    expect(byAge[0]).toMatch(/^SEARCH deliveries USING INDEX deliveries_by_subscription_wall \(subscription_id=\? AND created_wall_at<\?\)$/)
    expect(byAge.filter((line) => line.startsWith('SCAN ') || line.startsWith('USE TEMP B-TREE'))).toEqual([])
    const oldest = planOf(OLDEST_SETTLED_SQL, ['sub-a'])
    expect(oldest[0]).toMatch(/^SEARCH deliveries USING INDEX deliveries_by_subscription_wall \(subscription_id=\? AND created_wall_at>\?\)$/)
    expect(oldest.filter((line) => line.startsWith('SCAN ') || line.startsWith('USE TEMP B-TREE'))).toEqual([])
  })

  it('merges the subscriptions into the batch one statement over the table would pick', async () => {
    const history = createSenderHistoryStore(createSqliteEngine(db, { closeDatabase: false }))
    const before = wallAt(ROWS / 2)
    const whole = (limit: number, maxId: number): number[] =>
      db
        .prepare(`SELECT id FROM deliveries NOT INDEXED WHERE created_wall_at < ? AND ${SETTLED} AND updated_at < ? AND id <= ? ORDER BY created_wall_at, id LIMIT ?`)
        .pluck()
        .all(before, before, maxId, limit) as number[]
    for (const [rows, maxId] of [
      [1, Number.MAX_SAFE_INTEGER],
      [500, Number.MAX_SAFE_INTEGER],
      [5000, 20_000],
    ] as const) {
      const batch = await history.nextBatch({ before, maxId }, { rows, bytes: Number.MAX_SAFE_INTEGER })
      expect(batch.ids).toEqual(whole(rows, maxId))
    }
    const oldest = db.prepare(`SELECT min(created_wall_at) FROM deliveries NOT INDEXED WHERE ${SETTLED}`).pluck().get() as number
    expect(await history.oldestSettledAt()).toBe(oldest)
    // The first delivery (a minute behind) is the oldest; it is a settled one.
    expect(oldest).toBe(wallAt(0))
  })
})
