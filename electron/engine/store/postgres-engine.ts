// The SqlEngine over a team's PostgreSQL server (pg's pool). Statements arrive in the SQL both
// engines share and leave as PostgreSQL takes them (postgres-dialect.ts), carried over once per
// statement text. BIGINT columns (ids, times in ms) come back as numbers, as SQLite gives them;
// BYTEA as a Buffer, as a BLOB.
import pg from 'pg'
import { postgresText } from './postgres-dialect'
import type { SqlEngine, SqlRunResult } from './sql-engine'
import { describePostgresUrl } from './store-location'
import { StoreError } from './store-error'

const INT8_OID = 20
const NUMERIC_OID = 1700

function toSafeNumber(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) throw new RangeError(`a BIGINT value ${text} is beyond JavaScript's safe integers`)
  return value
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return toSafeNumber
    if (oid === NUMERIC_OID) return Number
    return pg.types.getTypeParser(oid, format)
  },
}

export interface PostgresEngineOptions {
  url: string
  /** Connections kept in the pool (default 10). */
  max?: number
  /** Give up connecting after this long (default 5 s). */
  connectTimeoutMs?: number
  /** A name PostgreSQL shows in pg_stat_activity. */
  applicationName?: string
}

/** Opens the pool and checks the server answers; an unreachable server is one clear StoreError. */
export async function openPostgresEngine(options: PostgresEngineOptions): Promise<SqlEngine & { pool: pg.Pool }> {
  const where = describePostgresUrl(options.url)
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    application_name: options.applicationName ?? 'hookloop',
    types,
  })
  // An idle connection the server dropped is replaced on the next query; it must not crash the process.
  pool.on('error', () => undefined)
  try {
    const client = await pool.connect()
    client.release()
  } catch (error) {
    await pool.end().catch(() => undefined)
    throw unreachable(where, error)
  }
  return Object.assign(engineOver(pool, where, true), { pool })
}

export function unreachable(where: string, error: unknown): StoreError {
  const e = error as { code?: string; message?: string }
  const reason =
    e.code === 'ECONNREFUSED' ? 'nothing answers there (is the server running, and on that port?)'
    : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' ? 'the host name does not resolve'
    : e.code === '28P01' || e.code === '28000' ? 'the server refused the user name or password'
    : e.code === '3D000' ? 'the server has no such database (create it first: createdb)'
    : /timeout/i.test(e.message ?? '') ? 'the server did not answer in time'
    : (e.message ?? String(error))
  return new StoreError('unreachable', `cannot reach the PostgreSQL store at ${where}: ${reason}. Check the URL in --store or HOOKLOOP_STORE.`, { cause: error })
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient

function engineOver(db: Queryable, where: string, isPool: boolean): SqlEngine {
  const texts = new Map<string, string>()
  const text = (sql: string): string => {
    let numbered = texts.get(sql)
    if (numbered === undefined) {
      numbered = postgresText(sql)
      texts.set(sql, numbered)
    }
    return numbered
  }
  const query = async (sql: string, params: readonly unknown[] = []) => db.query({ text: text(sql), values: params as unknown[] })
  return {
    kind: 'postgres',
    where,
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql, params): Promise<SqlRunResult> => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    exec: async (sql) => void (await db.query(sql)),
    async transaction<R>(work: (tx: SqlEngine) => Promise<R>): Promise<R> {
      if (!isPool) throw new Error('a transaction inside a transaction: use the tx you were given')
      const client = await (db as pg.Pool).connect()
      try {
        await client.query('BEGIN')
        const result = await work(engineOver(client, where, false))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: async () => {
      if (isPool) await (db as pg.Pool).end()
    },
  }
}
