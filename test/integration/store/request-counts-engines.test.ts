// The request counters (store/count-definitions.ts) on both store engines, under statements that
// change several rows of one group at once: a batch insert of two arrivals of one key, a key moved
// on several rows, batch deletes of one group and of an endpoint's duplicate arrivals. After each, the
// counters equal a count made straight from the rows, on a real SQLite file and a real PostgreSQL.
// On PostgreSQL the counters' trigger finds a request's group by index, not by reading every request
// (nor every request of its endpoint, whatever plan a connection made on a nearly empty table), and
// from schema 30 follows an INSERT's or a DELETE's rows once per statement: the same numbers as
// SQLite's row triggers give under the same statements, with one call and one counter row version
// per endpoint and statement.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, parseStoreLocation, type OpenedStore, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
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
const ENDPOINT = `INSERT INTO endpoints (id, slug, name, scheme, secrets_json, dedupe_json, dedupe_window_ms, body_limit, config_json, created_at) VALUES (?, ?, ?, NULL, '[]', NULL, 86400000, 1048576, '{}', 1000)`
const insert = (n: number) => `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key) VALUES ${Array.from({ length: n }, () => ROW).join(', ')}`
const LINKED_ROW = `(?, ?, 1000, 'POST', '/h/x', '[]', 0, ?, ?)`
/** Rows of [id, endpoint, key, attempt] in one INSERT: an attempt's own request when the attempt is not null. */
const insertLinked = (rows: (string | number | null)[][]) => [
  `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key, attempt_id) VALUES ${rows.map(() => LINKED_ROW).join(', ')}`,
  rows.flat(),
] as const

