// The request counters (store/count-definitions.ts) on both store engines, under statements that
// change several rows of one group at once: a batch insert of two arrivals of one key, a key moved
// on several rows, batch deletes of one group and of an endpoint's duplicate arrivals. After each, the
// counters equal a count made straight from the rows, on a real SQLite file and a real PostgreSQL.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, parseStoreLocation, type OpenedStore, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
let stores: OpenedStore[] = []
afterEach(async () => {
  for (const store of stores) await store.engine.close()
  stores = []
})

async function storeOf(kind: StoreKind): Promise<OpenedStore> {
  const where = kind === 'postgres' ? await postgres.freshDatabase() : join(temp.dir, 'folder')
  const store = await openStore(parseStoreLocation(where), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'key') } })
  stores.push(store)
  return store
}

type Counts = Record<string, { requests: number; received_rows: number }>

async function counters(store: OpenedStore): Promise<Counts> {
  const rows = await store.engine.all<{ endpoint_key: string; requests: number; received_rows: number }>('SELECT endpoint_key, requests, received_rows FROM request_counts ORDER BY endpoint_key')
  return Object.fromEntries(rows.filter((r) => r.requests !== 0 || r.received_rows !== 0).map((r) => [r.endpoint_key, { requests: r.requests, received_rows: r.received_rows }]))
}

/** The same numbers counted from the rows: a received row is a group of endpoint and key, a keyless request alone. */
async function direct(store: OpenedStore): Promise<Counts> {
  const rows = await store.engine.all<{ k: string; requests: number; received_rows: number }>(
    `SELECT COALESCE(endpoint_id, '') AS k, COUNT(*) AS requests,
            COUNT(DISTINCT CASE WHEN attempt_id IS NULL THEN COALESCE(dedupe_key, 'request:' || CAST(id AS TEXT)) END) AS received_rows
       FROM requests GROUP BY COALESCE(endpoint_id, '') ORDER BY 1`,
  )
  return Object.fromEntries(rows.map((r) => [r.k, { requests: r.requests, received_rows: r.received_rows }]))
}

const ROW = `(?, ?, 1000, 'POST', '/h/x', '[]', 0, ?)`
const insert = (n: number) => `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key) VALUES ${Array.from({ length: n }, () => ROW).join(', ')}`

describe.each(['sqlite', 'postgres'] as const)('request counters on the %s engine', (kind) => {
  it('stay equal to a direct count under statements that change several rows of one group', async () => {
    const store = await storeOf(kind)
    for (const id of ['ep_a', 'ep_b']) {
      await store.engine.run(
        `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at) VALUES (?, ?, ?, NULL, '[]', NULL, 86400000, 1048576, '{}', 1000)`,
        [id, id, id],
      )
    }
    const steps: [string, string, unknown[]][] = [
      ['two arrivals of one key and a keyless one, in one INSERT', insert(3), [1, 'ep_a', 'evt_1', 2, 'ep_a', 'evt_1', 3, 'ep_a', null]],
      ['the same key at another endpoint and at none', insert(3), [4, 'ep_b', 'evt_1', 5, 'ep_b', 'evt_1', 6, null, 'evt_1']],
      ['a key moved on several rows at once', `UPDATE requests SET dedupe_key = 'evt_2' WHERE endpoint_id = 'ep_b'`, []],
      ['two groups merged into one', `UPDATE requests SET dedupe_key = 'evt_1' WHERE endpoint_id = 'ep_a'`, []],
      ['a batch delete of one group', `DELETE FROM requests WHERE dedupe_key = 'evt_2'`, []],
      ['an endpoint cleared of its duplicate arrivals', `DELETE FROM requests WHERE endpoint_id = 'ep_a'`, []],
    ]
    for (const [what, sql, params] of steps) {
      await store.engine.run(sql, params)
      expect(await counters(store), what).toEqual(await direct(store))
    }
    expect(await direct(store)).toEqual({ '': { requests: 1, received_rows: 1 } })
  })
})
