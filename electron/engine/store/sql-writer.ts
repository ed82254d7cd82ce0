import type { Database, Statement } from 'better-sqlite3'
import { storeChanges, type WriteSql } from './changes'
import { pickLanes, type Lanes } from './sql-writer-lanes'

// The group-commit writer: the one queue, batch, retry and waiter logic behind every write path
// (the sender's attempts, the receiver's captures). Every write queued during one turn of the
// event loop is committed in ONE transaction on the next turn (setImmediate): a commit costs far
// more than the statements in it. Each write is a unit — its statements commit together or not at
// all — and it is settled only once the commit is on disk (WAL, synchronous = NORMAL), so a caller
// can wait for "recorded" before acting on it. One batch is committed at a time: writes that queue
// meanwhile go together as the next batch. With `lanes`, large writes (bodies of several hundred
// KB and more) are committed apart from small ones, and small ones go first (sql-writer-lanes.ts):
// an ordinary write waits for at most one batch of large ones, not for all of them.
//
// When a shared transaction fails, one of two policies applies:
// - by default each write is retried in a transaction of its own, so one bad write fails alone;
// - with `keep` (the receiver: nothing captured is lost) the batch goes back, whole and in order,
//   in front of the queue and is retried every `retryMs`; whoever waits on it is told it failed.
//
// Two transports commit a batch: inline (the caller's connection, on its thread; below) and a
// worker thread with its own connection to the same file (sql-writer-thread.ts), which moves the
// SQLite work off the event loop.

/** One statement run: the statement's name (a key of the writer's statement map) and its named parameters. */
export type WriteOp = readonly [statement: string, params: Record<string, unknown>]

export interface SqlWriter {
  /** Queue statements that commit together; resolves once committed, rejects if they cannot be. */
  write(ops: readonly WriteOp[]): Promise<void>
  /**
   * The same, told through `done` (null = committed), which runs synchronously where the commit
   * is learnt — inside flushNow() when that is where — so a caller can act on a failure at once.
   * `stamp` runs once, just before the batch is committed; parameter values are read after it.
   */
  submit(ops: readonly WriteOp[], done: (error: Error | null) => void, stamp?: () => void, options?: SubmitOptions): void
  /** Resolves once every write queued so far is committed; rejects if one of them failed. */
  committed(): Promise<void>
  /** Commit everything queued now, synchronously. Throws if a kept batch stays queued. */
  flushNow(): void
  /** Writes queued or being committed. */
  pending(): number
  /** Commit what is left and release the transport (a thread ends); later writes are refused. */
  close(): void
}

export interface SubmitOptions {
  /** What this write depends on, for `lanes`: writes sharing a key commit in the order queued. */
  keys?: readonly (string | number)[]
  /** For `lanes`: the bytes of its byte values, when the caller knows them (else they are counted). */
  bytes?: number
  /** In `keep` mode: told each time a batch holding this write failed (the write stays queued). */
  failed?: (error: Error) => void
}

export interface SqlWriterOptions {
  /** Commit large writes apart from small ones, small ones first (see sql-writer-lanes.ts). */
  lanes?: Lanes
  /** Keep a failed batch queued and retry it instead of failing its writes. */
  keep?: {
    onError: (error: Error, pending: number) => void
    /** Retry interval after a failed commit, default 1 s (real time: the disk does not follow a virtual clock). */
    retryMs?: number
  }
}

/** A batch as transports see it: [statement index, values in placeholder order, …] per op. */
export interface EncodedBatch {
  data: unknown[]
  /** Where each write ends in `data`. */
  ends: number[]
  /** Indexes in data of byte values (Buffer or Uint8Array) the transport copies if it must. */
  blobs: number[] | null
  /**
   * Byte values of parameters the statement lets the writer take (WriteSql.takes): a transport may
   * move their memory instead of copying it (the caller's Buffer is then empty). Where each came
   * from, so a kept batch can put the bytes back for its retry.
   */
  taken: Array<{ index: number; params: Record<string, unknown>; name: string }> | null
}

/**
 * Commits one batch and calls `settle` once: null when all of it committed, an Error when the
 * shared transaction failed and `split` is off, else one error (or null) per write.
 */
export interface WriteTransport {
  commit(batch: EncodedBatch, split: boolean, settle: (result: Error | ReadonlyArray<Error | null> | null) => void): void
  /** Blocks until the batch being committed is settled (a no-op where commit() settles at once). */
  wait(): void
  close(): void
}

export interface Positional {
  /** The SQL, with positional \`?\` placeholders (WriteSql.sql). */
  sql: string
  /** Parameter name of each \`?\`, in order (WriteSql.params). */
  names: readonly string[]
  /** Parameters whose byte values the writer may take (WriteSql.takes). */
  takes: ReadonlySet<string>
  /** The statement for n rows on PostgreSQL (WriteSql.rows). */
  rows: ((n: number) => string) | undefined
  index: number
}

