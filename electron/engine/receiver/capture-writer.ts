// The receiver's writes (captures, their outcomes, forward legs), through the store's group-commit writer (store/sql-writer.ts) in `keep`
// mode: every row queued during one turn of the event loop is committed in ONE transaction, a
// request's response waits for `committed()` (nothing is answered before it is on disk), and a
// batch whose commit fails stays queued and is retried, so nothing captured is dropped.
// With `thread`, the commits run on a writer thread with its own connection to the same file
// (WAL: the receiver's reads on the main connection see every committed row), beside the HTTP
// server instead of on its event loop.
//
// Large rows (bodies of 256 KiB and more) are committed apart from small ones, small ones first,
// and a request waits for its own row only: an ordinary webhook is not answered after a queue of
// 10 MB bodies but beside it (sql-writer-lanes.ts). A request's row and its outcome, and a
// duplicate and the request it points at, keep their order (their ids are the writes' keys).
// The request's body is taken, not copied, into the writer thread (the receiver does not read it
// again once its row is queued), except a body to be forwarded.
//
// On a team's PostgreSQL (`engine`), the same statements go through the writer over the engine
// (store/engine-writer.ts): each batch one awaited transaction that NOTIFYs the tables it wrote.
// Its commits cannot be waited for synchronously: flushNow() refuses while one is in flight, and
// code that reads right after writing awaits committed().
import type { Database } from 'better-sqlite3'
import { createEngineWriter, type SqlEngine, INSERT_FORWARD_LEG_SQL, INSERT_SCHEMA_VERDICT_SQL, type SchemaVerdictRow, type ForwardLegWriteRow, INSERT_REQUEST_SQL, UPDATE_OUTCOME_SQL, type RequestOutcomeRow, type RequestRow, createInlineWriter, type SqlWriterOptions, createSqlWriterThread } from '../store'

export interface CaptureWriter {
  /**
   * Queue a row; beforeCommit runs just before its transaction (to stamp the answer's time).
   * Returns what the answer waits on: a promise that resolves once this row is committed, or
   * rejects when the batch holding it fails (the row stays queued and is retried).
   * The row's body is taken (the Buffer is empty once committed) unless `keepBody`: a request to
   * be forwarded still sends its body after the row is queued.
   */
  insert(row: RequestRow, beforeCommit?: () => void, keepBody?: boolean): () => Promise<void>
  outcome(row: RequestOutcomeRow): void
  /** Queue a forward leg: it commits with the captures queued before it (its request's row first). */
  leg(row: ForwardLegWriteRow): void
  /** Queue a schema verdict: it commits after its request's row (same key). */
  verdict(row: SchemaVerdictRow): void
  /** Resolves once every row queued so far is committed; rejects if that commit failed. */
  committed(): Promise<void>
  /** Commit now, synchronously (before a read, and at close). Throws if the commit fails. */
  flushNow(): void
  pending(): number
  /** Stop the retry timer and commit what is left. */
  close(): void
}

export interface CaptureWriterOptions {
  /** A data folder's connection (the desktop default: synchronous commits, inline or on a thread). */
  db?: Database
  /** A team's PostgreSQL: used instead of `db` when given. */
  engine?: SqlEngine
  /** Commit on a writer thread (file databases only); nativeBinding as given to openDatabase. */
  thread?: boolean | { nativeBinding?: string } | undefined
  onError: (error: Error, pending: number) => void
  retryMs?: number
}

