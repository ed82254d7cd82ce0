// The schema on a real PostgreSQL: made from nothing, the same tables and columns as SQLite's,
// migrated once when processes start together, refused when newer, and an unreachable server
// named in one line without its password.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  COPIED_TABLES, LATEST_SCHEMA_VERSION, MIGRATIONS, POSTGRES_BASELINE_VERSION, createSqliteEngine, migratePostgres, openDatabase, openPostgresEngine,
  openStore, parseStoreLocation, postgresSchemaVersion, tableColumns, type Migration, type SqlEngine,
} from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()

async function withEngine<R>(url: string, work: (engine: SqlEngine) => Promise<R>): Promise<R> {
  const engine = await openPostgresEngine({ url })
  try {
    return await work(engine)
  } finally {
    await engine.close()
  }
}

describe('PostgreSQL migrations', () => {
  it('makes an empty database this Hookloop\'s schema in one step, then finds nothing to do', async () => {
    const url = await postgres.freshDatabase()
    await withEngine(url, async (engine) => {
      const first = await migratePostgres(engine)
      expect(first.from).toBe(0)
      expect(first.to).toBe(LATEST_SCHEMA_VERSION)
      expect(first.steps[0]).toBe(`baseline (schema ${POSTGRES_BASELINE_VERSION})`)
      expect(await migratePostgres(engine)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION, steps: [] })
    })
  })

  it('has the tables and columns of the SQLite schema, each of a type that holds the same values', async () => {
    const url = await postgres.freshDatabase()
    const sqlite = createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
    await withEngine(url, async (engine) => {
      await migratePostgres(engine)
      for (const table of COPIED_TABLES) {
        expect(await tableColumns(engine, table), table).toEqual(await tableColumns(sqlite, table))
        const sqliteTypes = await sqlite.all<{ name: string; type: string }>('SELECT name, type FROM pragma_table_info(?)', [table])
        const pgTypes = new Map(
          (await engine.all<{ name: string; type: string }>('SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_name = ?', [table])).map((c) => [c.name, c.type]),
        )
        for (const column of sqliteTypes) {
          const allowed = { INTEGER: ['bigint', 'integer', 'double precision'], TEXT: ['text'], BLOB: ['bytea'], REAL: ['double precision'] }[column.type]
          expect(allowed, `${table}.${column.name} is ${column.type} on SQLite`).toBeDefined()
          expect(allowed, `${table}.${column.name}`).toContain(pgTypes.get(column.name))
        }
      }
    })
    await sqlite.close()
  })

  it('migrates once when three processes start on one new database together', async () => {
    const url = await postgres.freshDatabase()
    const engines = await Promise.all([0, 1, 2].map(() => openPostgresEngine({ url })))
    const results = await Promise.all(engines.map((engine) => migratePostgres(engine)))
    expect(results.filter((r) => r.steps.length > 0)).toHaveLength(1)
    expect(await postgresSchemaVersion(engines[0] as SqlEngine)).toBe(LATEST_SCHEMA_VERSION)
    for (const engine of engines) await engine.close()
  })

  it('brings an older team database up in one transaction, saying what it did, and leaves it untouched when a step fails', async () => {
    const url = await postgres.freshDatabase()
    const later: Migration[] = [
      ...MIGRATIONS,
      { version: LATEST_SCHEMA_VERSION + 1, name: 'notes', sql: '', postgres: 'CREATE TABLE notes (id BIGINT PRIMARY KEY)' },
      { version: LATEST_SCHEMA_VERSION + 2, name: 'broken', sql: '', postgres: 'ALTER TABLE nowhere ADD COLUMN x TEXT' },
    ]
    await withEngine(url, async (engine) => {
      await migratePostgres(engine)
      await expect(migratePostgres(engine, later)).rejects.toThrow(new RegExp(`from schema version ${LATEST_SCHEMA_VERSION} failed at step ${LATEST_SCHEMA_VERSION + 2} \\(broken\\).*stays at version ${LATEST_SCHEMA_VERSION}`))
      expect(await postgresSchemaVersion(engine)).toBe(LATEST_SCHEMA_VERSION)
      expect(await engine.get("SELECT to_regclass('notes')::text AS name")).toEqual({ name: null })
      const ok = await migratePostgres(engine, later.slice(0, -1))
      expect(ok).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION + 1, steps: [`${LATEST_SCHEMA_VERSION + 1} notes`] })
    })
  })

  it('keeps the request counters equal to a direct count, as SQLite does, through inserts, relinks and deletes', async () => {
    const url = await postgres.freshDatabase()
    await withEngine(url, async (engine) => {
      await migratePostgres(engine)
      await engine.exec("INSERT INTO endpoints (id, slug, name, created_at) VALUES ('e1', 'a', 'A', 1)")
      const insert = 'INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, dedupe_key, attempt_id) VALUES (?, ?, 1, ?, ?, ?, 0, ?, ?)'
      const rows: [number, string | null, string | null, number | null][] = [[1, 'e1', 'k1', null], [2, 'e1', 'k1', null], [3, 'e1', null, null], [4, 'e1', 'k2', 7], [5, null, null, null], [6, 'e1', 'k2', null]]
      for (const [id, endpoint, key, attempt] of rows) await engine.run(insert, [id, endpoint, 'POST', '/h/a', '[]', key, attempt])
      const direct = `SELECT COALESCE(endpoint_id, '') AS endpoint_key, COUNT(*) AS requests,
        COUNT(DISTINCT CASE WHEN attempt_id IS NULL THEN dedupe_key END) + SUM(CASE WHEN attempt_id IS NULL AND dedupe_key IS NULL THEN 1 ELSE 0 END) AS received_rows
        FROM requests GROUP BY 1 ORDER BY 1`
      const counters = 'SELECT endpoint_key, requests, received_rows FROM request_counts WHERE requests > 0 ORDER BY 1'
      expect(await engine.all(counters)).toEqual(await engine.all(direct))
      expect(await engine.all(counters)).toEqual([{ endpoint_key: '', requests: 1, received_rows: 1 }, { endpoint_key: 'e1', requests: 5, received_rows: 3 }])
      await engine.run('UPDATE requests SET attempt_id = NULL WHERE id = ?', [4])
      await engine.run('DELETE FROM requests WHERE id IN (?, ?)', [1, 5])
      expect(await engine.all(counters)).toEqual(await engine.all(direct))
    })
  })

  it('refuses a database written by a newer Hookloop, naming both versions', async () => {
    const url = await postgres.freshDatabase()
    await withEngine(url, async (engine) => {
      await migratePostgres(engine)
      await engine.run('UPDATE hookloop_schema SET version = ?', [LATEST_SCHEMA_VERSION + 5])
    })
    const notices: string[] = []
    await expect(openStore(parseStoreLocation(url), { postgresKey: { key: Buffer.alloc(32, 1) }, notice: (l) => notices.push(l) })).rejects.toThrow(
      `schema version ${LATEST_SCHEMA_VERSION + 5}; this version knows up to ${LATEST_SCHEMA_VERSION}`,
    )
  })

  it('names an unreachable server, its host and database, in one line without the password', async () => {
    const refusedAt = postgres.urlOf('teamdb').replace(/:\d+\//, ':1/')
    const error = await openStore(parseStoreLocation(refusedAt), { postgresKey: { key: Buffer.alloc(32, 1) } }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toMatch(/^cannot reach the PostgreSQL store at postgres:\/\/hookloop@127\.0\.0\.1:1\/teamdb: nothing answers there/)
    expect(message).not.toContain(new URL(refusedAt).password)
    expect(message).not.toContain('\n')
    const missing = await openStore(parseStoreLocation(postgres.urlOf('no_such_db')), { postgresKey: { key: Buffer.alloc(32, 1) } }).catch((e: Error) => e)
    expect((missing as Error).message).toMatch(/no_such_db: the server has no such database/)
  })

  it('asks for the data key rather than opening a team store whose secrets nobody could read', async () => {
    const url = await postgres.freshDatabase()
    await expect(openStore(parseStoreLocation(url), { env: {} })).rejects.toThrow(/HOOKLOOP_SECRET_KEY_FILE/)
    const keyFile = join(temp.dir, 'team.key')
    const opened = await openStore(parseStoreLocation(url), { env: { HOOKLOOP_SECRET_KEY_FILE: keyFile }, notice: () => undefined })
    await opened.engine.run("INSERT INTO endpoints (id, slug, name, secrets_json, created_at) VALUES ('e1', 'a', 'A', ?, 1)", [opened.secrets.seal('["whsec_x"]')])
    await opened.engine.close()
    await expect(openStore(parseStoreLocation(url), { postgresKey: { key: Buffer.alloc(32, 7) } })).rejects.toThrow(/sealed with another data key/)
    const again = await openStore(parseStoreLocation(url), { env: { HOOKLOOP_SECRET_KEY_FILE: keyFile } })
    await again.engine.close()
  })
})