// Writes are run with positional parameters: an array binds without a key lookup per column, and
// a flat array of values posts to the writer thread for less than named rows (postMessage went
// from ≈ 13 % to 8–11 % of the sender's event loop). Each statement is written with `?`s and
// names its parameters in order (WriteSql.params), so its SQL is bound as written, never
// rewritten; each write is encoded as [statement index, values in that order, …].
export function positional(sql: Readonly<Record<string, WriteSql>>): Map<string, Positional> {
  const out = new Map<string, Positional>()
  Object.entries(sql).forEach(([name, { sql: text, params, takes, rows }], index) => out.set(name, { sql: text, names: params, takes: new Set(takes ?? []), rows, index }))
  return out
}

/** Appends `ops` to `batch` as [statement index, values…] per op; throws (appending nothing) on an unknown statement or a missing parameter. */
function encodeInto(statements: ReadonlyMap<string, Positional>, ops: readonly WriteOp[], batch: EncodedBatch): void {
  const { data } = batch
  const start = data.length
  const blobsStart = batch.blobs?.length ?? 0
  const takenStart = batch.taken?.length ?? 0
  try {
    for (const [name, params] of ops) {
      const statement = statements.get(name)
      if (!statement) throw new Error(`unknown write statement ${name}`)
      data.push(statement.index)
      for (const param of statement.names) {
        if (!(param in params)) throw new Error(`write statement ${name}: missing parameter ${param}`)
        const value = params[param]
        if (value instanceof Uint8Array) {
          if (statement.takes.has(param)) (batch.taken ??= []).push({ index: data.length, params, name: param })
          else (batch.blobs ??= []).push(data.length)
        }
        data.push(value)
      }
    }
  } catch (error) {
    data.length = start
    if (batch.blobs) batch.blobs.length = blobsStart
    if (batch.taken) batch.taken.length = takenStart
    throw error
  }
  batch.ends.push(data.length)
}

interface Item {
  /** Order of submission. */
  seq: number
  ops: readonly WriteOp[]
  done: (error: Error | null) => void
  stamp: (() => void) | undefined
  failed: ((error: Error) => void) | undefined
  keys: readonly (string | number)[] | undefined
  bytes: number
}

/** Waits for every write up to `upTo` (a seq) to be committed. */
interface Waiter {
  upTo: number
  resolve: () => void
  reject: (error: Error) => void
}

function byteSize(ops: readonly WriteOp[]): number {
  let bytes = 0
  for (const [, params] of ops) {
    for (const name in params) {
      const value = params[name]
      if (value instanceof Uint8Array) bytes += value.byteLength
    }
  }
  return bytes
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))

