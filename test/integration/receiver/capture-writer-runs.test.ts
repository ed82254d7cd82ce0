// The receiver's capture writer sends a group commit on a team's PostgreSQL as one statement per
// kind of write (store/engine-writer.ts, ranks; capture-writer.ts says why that order is safe):
// new captures, the outcomes of captures answered earlier, their schema verdicts and forward legs,
// queued interleaved in one turn, go as a bounded number of statements, and leave the same rows,
// counters and commit order as the same writes on a data folder's SQLite, one statement each.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaptureWriter, type CaptureWriter } from '../../../electron/engine/receiver/capture-writer'
import { openStore, parseStoreLocation, type OpenedStore, type RequestOutcomeRow, type RequestRow, type SchemaVerdictRow, type SqlEngine, type SqlStatement } from '../../../electron/engine/store'
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

/** The real engine, with every statement a commit sends kept (what is sent is what is counted). */
function counted(engine: SqlEngine): { engine: SqlEngine; commits: SqlStatement[][] } {
  const commits: SqlStatement[][] = []
  return {
    commits,
    engine: {
      ...engine,
      transactionAtOnce(statements) {
        commits.push([...statements])
        return engine.transactionAtOnce(statements)
      },
    },
  }
}

async function writerOn(kind: 'sqlite' | 'postgres') {
  const url = kind === 'postgres' ? await postgres.freshDatabase() : join(temp.dir, `folder-${stores.length}`)
  const store = await openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'key') } })
  stores.push(store)
  const { engine, commits } = counted(store.engine)
  const writer = createCaptureWriter({ engine, onError: (error) => expect.fail(`a commit failed: ${error.message}`), retryMs: 5 })
  writers.push(writer)
  return { store, writer, commits }
}

// Ten keys over forty captures: later arrivals of a key are duplicates, which the counters count
// by the order the rows are inserted in.
function capture(id: number): RequestRow {
  return {
    id, endpoint_id: id % 3 === 0 ? null : 'ep_1', received_at: 1_790_000_000_000 + id, method: 'POST', path: '/h/x', query: '', http_version: '1.1', headers_json: '[]',
    body: Buffer.from(`{"n":${id}}`), body_size: 8, body_truncated: 0, remote_address: '127.0.0.1', verify_valid: 1, verify_reason: null, verify_json: null,
    dedupe_key: `evt_${id % 10}`, duplicate_of: null, duplicate_number: 1, rule_id: null, fault_json: null, response_status: null, response_headers_json: null, response_body: null,
    response_ms: null, attempt_id: null, dedupe_key_mark: null, dedupe_key_bytes: null, not_inspected: null, refused_reason: null, stored_at: 1_790_000_000_000 + id,
  }
}
const outcome = (id: number, status: number): RequestOutcomeRow => ({ id, fault_json: `{"outcome":"replied","n":${id}}`, response_status: status, response_headers_json: '[]', response_body: Buffer.from(`ok ${id}`), response_ms: id + 0.5 })
const verdict = (id: number): SchemaVerdictRow => ({
  request_id: id, verdict: id % 2 === 0 ? 'valid' : 'invalid', source: 'standard-webhooks', version: null, schema_name: null, pointer: id % 2 === 0 ? null : '/n',
  expected: null, got: null, schema_says: null, problems_json: '[]', reason: null, checked_at: 1_790_000_001_000 + id,
})
const leg = (id: number, requestId: number) => ({
  id, request_id: requestId, kind: 'forward', target_url: 'http://127.0.0.1:9/app', sent_at: 1_790_000_002_000 + id, request_method: 'POST', request_url: 'http://127.0.0.1:9/app',
  request_headers_json: '[]', request_body: Buffer.alloc(0), request_body_captured: 1, response_status: 202, response_headers_json: '[]', response_body: null,
  response_body_size: 0, response_body_truncated: 0, latency_ms: 3, outcome: 'sent', error: null,
})

