// Schema 25 on stores written at schema 24, on a real SQLite file and on a real PostgreSQL: the
// requests kept, with no commit_order (they were committed before anyone counted); on PostgreSQL
// each request inserted from then on is numbered in the order the inserts commit, two transactions
// that overlap included (the second waits for the first's lock and numbers after it).
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, migratePostgres, openDatabase, openPostgresEngine, schemaVersion } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const ENDPOINT = `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep', 'team', 'Team', 1)`
const request = (id: number) => `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size) VALUES (${id}, 'ep', 1, 'POST', '/h/team', '[]', 0)`

describe('migration 25: requests.commit_order', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('keeps a SQLite store\'s requests, the column empty', () => {
    const file = storeWrittenAt(temp.dir, 24, [ENDPOINT, request(1)].map((s) => `${s};`).join('\n'))
    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(25)
      expect(db.prepare('SELECT id, commit_order FROM requests').all()).toEqual([{ id: 1, commit_order: null }])
    } finally {
      db.close()
    }
  })

  it('numbers PostgreSQL inserts in commit order, an older transaction that commits later after a newer one', async () => {
    const url = await postgres.freshDatabase()
    const engine = await openPostgresEngine({ url })
    const other = await openPostgresEngine({ url })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 24))
      await engine.exec(ENDPOINT)
      await engine.exec(request(1))
      // Schema 25's numbering, as it stood until schema 31 numbered requests by transaction.
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 30))
      expect(await engine.all('SELECT id, commit_order FROM requests')).toEqual([{ id: 1, commit_order: null }])

      // Request 5 is inserted first and committed last: 9, inserted meanwhile, waits for its lock.
      let release: () => void = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      let inserted: () => void = () => {}
      const first = new Promise<void>((resolve) => (inserted = resolve))
      const older = engine.transaction(async (tx) => {
        await tx.exec(request(5))
        inserted()
        await held
      })
      await first
      const newer = other.transaction((tx) => tx.exec(request(9)))
      // 9 waits for 5's lock: let 5 commit, then 9.
      await lockAwaited(other)
      release()
      await Promise.all([older, newer])
      const rows = await engine.all<{ id: number; commit_order: number }>('SELECT id, commit_order FROM requests WHERE commit_order IS NOT NULL ORDER BY commit_order')
      expect(rows.map((r) => r.id)).toEqual([5, 9])
    } finally {
      await other.close()
      await engine.close()
    }
  })
})

/** Until a session of the database waits on an advisory lock (the second insert). */
async function lockAwaited(engine: Awaited<ReturnType<typeof openPostgresEngine>>): Promise<void> {
  for (;;) {
    const row = await engine.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
    if (Number(row?.n) > 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