/** The writer over a transport: `statements` are the ones the transport prepared (same names, same order). */
export function createSqlWriter(statements: ReadonlyMap<string, Positional>, transport: WriteTransport, options: SqlWriterOptions = {}): SqlWriter {
  const keep = options.keep
  const retryMs = keep?.retryMs ?? 1000
  // In order of seq: what is queued, and the batch being committed.
  let queue: Item[] = []
  let waiters: Waiter[] = []
  let inFlight: Item[] | null = null
  let nextSeq = 0
  let immediate: NodeJS.Immediate | null = null
  let retry: NodeJS.Timeout | null = null
  let closed = false
  // Kept batches that failed so far, and the last failure (what flushNow throws).
  let failures = 0
  let lastError: Error | null = null

  const schedule = () => {
    if (!immediate && !inFlight && !closed) immediate = setImmediate(flush)
  }

  /** Resolves the waiters whose writes are all committed (none of them queued or in flight). */
  const resolveWaiters = () => {
    const oldest = Math.min(queue[0]?.seq ?? Infinity, inFlight?.[0]?.seq ?? Infinity)
    if (waiters.length === 0 || waiters[0]!.upTo >= oldest) return
    const done = waiters.filter((w) => w.upTo < oldest)
    waiters = waiters.filter((w) => w.upTo >= oldest)
    for (const w of done) w.resolve()
  }

  /** Rejects the waiters that wait on the write `seq` (or a later one). */
  const rejectWaiters = (seq: number, error: Error) => {
    const failed = waiters.filter((w) => w.upTo >= seq)
    waiters = waiters.filter((w) => w.upTo < seq)
    for (const w of failed) w.reject(error)
  }

  /** Sends what is queued as one batch (with lanes: the part that goes first), unless one is being committed (it goes when that settles). */
  function flush(): void {
    if (immediate) {
      clearImmediate(immediate)
      immediate = null
    }
    if (inFlight) return
    if (queue.length === 0) return resolveWaiters()
    let queued = queue
    queue = []
    if (options.lanes) ({ send: queued, rest: queue } = pickLanes(queued, options.lanes))
    const items: Item[] = []
    const batch: EncodedBatch = { data: [], ends: [], blobs: null, taken: null }
    for (const item of queued) {
      if (item.stamp) {
        item.stamp()
        item.stamp = undefined // once: a kept batch keeps the time it was first committed at
      }
      try {
        encodeInto(statements, item.ops, batch)
        items.push(item)
      } catch (error) {
        item.done(asError(error)) // a bug in the caller, not the disk: never retried
      }
    }
    inFlight = items
    if (items.length === 0) return settle(null)
    transport.commit(batch, !keep, settle)
  }

  function settle(result: Error | ReadonlyArray<Error | null> | null): void {
    const items = inFlight as Item[]
    inFlight = null
    if (result instanceof Error && keep) {
      // Back in the queue, in order among anything queued meanwhile, and tried again later.
      failures++
      lastError = result
      queue = items.concat(queue).sort((a, b) => a.seq - b.seq)
      if (items.length > 0) rejectWaiters((items[0] as Item).seq, result)
      for (const item of items) item.failed?.(result)
      keep.onError(result, queue.length)
      if (!retry && !closed) {
        retry = setTimeout(() => {
          retry = null
          flush()
        }, retryMs)
      }
      return
    }
    items.forEach((item, i) => {
      const error = result === null ? null : result instanceof Error ? result : (result[i] ?? null)
      if (error) rejectWaiters(item.seq, error)
      item.done(error)
    })
    resolveWaiters()
    // What queued while this batch was committed goes now.
    if (queue.length > 0) flush()
  }

  function submit(ops: readonly WriteOp[], done: (error: Error | null) => void, stamp?: () => void, extra?: SubmitOptions): void {
    if (closed) return done(new Error('the writer is closed'))
    queue.push({ seq: nextSeq++, ops, done, stamp, failed: extra?.failed, keys: extra?.keys, bytes: options.lanes ? (extra?.bytes ?? byteSize(ops)) : 0 })
    schedule()
  }

  function flushNow(): void {
    if (inFlight) transport.wait()
    while (inFlight || queue.length > 0) {
      const seen = failures
      if (!inFlight) flush()
      if (inFlight) transport.wait()
      if (failures !== seen && !inFlight && queue.length > 0) throw lastError as Error
    }
  }

  return {
    write: (ops) => new Promise<void>((resolve, reject) => submit(ops, (error) => (error ? reject(error) : resolve()))),
    submit,
    committed() {
      if (queue.length === 0 && !inFlight) return Promise.resolve()
      return new Promise((resolve, reject) => {
        waiters.push({ upTo: nextSeq - 1, resolve, reject })
        schedule()
      })
    },
    flushNow,
    pending: () => queue.length + (inFlight?.length ?? 0),
    close() {
      if (closed) return
      closed = true
      if (retry) clearTimeout(retry)
      retry = null
      try {
        flushNow()
      } finally {
        transport.close()
      }
    },
  }
}

/** Group commit on the caller's own connection and thread. */
export function createInlineWriter(db: Database, sql: Readonly<Record<string, WriteSql>>, options?: SqlWriterOptions): SqlWriter {
  const statements = positional(sql)
  const changes = storeChanges(db)
  const tables = [...new Set(Object.values(sql).flatMap((s) => s.tables))]
  const prepared: Array<{ statement: Statement; arity: number }> = []
  for (const s of statements.values()) prepared[s.index] = { statement: db.prepare(s.sql), arity: s.names.length }
  const run = (data: readonly unknown[], from: number, to: number) => {
    for (let i = from; i < to; ) {
      const s = prepared[data[i] as number] as { statement: Statement; arity: number }
      s.statement.run(data.slice(i + 1, i + 1 + s.arity))
      i += 1 + s.arity
    }
  }
  const commitAll = db.transaction((batch: EncodedBatch) => run(batch.data, 0, batch.data.length))
  const commitOne = db.transaction(run)
  const transport: WriteTransport = {
    commit(batch, split, settle) {
      try {
        commitAll(batch)
      } catch (error) {
        if (!split) return settle(asError(error))
        return settle(
          batch.ends.map((end, k) => {
            try {
              commitOne(batch.data, k === 0 ? 0 : (batch.ends[k - 1] as number), end)
              changes.wrote(tables) // listeners read on a later turn, after this commit
              return null
            } catch (one) {
              return asError(one)
            }
          }),
        )
      }
      changes.wrote(tables) // listeners read on a later turn, after this commit
      settle(null)
    },
    wait: () => {},
    close: () => {},
  }
  return createSqlWriter(statements, transport, options)
}
