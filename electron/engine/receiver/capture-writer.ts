// The receiver's writes (captures, their outcomes, forward legs), through the store's group-commit writer (store/sql-writer.ts) in `keep`
// mode: every row queued during one turn of the event loop is committed in ONE transaction, a
// request's response waits for `committed()` (nothing is answered before it is on disk), and a
// batch whose commit fails stays queued and is retried, so nothing captured is dropped.
// With `thread`, the commits run on a writer thread with its own connection to the same file
// (WAL: the receiver's reads on the main connection see every committed row), beside the HTTP
// server instead of on its event loop.
import type { Database } from 'better-sqlite3'
import { INSERT_FORWARD_LEG_SQL, type ForwardLegWriteRow } from '../store/forward-legs'
import { INSERT_REQUEST_SQL, UPDATE_OUTCOME_SQL, type RequestOutcomeRow, type RequestRow } from '../store/requests'
import { createInlineWriter, type SqlWriterOptions } from '../store/sql-writer'
import { createSqlWriterThread } from '../store/sql-writer-thread'

export interface CaptureWriter {
  /** Queue a row; beforeCommit runs just before its transaction (to stamp the answer's time). */
  insert(row: RequestRow, beforeCommit?: () => void): void
  outcome(row: RequestOutcomeRow): void
  /** Queue a forward leg: it commits with the captures queued before it (its request's row first). */
  leg(row: ForwardLegWriteRow): void
  /** Resolves once every row queued so far is committed; rejects if that commit failed. */
  committed(): Promise<void>
  /** Commit now, synchronously (before a read, and at close). Throws if the commit fails. */
  flushNow(): void
  pending(): number
  /** Stop the retry timer and commit what is left. */
  close(): void
}

export interface CaptureWriterOptions {
  db: Database
  /** Commit on a writer thread (file databases only); nativeBinding as given to openDatabase. */
  thread?: boolean | { nativeBinding?: string } | undefined
  onError: (error: Error, pending: number) => void
  retryMs?: number
}

const STATEMENTS = { insert: INSERT_REQUEST_SQL, outcome: UPDATE_OUTCOME_SQL, leg: INSERT_FORWARD_LEG_SQL } as const
// Each row's own settlement is not needed: a request waits on committed(), a failed batch stays queued.
const ignore = () => {}

export function createCaptureWriter(options: CaptureWriterOptions): CaptureWriter {
  const keep: SqlWriterOptions = { keep: { onError: options.onError, ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }) } }
  const { db, thread } = options
  const nativeBinding = typeof thread === 'object' ? thread.nativeBinding : undefined
  const writer =
    thread && !db.memory
      ? createSqlWriterThread({ file: db.name, statements: STATEMENTS, ...keep, ...(nativeBinding ? { nativeBinding } : {}) })
      : createInlineWriter(db, STATEMENTS, keep)
  return {
    ...writer,
    insert: (row, beforeCommit) => writer.submit([['insert', row as unknown as Record<string, unknown>]], ignore, beforeCommit),
    outcome: (row) => writer.submit([['outcome', row as unknown as Record<string, unknown>]], ignore),
    leg: (row) => writer.submit([['leg', row as unknown as Record<string, unknown>]], ignore),
  }
}
