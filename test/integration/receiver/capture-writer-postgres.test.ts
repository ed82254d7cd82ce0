// The receiver's capture writer on a team's PostgreSQL, as two processes on one database use it:
// each its own connection pool, its own writer over the engine, its own ids from the requests
// table's identity sequence (store/sequence-ids.ts) and its own dedupe tracker asking the server. Every row is stored once under an id no other
// process took, group commits of many rows count right in request_counts (its trigger runs before
// each row), a burst that outruns the ids at hand waits for the next block instead of guessing, and
// an event id answered by one process is numbered on by the other (dup #2, #3 … of one first arrival).
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaptureWriter, type CaptureWriter } from '../../../electron/engine/receiver/capture-writer'
import { createDedupeTracker } from '../../../electron/engine/receiver/dedupe'
import { createRealClock } from '../../../electron/engine/clock'
import { createRetention } from '../../../electron/engine/retention'
import type { Endpoint } from '../../../shared/receiver'
import { createKeyGroupReads, createSequenceIdSource, openStore, parseStoreLocation, StoreError, type OpenedStore, type RequestRow } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
let stores: OpenedStore[] = []
let writers: CaptureWriter[] = []
afterEach(async () => {
  for (const writer of writers) writer.close()
  for (const store of stores) await store.engine.close()
  writers = []
  stores = []
})

async function processOn(url: string, errors?: string[]) {
  const store = await openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'key') } })
  stores.push(store)
  const onError = errors ? (error: Error) => void errors.push(error.message) : (error: Error) => expect.fail(`a commit failed: ${error.message}`)
  const writer = createCaptureWriter({ engine: store.engine, onError, retryMs: 5 })
  writers.push(writer)
  return { store, writer, ids: await createSequenceIdSource(store.engine, 'requests') }
}

function row(id: number, endpoint: string | null, key: string): RequestRow {
  return {
    id, endpoint_id: endpoint, received_at: 1_790_000_000_000 + id, method: 'POST', path: '/h/x', query: '', http_version: '1.1', headers_json: '[]',
    body: Buffer.from(`{"event_id":"${key}"}`), body_size: 20, body_truncated: 0, remote_address: '127.0.0.1', verify_valid: null, verify_reason: null, verify_json: null,
    dedupe_key: key, duplicate_of: null, duplicate_number: 1, rule_id: null, fault_json: null, response_status: 200, response_headers_json: '[]', response_body: null,
    response_ms: 1, attempt_id: null, dedupe_key_mark: null, dedupe_key_bytes: null, not_inspected: null, refused_reason: null, stored_at: 1_790_000_000_000 + id,
  }
}

