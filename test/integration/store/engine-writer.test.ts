// The group-commit writer over a SqlEngine (store/engine-writer.ts), on a real SQLite file and a
// real PostgreSQL: the receiver's capture statements and an outcome commit in one transaction and
// read back the same on both; a write that cannot be stored fails alone (split) or stays queued and
// lands once the store works again (keep); and on PostgreSQL another connection LISTENing hears
// which tables a commit changed, when the rows can already be read.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngineWriter, INSERT_REQUEST_SQL, listenForChanges, openStore, parseStoreLocation, UPDATE_OUTCOME_SQL, type OpenedStore, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const quiet = { notice: () => undefined }
const SQL = { insert: INSERT_REQUEST_SQL, outcome: UPDATE_OUTCOME_SQL }
let stores: OpenedStore[] = []
afterEach(async () => {
  for (const store of stores) await store.engine.close()
  stores = []
})

async function storeOf(kind: StoreKind): Promise<{ store: OpenedStore; url?: string }> {
  const url = kind === 'postgres' ? await postgres.freshDatabase() : undefined
  const store = await openStore(parseStoreLocation(url ?? join(temp.dir, 'folder')), { ...quiet, postgresKey: { file: join(temp.dir, 'key') } })
  stores.push(store)
  return url === undefined ? { store } : { store, url }
}

function capture(id: number, body: string): Record<string, unknown> {
  return {
    id, endpoint_id: null, received_at: 1_790_000_000_000 + id, method: 'POST', path: '/h/x', query: '', http_version: '1.1', headers_json: '[["content-type","application/json"]]',
    body: Buffer.from(body), body_size: Buffer.byteLength(body), body_truncated: 0, remote_address: '127.0.0.1', verify_valid: null, verify_reason: null, verify_json: null,
    dedupe_key: `evt_${id}`, duplicate_of: null, duplicate_number: 1, rule_id: null, fault_json: null, response_status: null, response_headers_json: null, response_body: null,
    response_ms: null, attempt_id: null, dedupe_key_mark: null, dedupe_key_bytes: null, not_inspected: 0, refused_reason: null, stored_at: 1_790_000_000_000 + id,
  }
}
const outcome = (id: number, status: number) => ({ id, fault_json: null, response_status: status, response_headers_json: '[]', response_body: Buffer.from('ok'), response_ms: 3 })

const rowsOf = (store: OpenedStore) => store.engine.all('SELECT id, body, dedupe_key, response_status, response_body FROM requests ORDER BY id')

describe.each(['sqlite', 'postgres'] as const)('the group-commit writer over the %s engine', (kind) => {
  it('commits what one turn queued in one transaction, and reads back the same rows', async () => {
    const { store } = await storeOf(kind)
    const writer = createEngineWriter(store.engine, SQL)
    const written = [1, 2, 3].map((id) => writer.write([['insert', capture(id, `{"n":${id}}`)], ['outcome', outcome(id, 200 + id)]]))
    await Promise.all(written)
    await writer.committed()
    expect(await rowsOf(store)).toEqual([1, 2, 3].map((id) => ({ id, body: Buffer.from(`{"n":${id}}`), dedupe_key: `evt_${id}`, response_status: 200 + id, response_body: Buffer.from('ok') })))
    writer.close()
  })

  it('fails a write that cannot be stored alone, and commits the others', async () => {
    const { store } = await storeOf(kind)
    const writer = createEngineWriter(store.engine, SQL)
    await writer.write([['insert', capture(1, '{}')]])
    const results = await Promise.allSettled([writer.write([['insert', capture(2, '{}')]]), writer.write([['insert', capture(1, '{"again":true}')]]), writer.write([['insert', capture(3, '{}')]])])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((await rowsOf(store)).map((r) => (r as { id: number }).id)).toEqual([1, 2, 3])
    writer.close()
  })

  it('keeps a batch the store refuses and commits it once the store works again', async () => {
    const { store } = await storeOf(kind)
    const errors: string[] = []
    const writer = createEngineWriter(store.engine, SQL, { keep: { onError: (error) => errors.push(error.message), retryMs: 50 } })
    await store.engine.exec(
      kind === 'sqlite'
        ? `CREATE TRIGGER test_fail BEFORE INSERT ON requests BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;`
        : `CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated disk failure'; END $$;
           CREATE TRIGGER test_fail BEFORE INSERT ON requests FOR EACH ROW EXECUTE FUNCTION test_fail();`,
    )
    const kept = writer.write([['insert', capture(7, '{"kept":true}')]])
    await expect(writer.committed()).rejects.toThrow(/simulated disk failure/)
    expect(errors[0]).toMatch(/simulated disk failure/)
    expect(writer.pending()).toBe(1)
    await store.engine.exec(kind === 'sqlite' ? 'DROP TRIGGER test_fail' : 'DROP TRIGGER test_fail ON requests')
    await kept
    expect((await rowsOf(store)).map((r) => (r as { id: number }).id)).toEqual([7])
    writer.close()
  })
})

/**
 * The team's engine with the answer to its first commit lost: the transaction commits on the real
 * server, then the caller hears that the connection ended, as when the network drops after COMMIT
 * left. That moment cannot be made to happen on demand against a real server, so this wrapper
 * stands in for it; everything else is the real PostgreSQL.
 */
function answerLostOnce(engine: SqlEngine): SqlEngine {
  let lost = false
  return {
    ...engine,
    async transactionAtOnce(statements) {
      const results = await engine.transactionAtOnce(statements)
      if (lost) return results
      lost = true
      throw new Error('Connection terminated unexpectedly')
    },
  }
}