describe.each(['sqlite', 'postgres'] as const)('request counters on the %s engine', (kind) => {
  it('stay equal to a direct count under statements that change several rows of one group', async () => {
    const store = await storeOf(kind)
    for (const id of ['ep_a', 'ep_b']) {
      await store.engine.run(ENDPOINT, [id, id, id])
    }
    const steps: [string, string, unknown[]][] = [
      ['two arrivals of one key and a keyless one, in one INSERT', insert(3), [1, 'ep_a', 'evt_1', 2, 'ep_a', 'evt_1', 3, 'ep_a', null]],
      ['the same key at another endpoint and at none', insert(3), [4, 'ep_b', 'evt_1', 5, 'ep_b', 'evt_1', 6, null, 'evt_1']],
      // A data folder's key index is case-blind (schema 32); a key's case is still its own.
      ['keys that differ from one there only in case, each a group of its own', insert(3), [7, 'ep_a', 'EVT_1', 8, 'ep_a', 'Evt_1', 9, 'ep_a', 'EVT_1']],
      ['one of those cased keys deleted', `DELETE FROM requests WHERE id = 8`, []],
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

  it('stay equal to a direct count under mixed multi-row INSERTs and DELETEs, keys repeated within and across statements', async () => {
    const store = await storeOf(kind)
    for (const id of ['ep_a', 'ep_b']) await store.engine.run(ENDPOINT, [id, id, id])
    const steps: [string, string, readonly unknown[]][] = [
      [
        'one key twice, a keyless one, an attempt\'s own, the same key at no endpoint and a keyless one there',
        ...insertLinked([[1, 'ep_a', 'k1', null], [2, 'ep_a', 'k1', null], [3, 'ep_a', null, null], [4, 'ep_a', 'k2', 7], [5, null, 'k1', null], [6, null, null, null]]),
      ],
      [
        'keys already there, a key only an attempt\'s own had, a new key behind an attempt\'s own of it, a new key twice at no endpoint',
        ...insertLinked([[7, 'ep_a', 'k1', null], [8, 'ep_a', 'k2', null], [9, 'ep_a', 'k2', null], [10, 'ep_b', 'k1', 8], [11, 'ep_b', 'k1', null], [12, 'ep_b', 'k1', null], [13, null, 'k1', null], [14, null, 'k3', null], [15, null, 'k3', null]]),
      ],
      ['attempts\' own only, of a new key and of one there', ...insertLinked([[16, 'ep_b', 'k4', 9], [17, 'ep_b', 'k4', 9], [18, 'ep_a', 'k1', 9], [19, null, null, 9]])],
      ['one of a group and both of another, a keyless one and an attempt\'s own, in one DELETE', `DELETE FROM requests WHERE id IN (1, 14, 15, 3, 16)`, []],
      ['every received arrival of a group, its attempt\'s own left', `DELETE FROM requests WHERE id IN (8, 9)`, []],
      ['a group re-keyed onto one there, row by row', `UPDATE requests SET dedupe_key = 'k1' WHERE endpoint_id = 'ep_b' AND dedupe_key = 'k4'`, []],
      ['a received arrival linked to an attempt', `UPDATE requests SET attempt_id = 9 WHERE id = 11`, []],
      ['a new group and arrivals of old ones after the deletes', ...insertLinked([[20, 'ep_a', 'k2', null], [21, 'ep_a', 'k2', null], [22, 'ep_b', 'k1', null], [23, null, 'k3', null], [24, null, 'k1', null]])],
      ['an endpoint emptied in one DELETE', `DELETE FROM requests WHERE endpoint_id = 'ep_a'`, []],
      ['everything at no endpoint but one keyless', `DELETE FROM requests WHERE endpoint_id IS NULL AND id <> 6`, []],
    ]
    for (const [what, sql, params] of steps) {
      await store.engine.run(sql, [...params])
      expect(await counters(store), what).toEqual(await direct(store))
    }
    expect(await direct(store)).toEqual({ '': { requests: 1, received_rows: 1 }, ep_b: { requests: 5, received_rows: 1 } })
  })

  it.runIf(kind === 'postgres')('run once per INSERT or DELETE statement, not once per row, and write one counter row version per endpoint', async () => {
    const store = await storeOf(kind)
    for (const id of ['ep_a', 'ep_b']) await store.engine.run(ENDPOINT, [id, id, id])
    // Function calls and counter row writes this transaction made (pg_stat_xact_*: not yet reported,
    // read as a difference), with the calls of PL/pgSQL functions tracked for it.
    const calls = async (tx: SqlEngine) =>
      Object.fromEntries(
        (await tx.all<{ funcname: string; calls: string }>(`SELECT funcname, calls FROM pg_stat_xact_user_functions WHERE funcname LIKE 'request_counts_follow%'`)).map((r) => [r.funcname, Number(r.calls)]),
      )
    // The counter rows are the shards on PostgreSQL (request_counts is their view, schema 31).
    const counterWrites = async (tx: SqlEngine) =>
      Number((await tx.get<{ n: string }>(`SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_xact_user_tables WHERE relname = 'request_count_shards'`))?.n ?? 0)
    const seen = await store.engine.transaction(async (tx) => {
      await tx.exec(`SET LOCAL track_functions = 'pl'`)
      const rows = Array.from({ length: 60 }, (_, i) => [i + 1, i % 2 === 0 ? 'ep_a' : 'ep_b', i % 3 === 0 ? null : `evt_${i % 7}`, null])
      await tx.run(...insertLinked(rows))
      const afterInsert = { calls: await calls(tx), writes: await counterWrites(tx) }
      await tx.run(`DELETE FROM requests WHERE id <= 40`)
      const afterDelete = { calls: await calls(tx), writes: await counterWrites(tx) }
      await tx.run(`UPDATE requests SET dedupe_key = 'moved' WHERE id IN (41, 42, 43)`)
      return { afterInsert, afterDelete, afterUpdate: await calls(tx) }
    })
    // 60 rows at two endpoints: one call, two counter rows made; 40 deleted: one call more, two rows updated.
    expect(seen.afterInsert).toEqual({ calls: { request_counts_follow_inserts: 1 }, writes: 2 })
    expect(seen.afterDelete).toEqual({ calls: { request_counts_follow_inserts: 1, request_counts_follow_deletes: 1 }, writes: 4 })
    // A change of key stays row by row: three rows, three calls.
    expect(seen.afterUpdate).toEqual({ request_counts_follow_inserts: 1, request_counts_follow_deletes: 1, request_counts_follow: 3 })
    expect(await counters(store)).toEqual(await direct(store))
  })

  it('stay equal to a direct count over thousands of requests, endpoint and key each NULL or not', async () => {
    const store = await storeOf(kind)
    await store.engine.run(ENDPOINT, ['ep_a', 'ep_a', 'ep_a'])
    // Every combination: endpoint NULL or not, key NULL or one of 50 (each key arriving many times).
    const rows = Array.from({ length: 3000 }, (_, i) => [i + 1, i % 3 === 0 ? null : 'ep_a', i % 5 === 0 ? null : `evt_${i % 50}`])
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500)
      await store.engine.run(insert(chunk.length), chunk.flat())
    }
    expect(await counters(store)).toEqual(await direct(store))

    // One request at a time, as the engine writer captures, each of its own group or a group already
    // there; on PostgreSQL, the table's sequential scans this transaction made (the view holds what
    // the connection has not yet reported, so a difference from its start).
    const seqScans = async (tx: SqlEngine) =>
      kind === 'postgres' ? Number((await tx.get<{ n: string }>(`SELECT seq_scan AS n FROM pg_stat_xact_user_tables WHERE relname = 'requests'`))?.n ?? 0) : 0
    const scanned = await store.engine.transaction(async (tx) => {
      const before = await seqScans(tx)
      for (let i = 0; i < 200; i++) {
        await tx.run(insert(1), [3001 + i, i % 2 === 0 ? null : 'ep_a', i % 4 < 2 ? `evt_${i % 50}` : `new_${i}`])
      }
      await tx.run(`DELETE FROM requests WHERE id IN (${Array.from({ length: 20 }, (_, i) => 3001 + i).join(', ')})`)
      return (await seqScans(tx)) - before
    })
    expect(await counters(store)).toEqual(await direct(store))
    // 200 inserts and 20 deletes, each probing its group: by index, not a read of the whole table each.
    expect(scanned).toBeLessThanOrEqual(2)
  })

  it.runIf(kind === 'postgres')('probe a group by its endpoint and key however small the table was when the connection planned the probe', async () => {
    const store = await storeOf(kind)
    await store.engine.run(ENDPOINT, ['ep_a', 'ep_a', 'ep_a'])
    // One connection from an empty table on, as a serve on a new team store: the trigger function's
    // statements are planned after its first few rows and the plan is kept. Rows read through an
    // index by this transaction (a difference, as above), per captured request.
    const fetched = async (tx: SqlEngine) => Number((await tx.get<{ n: string }>(`SELECT idx_tup_fetch AS n FROM pg_stat_xact_user_tables WHERE relname = 'requests'`))?.n ?? 0)
    const perRequest = await store.engine.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) await tx.run(insert(1), [i + 1, 'ep_a', `evt_${i}`])
      const before = await fetched(tx)
      for (let i = 20; i < 1020; i++) await tx.run(insert(1), [i + 1, 'ep_a', `evt_${i % 500}`])
      return ((await fetched(tx)) - before) / 1000
    })
    expect(await counters(store)).toEqual(await direct(store))
    // At most the request of the same key the probe finds; reading the endpoint's requests would be hundreds each.
    expect(perRequest).toBeLessThanOrEqual(2)
  })
})
