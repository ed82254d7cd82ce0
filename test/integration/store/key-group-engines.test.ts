// A dedupe key's group read through SqlEngine (readKeyGroup, what the receiver asks a team's
// PostgreSQL for every keyed arrival) on a real SQLite file and a real PostgreSQL: the same group
// from the same rows, numbers as numbers (PostgreSQL's BIGINT), a digest key apart from a plain one
// of the same text, a key in another case apart from it, and the newest row found by arrival time,
// not by id. On PostgreSQL the
// receiver's batched reads (createKeyGroupReads: the keys of one turn in one statement) answer each
// key as readKeyGroup does.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngineWriter, createKeyGroupReads, INSERT_REQUEST_SQL, openStore, parseStoreLocation, readKeyGroup, type OpenedStore, type StoreKind } from '../../../electron/engine/store'
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
  const where = kind === 'postgres' ? await postgres.freshDatabase() : join(temp.dir, `folder-${stores.length}`)
  const store = await openStore(parseStoreLocation(where), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'key') } })
  stores.push(store)
  return store
}

function row(id: number, key: string, at: number, duplicateOf: number | null, number: number, digest = false): Record<string, unknown> {
  return {
    id, endpoint_id: 'ep_1', received_at: at, method: 'POST', path: '/h/x', query: '', http_version: '1.1', headers_json: '[]', body: Buffer.from('{}'), body_size: 2,
    body_truncated: 0, remote_address: null, verify_valid: null, verify_reason: null, verify_json: null, dedupe_key: key, duplicate_of: duplicateOf, duplicate_number: number,
    rule_id: null, fault_json: null, response_status: 200, response_headers_json: '[]', response_body: null, response_ms: 1, attempt_id: null,
    dedupe_key_mark: digest ? '{"reason":"too_long","bytes":300}' : null, dedupe_key_bytes: null, not_inspected: null, refused_reason: null, stored_at: at + 5,
  }
}

describe.each(['sqlite', 'postgres'] as const)('a key group read over the %s engine', (kind) => {
  it('reads the group its newest row belongs to, the same on either engine', async () => {
    const store = await storeOf(kind)
    const writer = createEngineWriter(store.engine, { insert: INSERT_REQUEST_SQL })
    const T = 1_790_000_000_000
    for (const r of [row(1, 'evt_a', T, null, 1), row(2, 'evt_a', T + 10, 1, 2), row(3, 'evt_a', T + 20, 1, 3), row(4, 'evt_a', T + 30, null, 1, true), row(9, 'evt_b', T + 35, null, 1), row(5, 'evt_b', T + 40, 9, 4)]) await writer.write([['insert', r]])
    writer.close()
    expect(await readKeyGroup(store.engine, 'ep_1', 'evt_a')).toEqual({ firstId: 1, firstAt: T, firstWallAt: T + 5, firstOnWall: true, count: 3 })
    expect(await readKeyGroup(store.engine, 'ep_1', 'evt_a', true)).toEqual({ firstId: 4, firstAt: T + 30, firstWallAt: T + 35, firstOnWall: true, count: 1 })
    // The newest row by arrival time, whatever its id; the group's times are its first arrival's.
    expect(await readKeyGroup(store.engine, 'ep_1', 'evt_b')).toEqual({ firstId: 9, firstAt: T + 35, firstWallAt: T + 40, firstOnWall: true, count: 4 })
    expect(await readKeyGroup(store.engine, 'ep_1', 'evt_c')).toBeUndefined()
    // A key's case is its own, though a data folder's key index is case-blind (schema 32).
    expect(await readKeyGroup(store.engine, 'ep_1', 'EVT_A')).toBeUndefined()
    expect(await readKeyGroup(store.engine, 'ep_1', 'Evt_b')).toBeUndefined()
    expect(await readKeyGroup(store.engine, 'ep_2', 'evt_a')).toBeUndefined()
  })
})

describe('the key groups read in one statement (a team\'s PostgreSQL)', () => {
  it('answers each key of one turn as readKeyGroup answers it alone', async () => {
    const store = await storeOf('postgres')
    const writer = createEngineWriter(store.engine, { insert: INSERT_REQUEST_SQL })
    const T = 1_790_000_000_000
    for (const r of [row(1, 'evt_a', T, null, 1), row(2, 'evt_a', T + 10, 1, 2), row(4, 'evt_a', T + 30, null, 1, true), row(9, 'evt_b', T + 35, null, 1), row(5, 'evt_b', T + 40, 9, 4), row(6, 'evt_c', T + 45, null, 1), row(7, 'evt_c', T + 50, 6, 2)]) await writer.write([['insert', r]])
    writer.close()
    const asked: Array<[string, string, boolean]> = [['ep_1', 'evt_a', false], ['ep_1', 'evt_a', true], ['ep_1', 'evt_b', false], ['ep_1', 'evt_c', false], ['ep_1', 'evt_none', false], ['ep_2', 'evt_a', false]]
    const read = createKeyGroupReads(store.engine)
    let statements = 0
    const all = store.engine.all.bind(store.engine)
    store.engine.all = ((sql: string, params?: readonly unknown[]) => (statements++, all(sql, params))) as typeof store.engine.all
    const together = await Promise.all(asked.map(([endpoint, key, digest]) => read(endpoint, key, digest)))
    expect(statements).toBe(1)
    const alone = await Promise.all(asked.map(([endpoint, key, digest]) => readKeyGroup(store.engine, endpoint, key, digest)))
    expect(together).toEqual(alone)
    // evt_c's group: its newest row (7) with its first arrival's (6) times, joined in the same statement.
    expect(together[3]).toEqual({ firstId: 6, firstAt: T + 45, firstWallAt: T + 50, firstOnWall: true, count: 2 })
    expect(together.slice(4)).toEqual([undefined, undefined])
  })
})