/** Forty captures committed; then, in one turn, forty more interleaved with the first ones' outcomes, verdicts and two legs, and one capture with its own outcome. */
async function scenario(writer: CaptureWriter, commits: SqlStatement[][]): Promise<SqlStatement[][]> {
  await Promise.all(Array.from({ length: 40 }, (_, i) => writer.insert(capture(i + 1))()))
  const before = commits.length
  const answered: Array<Promise<void>> = []
  for (let i = 1; i <= 40; i++) {
    answered.push(writer.insert(capture(40 + i))())
    writer.outcome(outcome(i, 200 + i))
    writer.verdict(verdict(i))
    if (i % 20 === 0) writer.leg(leg(i, i))
  }
  answered.push(writer.insert(capture(100))())
  writer.outcome(outcome(100, 299))
  await Promise.all(answered)
  await writer.committed()
  return commits.slice(before)
}

async function storedRows(engine: SqlEngine) {
  const n = (v: unknown) => (v === null ? null : Number(v))
  const requests = await engine.all<Record<string, unknown>>(
    'SELECT id, endpoint_id, dedupe_key, body, fault_json, response_status, response_headers_json, response_body, response_ms FROM requests ORDER BY id',
  )
  const verdicts = await engine.all<Record<string, unknown>>('SELECT request_id, verdict, pointer, checked_at FROM request_schema_verdicts ORDER BY request_id')
  const legs = await engine.all<Record<string, unknown>>('SELECT id, request_id, response_status, outcome FROM forward_legs ORDER BY id')
  const counters = await engine.all<Record<string, unknown>>('SELECT endpoint_key, requests, received_rows FROM request_counts WHERE requests <> 0 ORDER BY endpoint_key')
  return {
    requests: requests.map((r) => ({ ...r, id: n(r.id), response_status: n(r.response_status), response_ms: n(r.response_ms) })),
    verdicts: verdicts.map((r) => ({ ...r, request_id: n(r.request_id), checked_at: n(r.checked_at) })),
    legs: legs.map((r) => ({ ...r, id: n(r.id), request_id: n(r.request_id), response_status: n(r.response_status) })),
    counters: counters.map((r) => ({ ...r, requests: n(r.requests), received_rows: n(r.received_rows) })),
  }
}

const kindOf = (sql: string) => /^\s*(INSERT INTO \w+|UPDATE \w+)/.exec(sql)?.[1] ?? sql

describe('a group commit of captures, outcomes, verdicts and legs', () => {
  it('is one statement per kind of write on PostgreSQL, and stores what SQLite stores', async () => {
    const pg = await writerOn('postgres')
    const sent = await scenario(pg.writer, pg.commits)
    // 123 writes in one batch: the 41 captures, the 2 legs (one statement each), the 40
    // verdicts and the 41 outcomes.
    expect(sent.map((commit) => commit.map((s) => kindOf(s.sql)))).toEqual([
      ['INSERT INTO requests', 'INSERT INTO forward_legs', 'INSERT INTO forward_legs', 'INSERT INTO request_schema_verdicts', 'UPDATE requests'],
    ])

    const folder = await writerOn('sqlite')
    const folderSent = await scenario(folder.writer, folder.commits)
    expect(folderSent.flat()).toHaveLength(41 + 41 + 40 + 2)

    const stored = await storedRows(pg.store.engine)
    expect(stored).toEqual(await storedRows(folder.store.engine))
    expect(stored.requests).toHaveLength(81)
    expect(stored.requests.find((r) => r.id === 100)).toMatchObject({ response_status: 299, response_body: Buffer.from('ok 100') })
    expect(stored.verdicts).toHaveLength(40)
    expect(stored.legs.map((l) => l.request_id)).toEqual([20, 40])
    // Numbered in the order queued: the captures' INSERTs kept their order among themselves.
    const committedOrder = await pg.store.engine.all<{ id: string | number }>('SELECT id FROM requests ORDER BY commit_order')
    expect(committedOrder.map((r) => Number(r.id))).toEqual([...Array.from({ length: 80 }, (_, i) => i + 1), 100])
  })
})
