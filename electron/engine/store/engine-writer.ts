// The group-commit writer (sql-writer.ts: one queue, batches, `keep` retries, waiters) over a
// SqlEngine: each batch is one transaction on the engine, its statements sent at once
// (transactionAtOnce: one round trip on PostgreSQL), so the same write paths commit to a team's
// PostgreSQL. The statements are the same WriteSql texts the SQLite transports bind
// (carried over by postgres-dialect.ts). After a commit on PostgreSQL every process that listens
// is told which tables changed (NOTIFY, store-notify.ts commitNotices): a listener hears it once
// the rows can be read, never before.
//
// One difference from the SQLite transports: a commit cannot be waited for synchronously, so
// flushNow() refuses with a commit in flight; code that reads right after writing awaits
// committed() instead.
import { isConnectionLoss } from './postgres-engine'
import { commitNotices } from './store-notify'
import type { SqlEngine, SqlStatement } from './sql-engine'
import type { WriteSql } from './changes'
import { createSqlWriter, positional, type EncodedBatch, type SqlWriter, type SqlWriterOptions, type WriteTransport } from './sql-writer'

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))

/**
 * Whether `error` is a row refused because its primary key is taken. Every row the writers insert
 * carries an id from the store's sequences, which no other process is given, so after a commit
 * whose answer was lost such a refusal means that commit went through and the row is there.
 */
const primaryKeyTaken = (error: unknown): boolean => {
  const e = error as { code?: unknown; constraint?: unknown } | null
  return e?.code === '23505' && typeof e.constraint === 'string' && e.constraint.endsWith('_pkey')
}

/** Rows in one multi-row statement at most, and parameters (PostgreSQL's protocol allows 65 535). */
const MAX_ROWS_PER_STATEMENT = 500
const MAX_PARAMETERS = 60_000

/**
 * For a plain `INSERT INTO t (…) VALUES (?, …)` (nothing after its one row of values: no ON
 * CONFLICT, no RETURNING), its text for n rows; null for any other statement, which runs alone.
 */
function multiRowInsert(sql: string): ((n: number) => string) | null {
  const match = /^(\s*INSERT\s+INTO\s+\w+\s*\([^)]*\)\s*VALUES\s*)(\((?:\s*\?\s*,)*\s*\?\s*\))\s*$/i.exec(sql)
  if (!match) return null
  const [, head, row] = match as unknown as [string, string, string]
  const texts = new Map<number, string>()
  return (n) => {
    let text = texts.get(n)
    if (text === undefined) texts.set(n, (text = head + Array.from({ length: n }, () => row).join(', ')))
    return text
  }
}

export interface EngineWriterOptions extends SqlWriterOptions {
  /**
   * On PostgreSQL, the order a batch's statements are sent in, by statement name: lower first,
   * equal ranks (and names not given, rank 0) in the order queued. The caller vouches that a
   * statement may go ahead of any of a higher rank queued before it (they touch different rows,
   * and neither reads what the other writes), so the batch commits the same rows; the writes'
   * runs then meet and each goes as one statement (WriteSql.rows).
   */
  ranks?: Readonly<Record<string, number>>
}

