// Schema 12 on a store written before it: the received rows and captured requests it held are
// counted into request_counts, and from then on the triggers keep the counters equal to a direct
// count, whoever writes: a second connection on the same file (another process on the folder), an
// attempt linking or unlinking its request, retention pruning, Clear history. The totals the UI
// reads come from the counters, never from a pass over requests.
import type { Database } from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createCountReads, createHistoryStore, createSenderHistoryStore, createSqliteEngine, createTimelineReads, openDatabase, schemaVersion } from '../../../electron/engine/store'
import { timelineParts } from '../../../electron/engine/store/timeline-reads'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const insertRequest = (db: Database, endpointId: string | null, key: string | null, attemptId: number | null = null): number =>
  Number(
    db
      .prepare(`INSERT INTO requests (endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key, attempt_id) VALUES (?, 1000, 'POST', '/h/x', '[]', 0, ?, ?)`)
      .run(endpointId, key, attemptId).lastInsertRowid,
  )

/** Received rows (groups of endpoint and key; a keyless request alone), and requests, counted straight from the table. */
function direct(db: Database, endpointId?: string): { received: number; requests: number } {
  const where = endpointId === undefined ? '' : 'AND endpoint_id = ?'
  const params = endpointId === undefined ? [] : [endpointId]
  return {
    received: db.prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM requests WHERE attempt_id IS NULL ${where} GROUP BY endpoint_id, COALESCE(dedupe_key, 'request:' || id))`).pluck().get(...params) as number,
    requests: db.prepare(`SELECT COUNT(*) FROM requests WHERE 1 ${where}`).pluck().get(...params) as number,
  }
}

/** What the UI is told: the timeline's total of received rows (all, and per endpoint) and the top bar's requests. */
async function shown(db: Database, endpointId?: string): Promise<{ received: number; requests: number }> {
  const timeline = createTimelineReads(createSqliteEngine(db, { closeDatabase: false }))
  const received = (await timeline.refs({ status: ['received'], ...(endpointId === undefined ? {} : { endpointId }) }, 0)).total
  const requests = endpointId === undefined ? createCountReads(db).capturedRequests() : direct(db, endpointId).requests
  return { received, requests }
}

async function expectCountsTrue(db: Database): Promise<void> {
  for (const endpoint of [undefined, 'ep_a', 'ep_b']) expect(await shown(db, endpoint), endpoint ?? 'all').toEqual(direct(db, endpoint))
}

describe('migration 12: request_counts', () => {
  const temp = useTempDir()

  it('counts what the store held, then keeps the counts true across connections, links, pruning and Clear history', async () => {
    const file = storeWrittenAt(temp.dir, 11, `
      INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 'shop', 'http://127.0.0.1:9/', 'stripe', '{}', 1000, 1000);
      INSERT INTO events (id, event_type, payload, created_at) VALUES ('550e8400-e29b-41d4-a716-446655440000', 'charge.succeeded', X'7B7D', 1000);
      INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at) VALUES (7, '550e8400-e29b-41d4-a716-446655440000', 's', 'succeeded', 1000, 1000);
      INSERT INTO attempts (id, delivery_id, n, started_at, outcome, decision) VALUES (1, 7, 1, 1000, 'http_200', 'succeeded');
      INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key, attempt_id) VALUES
        (1, 'ep_a', 1000, 'POST', '/h/a', '[]', 0, 'evt_1', NULL),
        (2, 'ep_a', 1001, 'POST', '/h/a', '[]', 0, 'evt_1', NULL),
        (3, 'ep_a', 1002, 'POST', '/h/a', '[]', 0, NULL, NULL),
        (4, 'ep_b', 1003, 'POST', '/h/b', '[]', 0, 'evt_1', NULL),
        (5, NULL, 1004, 'POST', '/nowhere', '[]', 0, NULL, NULL),
        (6, 'ep_a', 1005, 'POST', '/h/a', '[]', 0, 'evt_own', 1);
    `)

    const db = openDatabase({ file })
    const other = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(12)
      // evt_1 and the keyless one at ep_a, evt_1 at ep_b, the keyless one at no endpoint; #6 is an attempt's own.
      expect(await shown(db)).toEqual({ received: 4, requests: 6 })
      await expectCountsTrue(db)

      // Another process on the folder writes: an arrival of a known key, a new key, a keyless one.
      insertRequest(other, 'ep_a', 'evt_1')
      insertRequest(other, 'ep_a', 'evt_2')
      insertRequest(other, 'ep_b', null)
      expect(await shown(db)).toEqual({ received: 6, requests: 9 })
      await expectCountsTrue(db)

      // A request linked to an attempt leaves the received rows (ep_b's only evt_1); an arrival
      // linked when written never enters them.
      other.prepare('UPDATE requests SET attempt_id = 1 WHERE id = 4').run()
      insertRequest(db, 'ep_b', 'evt_own_too', 1)
      expect((await shown(db)).received).toBe(5)
      await expectCountsTrue(db)

      // Retention prunes the settled delivery: its attempt's requests are unlinked and become received traffic.
      const sql = createSqliteEngine(db, { closeDatabase: false })
      await sql.transaction((tx) => createSenderHistoryStore(tx).deleteIds([7]))
      expect(db.prepare('SELECT COUNT(*) FROM requests WHERE attempt_id IS NOT NULL').pluck().get()).toBe(0)
      await expectCountsTrue(db)

      // Retention prunes the oldest requests in a batch: a group survives while one of its arrivals is left.
      const deleteRequests = (ids: number[]) => sql.transaction((tx) => createHistoryStore(tx).deleteIds(ids))
      await deleteRequests([1, 2, 3])
      await expectCountsTrue(db)
      expect((await shown(db, 'ep_a')).received).toBe(3) // evt_1 (the other process's arrival), evt_2, evt_own

      // Clear history: nothing left, nothing counted.
      const all = db.prepare('SELECT id FROM requests').pluck().all() as number[]
      await deleteRequests(all)
      expect(await shown(db)).toEqual({ received: 0, requests: 0 })
      await expectCountsTrue(db)
      insertRequest(other, 'ep_a', 'evt_1')
      expect(await shown(db)).toEqual({ received: 1, requests: 1 })
    } finally {
      other.close()
      db.close()
    }
  })

  it('reads the received rows and the captured requests from the counters, not from requests', async () => {
    const db = openDatabase({ file: ':memory:' })
    try {
      const plan = (sql: string, params: unknown[]) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n')
      for (const filter of [{}, { status: ['received' as const] }, { endpointId: 'ep_a' }]) {
        const counted = timelineParts(filter).received?.count
        expect(counted, JSON.stringify(filter)).toBeDefined()
        const detail = plan(counted!.sql, counted!.params)
        expect(detail, JSON.stringify(filter)).toMatch(/request_counts/)
        expect(detail, JSON.stringify(filter)).not.toMatch(/\brequests\b/)
      }
    } finally {
      db.close()
    }
  })
})
