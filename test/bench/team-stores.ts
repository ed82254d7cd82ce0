// bench:team's stores: a fresh one of either engine (a SQLite file in a temp folder, a database on
// the team's PostgreSQL), where a process is told to find it, and a count read from it once the
// processes that wrote it have exited.
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import type { TestPostgres } from '../support/postgres'

export type StoreKind = 'sqlite' | 'postgres'

export interface BenchStore {
  /** The SQLite file (hookloop.db in its data folder) or the database's postgres:// URL. */
  where: string
  count(sql: string): Promise<number>
}

export async function freshStore(kind: StoreKind, dir: string, postgres: TestPostgres | null): Promise<BenchStore> {
  if (kind === 'sqlite') {
    const file = join(dir, 'hookloop.db')
    return {
      where: file,
      count: async (sql) => {
        const db = new BetterSqlite3(file, { readonly: true })
        try {
          return Number((db.prepare(sql).get() as { n: number }).n)
        } finally {
          db.close()
        }
      },
    }
  }
  if (!postgres) throw new Error('no PostgreSQL for this run')
  const where = await postgres.freshDatabase()
  return {
    where,
    count: async (sql) => {
      const client = new pg.Client({ connectionString: where })
      await client.connect()
      try {
        return Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0)
      } finally {
        await client.end()
      }
    },
  }
}