export function createEngineWriter(engine: SqlEngine, sql: Readonly<Record<string, WriteSql>>, options?: EngineWriterOptions): SqlWriter {
  const statements = positional(sql)
  const byIndex: Array<{ sql: string; arity: number; rank: number }> = []
  for (const [name, s] of statements) byIndex[s.index] = { sql: s.sql, arity: s.names.length, rank: options?.ranks?.[name] ?? 0 }
  const ranked = byIndex.some((s) => s.rank !== 0)
  const tables = [...new Set(Object.values(sql).flatMap((s) => s.tables))].sort().join(',')
  let committing = false
  // A commit that failed with the connection (the server stopped, the network dropped) may have
  // committed all the same: COMMIT reached the server and its answer was lost. The kept batch is
  // sent again, and would then be refused for ever on its own ids. While in doubt, a batch refused
  // for a taken primary key is committed write by write, and a write refused so counts as stored
  // (a batch is one transaction: a write's first row there means all of it is). Cleared by a
  // commit that goes through.
  let inDoubt = false

  const postgres = engine.kind === 'postgres'
  // On PostgreSQL every statement is parsed, planned and answered on its own, so a group commit
  // of n captures would pay that n times: a run of the same write goes as one statement of many
  // rows (a plain INSERT's row repeated, or the write's own WriteSql.rows). The rows' BEFORE
  // triggers (the counters, the commit order) still run row by row, in order, each seeing the
  // rows before it (PostgreSQL's rule for rows of one command); the row that fails fails the
  // statement, as it would have failed the transaction alone.
  const multiRow: Array<((n: number) => string) | null> = []
  for (const s of statements.values()) multiRow[s.index] = postgres ? (s.rows ?? multiRowInsert(s.sql)) : null
  // None of a commit's statements needs another's answer, so they leave together
  // (transactionAtOnce): on PostgreSQL a group commit is one round trip, BEGIN to COMMIT.
  const statementsOf = (data: readonly unknown[], from: number, to: number): SqlStatement[] => {
    const out: SqlStatement[] = []
    // Where each statement starts in data, in the order sent: queued, or by rank (options.ranks).
    const starts: number[] = []
    for (let i = from; i < to; i += 1 + (byIndex[data[i] as number] as { arity: number }).arity) starts.push(i)
    if (ranked && postgres) starts.sort((a, b) => (byIndex[data[a] as number] as { rank: number }).rank - (byIndex[data[b] as number] as { rank: number }).rank || a - b)
    for (let k = 0; k < starts.length; ) {
      const index = data[starts[k] as number] as number
      const s = byIndex[index] as { sql: string; arity: number }
      const rows = multiRow[index]
      const most = rows ? Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMETERS / Math.max(1, s.arity)))) : 1
      const params: unknown[] = []
      let n = 0
      // A run: the statements of the same text one after the other (the capture writer's two
      // request INSERTs share theirs).
      while (k < starts.length && n < most && (n === 0 || (byIndex[data[starts[k] as number] as number] as { sql: string }).sql === s.sql)) {
        const at = starts[k] as number
        for (let p = 1; p <= s.arity; p++) params.push(data[at + p])
        k++
        n++
      }
      out.push({ sql: n === 1 || !rows ? s.sql : rows(n), params })
    }
    return out
  }
  // Every process hears which tables changed, told once the commit is visible (commitNotices says
  // why not inside it). A commit that writes requests takes their locks in the counters' triggers
  // (request-locks.ts).
  const notices = postgres ? commitNotices(engine, tables) : null
  const commit = async (data: readonly unknown[], from: number, to: number) => {
    await engine.transactionAtOnce(statementsOf(data, from, to))
    notices?.told()
  }

  /** Each write of `batch` in a transaction of its own: null for stored (in doubt: found stored), else why not. */
  const writeByWrite = async (batch: EncodedBatch): Promise<Array<Error | null>> => {
    const results: Array<Error | null> = []
    for (let k = 0; k < batch.ends.length; k++) {
      try {
        await commit(batch.data, k === 0 ? 0 : (batch.ends[k - 1] as number), batch.ends[k] as number)
        results.push(null)
      } catch (one) {
        results.push(inDoubt && primaryKeyTaken(one) ? null : asError(one))
      }
    }
    return results
  }

  const transport: WriteTransport = {
    commit(batch: EncodedBatch, split, settle) {
      committing = true
      void (async () => {
        try {
          await commit(batch.data, 0, batch.data.length)
          inDoubt = false
          committing = false
          settle(null)
        } catch (error) {
          if (inDoubt && primaryKeyTaken(error)) {
            const results = await writeByWrite(batch)
            committing = false
            const failed = results.find((r) => r !== null)
            if (!failed) inDoubt = false
            // Kept whole when one write still fails: the ones stored now are found stored next time.
            return settle(split ? results : (failed ?? null))
          }
          if (isConnectionLoss(error)) inDoubt = true
          if (!split) {
            committing = false
            return settle(asError(error))
          }
          // One write that cannot be stored fails alone: each is tried in a transaction of its own.
          const results = await writeByWrite(batch)
          committing = false
          settle(results)
        }
      })()
    },
    wait() {
      if (committing) throw new Error(`a commit to the store at ${engine.where} is awaited, not waited for: await committed() instead of flushNow()`)
    },
    close: () => {},
  }
  return createSqlWriter(statements, transport, options)
}