describe('a commit whose answer was lost, on PostgreSQL', () => {
  it('a batch of many captures and outcomes sent by rank: each stored once, all resolve', async () => {
    const { store } = await storeOf('postgres')
    const errors: string[] = []
    const writer = createEngineWriter(answerLostOnce(store.engine), SQL, { ranks: { insert: 0, outcome: 1 }, keep: { onError: (error) => errors.push(error.message), retryMs: 20 } })
    const ids = Array.from({ length: 30 }, (_, i) => 21 + i)
    const written = ids.map((id) => writer.write([['insert', capture(id, `{"n":${id}}`)], ['outcome', outcome(id, 200)]]))
    await expect(writer.committed()).rejects.toThrow(/Connection terminated/)
    const after = writer.write([['insert', capture(60, '{"after":true}')], ['outcome', outcome(21, 299)]])
    await Promise.all([...written, after])
    expect(errors).toEqual(['Connection terminated unexpectedly'])
    const rows = (await rowsOf(store)) as Array<{ id: number; response_status: number }>
    expect(rows.map((r) => [Number(r.id), r.response_status])).toEqual([...ids.map((id) => [id, id === 21 ? 299 : 200]), [60, null]])
    writer.close()
  })

  it.each([
    ['kept (the receiver)', true],
    ['split (the sender)', false],
  ] as const)('%s: the write is stored once and resolves, and the writes after it commit', async (_name, keep) => {
    const { store } = await storeOf('postgres')
    const errors: string[] = []
    const writer = createEngineWriter(answerLostOnce(store.engine), SQL, keep ? { keep: { onError: (error) => errors.push(error.message), retryMs: 20 } } : undefined)
    const first = writer.write([['insert', capture(11, '{"first":true}')], ['outcome', outcome(11, 200)]])
    if (keep) {
      // Its batch goes back to the queue, in doubt; the next commit finds its row already there.
      await expect(writer.committed()).rejects.toThrow(/Connection terminated/)
      const after = writer.write([['insert', capture(12, '{"after":true}')]])
      await Promise.all([first, after])
      expect(errors).toEqual(['Connection terminated unexpectedly'])
    } else {
      // Tried again write by write, it is found stored rather than refused.
      await first
      await writer.write([['insert', capture(12, '{"after":true}')]])
    }
    expect((await rowsOf(store)).map((r) => (r as { id: number }).id)).toEqual([11, 12])
    expect(writer.pending()).toBe(0)
    // In doubt no more: a taken id is refused again, as ever (a kept writer would keep it queued).
    if (!keep) await expect(writer.write([['insert', capture(12, '{"again":true}')]])).rejects.toThrow(/duplicate key/)
    writer.close()
  })
})

describe.each(['sqlite', 'postgres'] as const)('a batch sent by rank over the %s engine (the request INSERTs first, then the outcomes)', (kind) => {
  const RANKS = { insert: 0, outcome: 1 }

  it('fails a write that cannot be stored alone, and commits the others with their outcomes', async () => {
    const { store } = await storeOf(kind)
    const writer = createEngineWriter(store.engine, SQL, { ranks: RANKS })
    await writer.write([['insert', capture(1, '{}')]])
    const results = await Promise.allSettled([
      writer.write([['insert', capture(2, '{}')], ['outcome', outcome(2, 202)]]),
      writer.write([['outcome', outcome(1, 201)]]),
      writer.write([['insert', capture(1, '{"again":true}')], ['outcome', outcome(1, 500)]]),
      writer.write([['insert', capture(3, '{}')], ['outcome', outcome(3, 203)]]),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect((await rowsOf(store)).map((r) => [(r as { id: number }).id, (r as { response_status: number }).response_status])).toEqual([[1, 201], [2, 202], [3, 203]])
    writer.close()
  })

  it('leaves the later of two outcomes of one request in one batch, as one update after the other does', async () => {
    const { store } = await storeOf(kind)
    const writer = createEngineWriter(store.engine, SQL, { ranks: RANKS })
    await Promise.all([writer.write([['insert', capture(5, '{}')]]), writer.write([['outcome', outcome(5, 201)]]), writer.write([['insert', capture(6, '{}')]]), writer.write([['outcome', outcome(5, 203)]]), writer.write([['outcome', outcome(5, 202)]])])
    expect((await rowsOf(store)).map((r) => (r as { response_status: number }).response_status)).toEqual([202, null])
    writer.close()
  })
})

describe('change notices on PostgreSQL', () => {
  it("another connection hears the tables a commit changed, once its rows can be read", async () => {
    const { store, url } = await storeOf('postgres')
    const seen: Array<{ tables: string[]; rows: number }> = []
    let heard!: () => void
    const got = new Promise<void>((resolve) => (heard = resolve))
    const reader = await openStore(parseStoreLocation(url!), { ...quiet, withoutSecrets: true })
    stores.push(reader)
    const listener = await listenForChanges({
      url: url!,
      onChange: (tables) => {
        void reader.engine.get<{ n: number }>('SELECT count(*) AS n FROM requests').then((row) => {
          seen.push({ tables, rows: row?.n ?? 0 })
          heard()
        })
      },
    })
    try {
      const writer = createEngineWriter(store.engine, SQL)
      await writer.write([['insert', capture(1, '{}')], ['outcome', outcome(1, 200)]])
      await got
      expect(seen).toEqual([{ tables: ['requests'], rows: 1 }])
      writer.close()
    } finally {
      await listener.close()
    }
  })

  it('an unreachable server is one line naming it, without the password', async () => {
    await expect(listenForChanges({ url: 'postgres://u:topsecret@127.0.0.1:1/teamdb', onChange: () => undefined })).rejects.toThrow(/^cannot reach the PostgreSQL store at postgres:\/\/u@127\.0\.0\.1:1\/teamdb: nothing answers there/)
  })
})
