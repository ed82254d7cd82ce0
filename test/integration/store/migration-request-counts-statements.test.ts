// Schema 30 on stores written at schema 29, on a real SQLite file and a real PostgreSQL: the
// counters the row triggers kept are kept as they were, equal to a direct count, and after the step
// (PostgreSQL's counters now follow an INSERT's and a DELETE's rows once per statement) multi-row
// INSERTs, a re-key and a batch DELETE keep them equal.
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, createSqliteEngine, migratePostgres, openDatabase, openPostgresEngine, type SqlEngine } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const request = (id: number, endpoint: string | null, key: string | null, attempt: number | null = null) =>
  `(${id}, ${endpoint === null ? 'NULL' : `'${endpoint}'`}, 1000, 'POST', '/h/x', '[]', 0, ${key === null ? 'NULL' : `'${key}'`}, ${attempt ?? 'NULL'})`
const INSERT = 'INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key, attempt_id) VALUES'
// Written at schema 29, a row at a time and in one statement: the counters as the row triggers made them.
const ROWS = [
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep_a', 'a', 'A', 1)`,
  `${INSERT} ${request(1, 'ep_a', 'k1')}`,
  `${INSERT} ${[request(2, 'ep_a', 'k1'), request(3, 'ep_a', null), request(4, 'ep_a', 'k2', 5), request(5, null, 'k1'), request(6, null, null)].join(', ')}`,
]

type Counts = Record<string, [number, number]>
async function counters(engine: SqlEngine): Promise<Counts> {
  const rows = await engine.all<{ endpoint_key: string; requests: number; received_rows: number }>('SELECT endpoint_key, requests, received_rows FROM request_counts WHERE requests <> 0 ORDER BY endpoint_key')
  return Object.fromEntries(rows.map((r) => [r.endpoint_key, [Number(r.requests), Number(r.received_rows)]]))
}
async function direct(engine: SqlEngine): Promise<Counts> {
  const rows = await engine.all<{ k: string; requests: number; received_rows: number }>(
    `SELECT COALESCE(endpoint_id, '') AS k, COUNT(*) AS requests,
            COUNT(DISTINCT CASE WHEN attempt_id IS NULL THEN COALESCE(dedupe_key, 'request:' || CAST(id AS TEXT)) END) AS received_rows
       FROM requests GROUP BY COALESCE(endpoint_id, '') ORDER BY 1`,
  )
  return Object.fromEntries(rows.map((r) => [r.k, [Number(r.requests), Number(r.received_rows)]]))
}

async function expectCountsKeptAndFollowed(engine: SqlEngine): Promise<void> {
  // ep_a: k1 (two arrivals), the keyless one, k2 an attempt's own; no endpoint: k1 and a keyless one.
  expect(await counters(engine)).toEqual({ '': [2, 2], ep_a: [4, 2] })
  expect(await counters(engine)).toEqual(await direct(engine))
  const steps = [
    `${INSERT} ${[request(7, 'ep_a', 'k2'), request(8, 'ep_a', 'k2'), request(9, 'ep_a', 'k1'), request(10, null, 'k3'), request(11, null, 'k3')].join(', ')}`,
    `UPDATE requests SET dedupe_key = 'k1' WHERE id IN (7, 8)`,
    `DELETE FROM requests WHERE id IN (1, 2, 9, 10, 3)`,
  ]
  for (const sql of steps) {
    await engine.exec(sql)
    expect(await counters(engine), sql).toEqual(await direct(engine))
  }
  expect(await direct(engine)).toEqual({ '': [3, 3], ep_a: [3, 1] })
}

describe('migration 30: the request counters once per statement on PostgreSQL', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('keeps the counters of a SQLite store (a step that changes nothing there)', async () => {
    const file = storeWrittenAt(temp.dir, 29, ROWS.map((s) => `${s};`).join('\n'))
    const engine = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    try {
      expect((await engine.get<{ user_version: number }>('PRAGMA user_version'))?.user_version).toBeGreaterThanOrEqual(30)
      await expectCountsKeptAndFollowed(engine)
    } finally {
      await engine.close()
    }
  })

  it('keeps the counters of a PostgreSQL store and follows each statement after', async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 29))
      for (const row of ROWS) await engine.exec(row)
      // Step 30 alone (a later schema's steps are its own tests'), then on to the latest.
      expect(await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 30))).toMatchObject({ from: 29, to: 30, steps: [expect.stringMatching(/^30 /)] })
      await migratePostgres(engine)
      const triggers = await engine.all<{ tgname: string; statement: boolean }>(
        `SELECT tgname, (tgtype & 1) = 0 AS statement FROM pg_trigger WHERE tgrelid = 'requests'::regclass AND tgname LIKE 'request_counts%' ORDER BY tgname`,
      )
      expect(triggers).toEqual([
        { tgname: 'request_counts_follow', statement: false },
        { tgname: 'request_counts_follow_deletes', statement: true },
        { tgname: 'request_counts_follow_inserts', statement: true },
      ])
      await expectCountsKeptAndFollowed(engine)
    } finally {
      await engine.close()
    }
  })
})
