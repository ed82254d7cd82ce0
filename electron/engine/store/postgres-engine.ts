// The SqlEngine over a team's PostgreSQL server (pg's pool). Statements arrive in the SQL both
// engines share and leave as PostgreSQL takes them (postgres-dialect.ts), carried over once per
// statement text. BIGINT columns (ids, times in ms) come back as numbers, as SQLite gives them;
// BYTEA as a Buffer, as a BLOB.
import pg from 'pg'
import { postgresText } from './postgres-dialect'
import type { SqlEngine, SqlRunResult, SqlStatement, StoreReach } from './sql-engine'
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
  const config: pg.PoolConfig = {
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    application_name: options.applicationName ?? 'hookloop',
    // Statements are prepared once per connection (text(), below) and planned on every run with
    // their values, as unnamed ones are.
    options: '-c plan_cache_mode=force_custom_plan',
    types,
  }
  const pool = new pg.Pool(config)
  // The connections transactionAtOnce sends on: in pipeline mode, each statement leaves without
  // waiting for the answer to the one before. Apart from the pool, whose connections wait as
  // every other statement needs; opened as they are needed (a writer has one commit in flight).
  const pipelined = new pg.Pool({ ...config, max: AT_ONCE_CONNECTIONS, pipeline: true })
  // An idle connection the server dropped is replaced on the next query; it must not crash the process.
  pool.on('error', () => undefined)
  pipelined.on('error', () => undefined)
  try {
    const client = await pool.connect()
    client.release()
  } catch (error) {
    await pool.end().catch(() => undefined)
    await pipelined.end().catch(() => undefined)
    throw unreachable(where, error)
  }
  const reach = createReach(pool, where)
  return Object.assign(engineOver(pool, where, reach, pipelined), { pool })
}

// Errors that say the server was not reached or the connection to it was cut (it stopped or
// restarted, an administrator ended the session, the network dropped), not that a statement was
// wrong: Node's socket codes, PostgreSQL's class 08 (connection exception) and 57P01–57P03
// (shutdown, crash, cannot connect now), and pg's own words for a connection that ended.
const LOSS_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03'])
const LOSS_WORDS = /connection terminated|connection timeout|timeout exceeded when trying to connect|client has encountered a connection error|not queryable/i

/** Whether `error` is the server lost rather than a statement refused. */
export function isConnectionLoss(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null
  if (typeof e?.code === 'string' && (LOSS_CODES.has(e.code) || e.code.startsWith('08'))) return true
  return typeof e?.message === 'string' && LOSS_WORDS.test(e.message)
}

/** Pipelined connections kept for transactionAtOnce: one per group-commit writer in flight. */
const AT_ONCE_CONNECTIONS = 4

/** How often a lost server is asked again whether it answers. */
const PROBE_MS = 1_000

interface Reach extends StoreReach {
  /** A statement failed: the server is lost when the error says so. */
  failed(error: unknown): void
  /** A statement succeeded: the server is back. */
  answered(): void
  close(): void
}

/**
 * Whether the server is reached, learnt from the statements themselves: one that fails for want of
 * the server marks it lost, and from then on one cheap statement asks every PROBE_MS until it
 * answers (nothing else may be asking: a receiver that refuses while lost sends none), which marks
 * it back, as any statement that succeeds does.
 */
function createReach(pool: pg.Pool, where: string): Reach {
  let lost = false
  let closed = false
  let probe: NodeJS.Timeout | undefined
  let waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = []
  const listeners = new Set<(lost: boolean) => void>()
  const tell = () => {
    for (const listener of listeners) {
      try {
        listener(lost)
      } catch {
        // A listener's bug must not stop the others from hearing it.
      }
    }
  }
  const settleWaiting = (error: Error | null) => {
    const told = waiting
    waiting = []
    for (const w of told) {
      if (error) w.reject(error)
      else w.resolve()
    }
  }
  const askAgain = () => {
    probe = setTimeout(() => {
      pool.query('SELECT 1').then(reach.answered, () => {
        if (lost && !closed) askAgain()
      })
    }, PROBE_MS)
    probe.unref()
  }
  const reach: Reach = {
    lost: () => lost,
    back: () => (lost ? new Promise((resolve, reject) => waiting.push({ resolve, reject })) : Promise.resolve()),
    subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    failed(error) {
      if (lost || closed || !isConnectionLoss(error)) return
      lost = true
      askAgain()
      tell()
    },
    answered() {
      if (!lost) return
      lost = false
      clearTimeout(probe)
      settleWaiting(null)
      tell()
    },
    close() {
      closed = true
      clearTimeout(probe)
      settleWaiting(new StoreError('unreachable', `the store at ${where} was closed while it could not be reached`))
    },
  }
  return reach
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

/**
 * Statement texts carried over (postgres-dialect.ts), for every engine of the process: a
 * transaction's engine lives for one transaction and would carry each text over again. The texts
 * are the code's own, so few; a text built with values in it would grow this, so it starts afresh
 * past a bound.
 *
 * Each text also has a name, so every connection parses it once and then only binds and runs it
 * (a prepared statement): on a busy team store the server spent a tenth of its time parsing the
 * same statements again. Only small texts are named (at most NAMED_PARAMETERS parameters: a
 * group commit's INSERT of many rows is a new text for each number of rows, and each would be
 * kept by every connection), and no more than MAX_NAMED of them, so what the server keeps for each
 * connection stays small. The server still plans each run with its values (the connection's
 * plan_cache_mode, openPostgresEngine): a plan made once for any values read whole tables where a
 * probe by index was right.
 */
interface Text {
  text: string
  /** The prepared statement's name, or undefined for a text sent whole each time. */
  name: string | undefined
}
const TEXTS = new Map<string, Text>()
const MAX_TEXTS = 4_096
const MAX_NAMED = 512
const NAMED_PARAMETERS = 200
let named = 0
const text = (sql: string): Text => {
  let known = TEXTS.get(sql)
  if (known === undefined) {
    if (TEXTS.size >= MAX_TEXTS) TEXTS.clear()
    const numbered = postgresText(sql)
    const parameters = Math.max(0, ...Array.from(numbered.matchAll(/\$(\d+)/g), (m) => Number(m[1])))
    known = { text: numbered, name: named < MAX_NAMED && parameters <= NAMED_PARAMETERS ? `hookloop_${++named}` : undefined }
    TEXTS.set(sql, known)
  }
  return known
}

/** A statement as pg sends it: prepared under `name`, or sent whole without one. */
const queryOf = (known: Text, name: string | undefined, params: readonly unknown[]): pg.QueryConfig => ({ text: known.text, ...(name ? { name } : {}), values: params as unknown[] })

/**
 * A prepared statement whose table changed under it since it was prepared (a migration, a column
 * added): PostgreSQL refuses to run it with a different row shape. The text is sent whole from
 * then on.
 */
const preparedOutOfDate = (error: unknown) => (error as { code?: unknown } | null)?.code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message))