const STATEMENTS = { insert: { ...INSERT_REQUEST_SQL, takes: ['body'] }, insertKeepingBody: INSERT_REQUEST_SQL, outcome: UPDATE_OUTCOME_SQL, leg: INSERT_FORWARD_LEG_SQL, verdict: INSERT_SCHEMA_VERDICT_SQL } as const
/** A body this large goes in a batch of large rows, a few MB at a time. */
export const LARGE_ROW_BYTES = 256 * 1024
const LANES = { largeBytes: LARGE_ROW_BYTES, batchBytes: 4 * 1024 * 1024 }
// On a team's PostgreSQL a batch's statements are sent grouped, so each kind goes as one statement
// of many rows (store/engine-writer.ts, ranks): the captures' INSERTs first, then the legs, the
// verdicts and the outcomes, each kind in the order queued. Safe because a statement only ever moves
// ahead of others of another kind, and those touch other rows than it reads or writes:
// - a capture's INSERT makes a new row under an id no other write holds, and its triggers
//   (commit_order, the counters) read other requests' endpoint, key and link only, which no leg,
//   verdict or outcome writes; the INSERTs keep their order among themselves, so the rows are
//   numbered and counted in the order queued;
// - a leg, verdict or outcome is queued after its own request's INSERT (same key, so the lanes
//   keep that order too), so moving INSERTs ahead never puts one before the row it names;
// - legs and verdicts are rows of tables of their own, which no other write of a batch reads, and
//   an outcome writes only its row's answer columns, which no trigger, leg or verdict reads.
// A write's statements are one unit either way, and a split retry commits each write alone.
const SEND_RANKS = { insert: 0, insertKeepingBody: 0, leg: 1, verdict: 2, outcome: 3 } as const satisfies Record<keyof typeof STATEMENTS, number>
// An outcome's own settlement is not needed: a failed batch stays queued and is retried.
const ignore = () => {}

/** The row's commit, as a promise made when the answer asks for it (none left unhandled). */
function rowCommit(): { done: (error: Error | null) => void; failed: (error: Error) => void; committed: () => Promise<void> } {
  let stored = false
  let waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = []
  const tell = (error: Error | null) => {
    const told = waiting
    waiting = []
    for (const w of told) {
      if (error) w.reject(error)
      else w.resolve()
    }
  }
  return {
    done(error) {
      stored = error === null
      tell(error)
    },
    failed: tell,
    committed: () => (stored ? Promise.resolve() : new Promise((resolve, reject) => waiting.push({ resolve, reject }))),
  }
}

export function createCaptureWriter(options: CaptureWriterOptions): CaptureWriter {
  const keep: SqlWriterOptions = { lanes: LANES, keep: { onError: options.onError, ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }) } }
  const { db, engine, thread } = options
  const nativeBinding = typeof thread === 'object' ? thread.nativeBinding : undefined
  const writer = (() => {
    if (engine) return createEngineWriter(engine, STATEMENTS, { ...keep, ranks: SEND_RANKS })
    if (!db) throw new Error('a capture writer needs a data folder (db) or a store engine')
    return thread && !db.memory
      ? createSqlWriterThread({ file: db.name, statements: STATEMENTS, ...keep, ...(nativeBinding ? { nativeBinding } : {}) })
      : createInlineWriter(db, STATEMENTS, keep)
  })()
  return {
    ...writer,
    insert(row, beforeCommit, keepBody) {
      const commit = rowCommit()
      const keys = row.duplicate_of === null ? [row.id] : [row.id, row.duplicate_of]
      const bytes = (row.body?.byteLength ?? 0) + (row.response_body?.byteLength ?? 0)
      writer.submit([[keepBody ? 'insertKeepingBody' : 'insert', row as unknown as Record<string, unknown>]], commit.done, beforeCommit, { keys, failed: commit.failed, bytes })
      return commit.committed
    },
    outcome: (row) => writer.submit([['outcome', row as unknown as Record<string, unknown>]], ignore, undefined, { keys: [row.id], bytes: row.response_body?.byteLength ?? 0 }),
    // After its request's row (same key), even when that row is large.
    leg: (row) => writer.submit([['leg', row as unknown as Record<string, unknown>]], ignore, undefined, { keys: [row.request_id] }),
    verdict: (row) => writer.submit([['verdict', row as unknown as Record<string, unknown>]], ignore, undefined, { keys: [row.request_id] }),
  }
}