describe('capturing to PostgreSQL from two processes', () => {
  it('stores every request once under ids no two processes share, and counts them as a direct count does', async () => {
    const url = await postgres.freshDatabase()
    const a = await processOn(url)
    const b = await processOn(url)
    const answered: Array<Promise<void>> = []
    // 2 000 captures in bursts of 50, alternating between the processes: each burst is queued in
    // one turn, so a group commit holds many rows.
    for (let burst = 0; burst < 40; burst++) {
      const side = burst % 2 === 0 ? a : b
      await side.ids.ready()
      for (let i = 0; i < 50; i++) {
        if (side.ids.inHand() === 0) await side.ids.ready()
        const id = side.ids.next()
        answered.push(side.writer.insert(row(id, i % 5 === 0 ? null : 'ep_1', `evt_${burst}_${i}`))())
      }
      if (burst % 4 === 3) await Promise.all(answered)
    }
    await Promise.all(answered)
    await Promise.all([a.writer.committed(), b.writer.committed()])

    const stored = await a.store.engine.all<{ id: string | number }>('SELECT id FROM requests ORDER BY id')
    expect(stored).toHaveLength(2000)
    expect(new Set(stored.map((r) => Number(r.id))).size).toBe(2000)
    const direct = await a.store.engine.all<{ endpoint_key: string; n: string | number }>("SELECT COALESCE(endpoint_id, '') AS endpoint_key, COUNT(*) AS n FROM requests GROUP BY 1 ORDER BY 1")
    const counted = await b.store.engine.all<{ endpoint_key: string; requests: string | number }>('SELECT endpoint_key, requests FROM request_counts WHERE requests <> 0 ORDER BY endpoint_key')
    expect(counted.map((r) => [r.endpoint_key, Number(r.requests)])).toEqual(direct.map((r) => [r.endpoint_key, Number(r.n)]))
    expect(direct.map((r) => [r.endpoint_key, Number(r.n)])).toEqual([['', 400], ['ep_1', 1600]])
  })

  it('refuses an id it does not hold yet rather than making one up, and numbers on once the next block is in', async () => {
    const url = await postgres.freshDatabase()
    const { store } = await processOn(url)
    const ids = await createSequenceIdSource(store.engine, 'requests', 8)
    const taken: number[] = []
    // One synchronous turn asks for more ids than the block held: the server cannot answer in between.
    let refused: unknown
    try {
      for (let i = 0; i < 20; i++) taken.push(ids.next())
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(StoreError)
    expect(taken).toHaveLength(8)
    while (taken.length < 40) {
      await ids.ready()
      taken.push(ids.next())
    }
    expect(new Set(taken).size).toBe(40)
    // Another session taking the sequence's next value (another process's block) never gets one handed out here.
    const other = await store.engine.get<{ id: string | number }>("SELECT nextval(pg_get_serial_sequence('requests', 'id')) AS id")
    expect(taken).not.toContain(Number(other?.id))
  })

  it('numbers a key across processes: each arrival answered (committed) before the next goes on from the other process\'s count', async () => {
    const url = await postgres.freshDatabase()
    const sides = await Promise.all([processOn(url), processOn(url)])
    const endpoint = { id: 'ep_1', dedupeWindowMs: 86_400_000 } as Endpoint
    const trackers = sides.map((side) => createDedupeTracker({ keyGroup: () => expect.fail('a team store is asked over the network'), hasKeyedRows: () => true }, 0, () => true, createKeyGroupReads(side.store.engine)))
    const expected = new Map<string, { first: number; count: number }>()
    for (let i = 0; i < 200; i++) {
      const s = (i * 7) % 3 === 0 ? 0 : 1
      const side = sides[s]!
      const key = `evt_${(i * 13) % 20}`
      await side.ids.ready()
      const id = side.ids.next()
      const arrival = await trackers[s]!.arrive(endpoint, { key, mark: null }, id, { clock: 'wall', at: 1_790_000_000_000 + i, wallAt: 1_790_000_000_000 + i })
      const known = expected.get(key)
      if (known) known.count += 1
      else expected.set(key, { first: id, count: 1 })
      const want = expected.get(key)!
      expect(arrival).toEqual({ number: want.count, duplicateOf: want.count === 1 ? null : want.first })
      const stored = { ...row(id, 'ep_1', key), received_at: 1_790_000_000_000 + i, duplicate_of: arrival.duplicateOf, duplicate_number: arrival.number }
      await side.writer.insert(stored)() // answered: the row is committed before the next request
    }
    const rows = await sides[1]!.store.engine.all<{ dedupe_key: string; n: string | number; most: string | number; first: string | number }>(
      "SELECT dedupe_key, COUNT(*) AS n, MAX(duplicate_number) AS most, MIN(COALESCE(duplicate_of, id)) AS first FROM requests GROUP BY dedupe_key ORDER BY dedupe_key",
    )
    expect(rows).toHaveLength(20)
    for (const r of rows) {
      const want = expected.get(r.dedupe_key)!
      expect([Number(r.n), Number(r.most), Number(r.first)]).toEqual([want.count, want.count, want.first])
    }
  })

  it('captures while another process prunes the same endpoints: no commit fails, and the counters equal a direct count', async () => {
    const url = await postgres.freshDatabase()
    const errors: string[] = []
    const capturing = await processOn(url, errors)
    const pruning = await processOn(url)
    const clock = createRealClock()
    const retention = createRetention({ engine: pruning.store.engine, clock, timers: clock, firstPassMs: 2 ** 31 - 1, batch: { rows: 10 } })
    const old = Date.now() - 30 * 86_400_000
    let done = false
    // Old rows of every endpoint are pruned in small batches while new ones arrive on the same endpoints.
    const prunes = (async () => {
      let pruned = 0
      while (!done) pruned += (await retention.prune({ olderThanMs: 7 * 86_400_000, giveBack: 'none' })).deleted
      return pruned
    })()
    const endpoints = ['ep_1', 'ep_2', null]
    for (let burst = 0; burst < 30; burst++) {
      const answered: Array<Promise<void>> = []
      for (let i = 0; i < 40; i++) {
        if (capturing.ids.inHand() === 0) await capturing.ids.ready()
        const id = capturing.ids.next()
        const at = i % 2 === 0 ? old + burst * 40 + i : Date.now()
        answered.push(capturing.writer.insert({ ...row(id, endpoints[i % 3]!, `evt_${burst}_${i}`), received_at: at, stored_at: at })())
      }
      await Promise.all(answered)
    }
    done = true
    const pruned = await prunes
    await retention.stop()
    // The last old rows: pruned once nothing arrives any more.
    const last = (await retention.prune({ olderThanMs: 7 * 86_400_000, giveBack: 'none' })).deleted
    expect(errors).toEqual([])
    expect(pruned + last).toBe(600)
    const direct = await pruning.store.engine.all<{ endpoint_key: string; n: string | number }>("SELECT COALESCE(endpoint_id, '') AS endpoint_key, COUNT(*) AS n FROM requests GROUP BY 1 ORDER BY 1")
    const counted = await capturing.store.engine.all<{ endpoint_key: string; requests: string | number }>('SELECT endpoint_key, requests FROM request_counts WHERE requests <> 0 ORDER BY endpoint_key')
    expect(counted.map((r) => [r.endpoint_key, Number(r.requests)])).toEqual(direct.map((r) => [r.endpoint_key, Number(r.n)]))
    expect(direct.reduce((sum, r) => sum + Number(r.n), 0)).toBe(600)
  })
})