function engineOver(db: Queryable, where: string, reach: Reach | null, pipelined: pg.Pool | null = null): SqlEngine {
  // The pool's statements tell `reach` what became of them; a transaction's are told once, by transaction().
  const told = async <T>(work: Promise<T>): Promise<T> => {
    if (!reach) return work
    try {
      const result = await work
      reach.answered()
      return result
    } catch (error) {
      reach.failed(error)
      throw error
    }
  }
  const query = (sql: string, params: readonly unknown[] = []) => {
    const known = text(sql)
    const run = (name: string | undefined) => db.query(queryOf(known, name, params))
    const name = known.name
    return told(
      run(name).catch((error: unknown) => {
        if (!name || !preparedOutOfDate(error)) throw error
        known.name = undefined
        // Alone, sent again whole; inside a transaction, the transaction has failed: its caller's.
        if (!reach) throw error
        return run(undefined)
      }),
    )
  }
  return {
    kind: 'postgres',
    where,
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql, params): Promise<SqlRunResult> => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    exec: async (sql) => void (await told(db.query(sql))),
    async transaction<R>(work: (tx: SqlEngine) => Promise<R>): Promise<R> {
      if (!reach) throw new Error('a transaction inside a transaction: use the tx you were given')
      const client = await told((db as pg.Pool).connect())
      // A connection the server cut goes out of the pool instead of back into it. Cut between two
      // statements, the client says so as an 'error' event (the pool listens only to idle ones):
      // heard here, and the next statement fails with it.
      let cut: Error | undefined
      const onCut = (error: Error) => (cut = error)
      client.on('error', onCut)
      try {
        await client.query('BEGIN')
        const result = await work(engineOver(client, where, null))
        await client.query('COMMIT')
        reach.answered()
        return result
      } catch (error) {
        if (isConnectionLoss(error)) cut = error instanceof Error ? error : new Error(String(error))
        else await client.query('ROLLBACK').catch(() => undefined)
        reach.failed(error)
        throw error
      } finally {
        client.off('error', onCut)
        client.release(cut)
      }
    },
    async transactionAtOnce(statements: readonly SqlStatement[]): Promise<SqlRunResult[]> {
      if (!reach || !pipelined) throw new Error('a transaction inside a transaction: use the tx you were given')
      const client = await told(pipelined.connect())
      let cut: Error | undefined
      const onCut = (error: Error) => (cut = error)
      client.on('error', onCut)
      try {
        // All sent before any answer is read. Each statement is its own sync point: one that fails
        // aborts the transaction, the ones after it are refused for that, and COMMIT then rolls
        // back, so the connection goes back to the pool outside any transaction.
        const answers = await Promise.allSettled([
          client.query('BEGIN'),
          ...statements.map((st) => {
            const known = text(st.sql)
            return client.query(queryOf(known, known.name, st.params ?? []))
          }),
          client.query('COMMIT'),
        ])
        const failed = answers.find((a) => a.status === 'rejected')
        if (failed) throw failed.reason
        reach.answered()
        return answers.slice(1, -1).map((a) => ({ changes: (a as PromiseFulfilledResult<pg.QueryResult>).value.rowCount ?? 0 }))
      } catch (error) {
        if (isConnectionLoss(error)) cut = error instanceof Error ? error : new Error(String(error))
        reach.failed(error)
        throw error
      } finally {
        client.off('error', onCut)
        client.release(cut)
      }
    },
    close: async () => {
      if (!reach) return
      reach.close()
      await (db as pg.Pool).end()
      await pipelined?.end()
    },
    ...(reach ? { reach } : {}),
  }
}
