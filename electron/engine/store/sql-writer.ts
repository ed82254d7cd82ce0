import type { Database, Statement } from 'better-sqlite3'
import { storeChanges, type WriteSql } from './changes'

// Group commit of named write statements. Every write() queued during one turn of the event loop
// is committed in ONE transaction on the next turn (setImmediate): a commit costs far more than
// the statements in it. Each write() is a unit — its statements commit together or not at all —
// and its promise settles only once the commit is on disk (WAL, synchronous = NORMAL), so a caller
// can wait for "recorded" before acting on it. If the shared transaction fails, each write is
// retried in a transaction of its own, so one bad write does not take the others down.
//
// Two executors behind one interface: inline (the caller's connection, on its thread) and a
// worker thread with its own connection to the same file (sql-writer-thread.ts), which moves the
// SQLite work off the event loop. The inline writer tells its connection's StoreChanges which tables
// each commit wrote; the thread's commits show to other connections as a new data_version.

/** One statement run: the statement's name (a key of the writer's statement map) and its named parameters. */
export type WriteOp = readonly [statement: string, params: Record<string, unknown>]

export interface SqlWriter {
  /** Queue statements that commit together; resolves once committed, rejects if they cannot be. */
  write(ops: readonly WriteOp[]): Promise<void>
  /**
   * The same, told through `done` (null = committed), which runs synchronously where the commit
   * is learnt — inside flushNow() when that is where — so a caller can act on a failure at once.
   * Parameter values are read when submit() is called.
   */
  submit(ops: readonly WriteOp[], done: (error: Error | null) => void): void
  /** Commit everything queued now, synchronously (waits for the thread's commit when threaded). */
  flushNow(): void
  /** Writes queued or being committed. */
  pending(): number
  /** Commit what is left and release the executor (a thread ends). */
  close(): void
}

interface Queued {
  data: unknown[]
  done: (error: Error | null) => void
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)))

/** write() over submit(): a promise settled by `done`. */
export function promiseWrite(submit: SqlWriter['submit'], ops: readonly WriteOp[]): Promise<void> {
  return new Promise<void>((resolve, reject) => submit(ops, (error) => (error ? reject(error) : resolve())))
}

export interface Positional {
  /** The SQL with each named placeholder turned into \`?\`. */
  sql: string
  /** Parameter name of each \`?\`, in order (a name used twice appears twice). */
  names: string[]
  index: number
}

// Writes are run with positional parameters: an array binds without a key lookup per column, and
// a flat array of values posts to the writer thread for less than named rows (postMessage went
// from ≈ 13 % to 8–11 % of the sender's event loop). Named placeholders become `?`s, and each
// write is encoded as [statement index, values in placeholder order, …].
export function positional(sql: Readonly<Record<string, WriteSql>>): Map<string, Positional> {
  const out = new Map<string, Positional>()
  Object.entries(sql).forEach(([name, { sql: text }], index) => {
    const names: string[] = []
    const rewritten = text.replace(/[@:$]([A-Za-z_][A-Za-z0-9_]*)/g, (_m, param: string) => {
      names.push(param)
      return '?'
    })
    out.set(name, { sql: rewritten, names, index })
  })
  return out
}

/** Encodes `ops` as [statement index, values…] per op; `map` may replace each value (e.g. copy a Buffer). */
export function encodeWrites(statements: ReadonlyMap<string, Positional>, ops: readonly WriteOp[], map: (value: unknown) => unknown = (v) => v): unknown[] {
  const data: unknown[] = []
  for (const [name, params] of ops) {
    const statement = statements.get(name)
    if (!statement) throw new Error(`unknown write statement ${name}`)
    data.push(statement.index)
    for (const param of statement.names) {
      if (!(param in params)) throw new Error(`write statement ${name}: missing parameter ${param}`)
      data.push(map(params[param]))
    }
  }
  return data
}

/** Runs encoded writes (encodeWrites) on `db`, statements prepared from `sql`. */
export function prepareWrites(db: Database, sql: Readonly<Record<string, WriteSql>>) {
  const statements = positional(sql)
  const prepared: Array<{ statement: Statement; arity: number }> = []
  for (const s of statements.values()) prepared[s.index] = { statement: db.prepare(s.sql), arity: s.names.length }
  return {
    encode: (ops: readonly WriteOp[]) => encodeWrites(statements, ops),
    run(data: readonly unknown[]): void {
      for (let i = 0; i < data.length; ) {
        const s = prepared[data[i] as number] as { statement: Statement; arity: number }
        s.statement.run(data.slice(i + 1, i + 1 + s.arity))
        i += 1 + s.arity
      }
    },
  }
}

/** Group commit on the caller's own connection and thread. */
export function createInlineWriter(db: Database, sql: Readonly<Record<string, WriteSql>>): SqlWriter {
  const writes = prepareWrites(db, sql)
  const changes = storeChanges(db)
  const tables = [...new Set(Object.values(sql).flatMap((s) => s.tables))]
  const commitAll = db.transaction((items: Queued[]) => {
    for (const item of items) writes.run(item.data)
  })
  const commitOne = db.transaction((data: readonly unknown[]) => writes.run(data))
  let queue: Queued[] = []
  let scheduled: NodeJS.Immediate | null = null

  function flushNow(): void {
    if (scheduled) {
      clearImmediate(scheduled)
      scheduled = null
    }
    if (queue.length === 0) return
    const items = queue
    queue = []
    changes.wrote(tables) // listeners read on a later turn, after this commit
    try {
      commitAll(items)
    } catch {
      for (const item of items) {
        try {
          commitOne(item.data)
          item.done(null)
        } catch (error) {
          item.done(asError(error))
        }
      }
      return
    }
    for (const item of items) item.done(null)
  }

  function submit(ops: readonly WriteOp[], done: (error: Error | null) => void): void {
    let data: unknown[]
    try {
      data = writes.encode(ops)
    } catch (error) {
      done(asError(error))
      return
    }
    queue.push({ data, done })
    scheduled ??= setImmediate(flushNow)
  }

  return {
    write: (ops) => promiseWrite(submit, ops),
    submit,
    flushNow,
    pending: () => queue.length,
    close: flushNow,
  }
}
