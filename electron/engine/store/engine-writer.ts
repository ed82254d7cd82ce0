// The group-commit writer (sql-writer.ts: one queue, batches, `keep` retries, waiters) over a
// SqlEngine: each batch is one awaited transaction on the engine, so the same write paths commit
// to a team's PostgreSQL. The statements are the same WriteSql texts the SQLite transports bind
// (carried over by postgres-dialect.ts). A commit on PostgreSQL also tells every process that
// listens which tables changed (NOTIFY, store-notify.ts), in the same transaction: a listener hears
// it exactly when the rows can be read, never before.
//
// One difference from the SQLite transports: a commit cannot be waited for synchronously, so
// flushNow() refuses with a commit in flight; code that reads right after writing awaits
// committed() instead.
import { CHANGES_CHANNEL } from './store-notify'
import type { SqlEngine } from './sql-engine'
import type { WriteSql } from './changes'
import { createSqlWriter, positional, type EncodedBatch, type SqlWriter, type SqlWriterOptions, type WriteTransport } from './sql-writer'

/**
 * The advisory lock a commit that writes `requests` holds on PostgreSQL (per database: per store),
 * beside the migrations' and retention's keys. Each captured row bumps its endpoint's counter row
 * (request_counts, a trigger before each row): two processes committing batches that touch the same
 * counters in a different order would deadlock, and one would be rolled back and retried. Taken
 * first, the lock makes such commits take turns; a group commit holds many rows, so a turn is short.
 * A retention batch takes it too (history-batch.ts): its deletes move the same counters.
 */
export const REQUESTS_WRITE_LOCK = 7_304_151_124

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))

export function createEngineWriter(engine: SqlEngine, sql: Readonly<Record<string, WriteSql>>, options?: SqlWriterOptions): SqlWriter {
  const statements = positional(sql)
  const byIndex: Array<{ sql: string; arity: number }> = []
  for (const s of statements.values()) byIndex[s.index] = { sql: s.sql, arity: s.names.length }
  const tables = [...new Set(Object.values(sql).flatMap((s) => s.tables))].sort().join(',')
  const writesRequests = Object.values(sql).some((s) => s.tables.includes('requests'))
  let committing = false

  const run = async (tx: SqlEngine, data: readonly unknown[], from: number, to: number) => {
    if (writesRequests && engine.kind === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))', [REQUESTS_WRITE_LOCK])
    for (let i = from; i < to; ) {
      const s = byIndex[data[i] as number] as { sql: string; arity: number }
      await tx.run(s.sql, data.slice(i + 1, i + 1 + s.arity))
      i += 1 + s.arity
    }
    if (engine.kind === 'postgres') await tx.run('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, tables])
  }
  const commit = (data: readonly unknown[], from: number, to: number) => engine.transaction((tx) => run(tx, data, from, to))

  const transport: WriteTransport = {
    commit(batch: EncodedBatch, split, settle) {
      committing = true
      void (async () => {
        try {
          await commit(batch.data, 0, batch.data.length)
          committing = false
          settle(null)
        } catch (error) {
          if (!split) {
            committing = false
            return settle(asError(error))
          }
          // One write that cannot be stored fails alone: each is tried in a transaction of its own.
          const results: Array<Error | null> = []
          for (let k = 0; k < batch.ends.length; k++) {
            try {
              await commit(batch.data, k === 0 ? 0 : (batch.ends[k - 1] as number), batch.ends[k] as number)
              results.push(null)
            } catch (one) {
              results.push(asError(one))
            }
          }
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
