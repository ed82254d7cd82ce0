// The SqlWriter on a worker thread with its own connection to the same file (WAL: reads on the
// caller's connection see every row as soon as its commit is acknowledged). The caller's event
// loop only posts batches and reads acknowledgements; statement runs, the commit and WAL
// checkpoints happen beside it. Same guarantees as the inline writer: one transaction per batch
// of writes (batches that queue up while the thread commits join the next transaction), each
// write's promise settles after its commit, a failed shared transaction is retried write by write.
import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { WriteSql } from './changes'
import { encodeWrites, positional, promiseWrite, type SqlWriter, type WriteOp } from './sql-writer'

export interface SqlWriterThreadOptions {
  /** The SQLite file (already created and migrated by openDatabase). */
  file: string
  /** better-sqlite3's addon for another ABI (Electron), as given to openDatabase. */
  nativeBinding?: string
  /** Statement name → SQL with named parameters. */
  statements: Readonly<Record<string, WriteSql>>
  /** Extra pragmas for the thread's connection, e.g. 'cache_size = -65536'. */
  pragmas?: readonly string[]
}

// Plain JavaScript, evaluated in the thread (no bundler involved: it runs the same in tests, the
// CLI and the app). Acknowledges batches by sequence number on a port of its own, then bumps a
// shared counter: flushNow() sleeps on that counter and reads the acks synchronously.
const THREAD_SOURCE = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads')
const Database = require(workerData.driver)
const signals = new Int32Array(workerData.shared)
const acks = workerData.acks
let db
const statements = []
try {
  db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {})
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  for (const p of workerData.pragmas) db.pragma(p)
  for (const { sql, arity } of workerData.statements) statements.push({ statement: db.prepare(sql), arity })
} catch (error) {
  parentPort.postMessage({ type: 'fatal', message: String((error && error.message) || error) })
  throw error
}
// A batch arrives flat: [statement index, its values in placeholder order, …]; \`ends\` marks where
// each write (a unit that commits together) ends.
const runItem = (data, from, to) => {
  for (let i = from; i < to; ) {
    const s = statements[data[i]]
    const values = data.slice(i + 1, i + 1 + s.arity)
    for (let k = 0; k < values.length; k++) {
      const v = values[k]
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) values[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength)
    }
    s.statement.run(values)
    i += 1 + s.arity
  }
}
const runMessage = (m) => {
  if (m.blobs) { for (const i of m.blobs) m.data[i] = Buffer.from(m.data[i], 'latin1'); m.blobs = null }
  let from = 0
  for (const end of m.ends) { runItem(m.data, from, end); from = end }
}
const commitAll = db.transaction((messages) => { for (const m of messages) runMessage(m) })
const commitOne = db.transaction((data, from, to) => runItem(data, from, to))
const describe = (e) => String((e && e.message) || e)
parentPort.on('message', (first) => {
  const messages = []
  let closing = first.type === 'close'
  if (!closing) messages.push(first)
  for (let next = receiveMessageOnPort(parentPort); next !== undefined && !closing; next = receiveMessageOnPort(parentPort)) {
    if (next.message.type === 'close') closing = true
    else messages.push(next.message)
  }
  if (messages.length > 0) {
    let results
    try {
      commitAll(messages)
      results = messages.map((m) => ({ seq: m.seq, errors: null }))
    } catch {
      for (const m of messages) if (m.blobs) { for (const i of m.blobs) m.data[i] = Buffer.from(m.data[i], 'latin1'); m.blobs = null }
      results = messages.map((m) => ({
        seq: m.seq,
        errors: m.ends.map((end, k) => { try { commitOne(m.data, k === 0 ? 0 : m.ends[k - 1], end); return null } catch (e) { return describe(e) } }),
      }))
    }
    acks.postMessage(results)
    Atomics.add(signals, 0, 1)
    Atomics.notify(signals, 0)
  }
  if (closing) { db.close(); acks.close(); parentPort.close() }
})
`

interface Item {
  /** [statement index, values…] per op. */
  data: unknown[]
  /** Indexes in data of byte values, carried as latin1 strings. */
  blobs: number[] | null
  done: (error: Error | null) => void
}

type Ack = Array<{ seq: number; errors: Array<string | null> | null }>

export function createSqlWriterThread(options: SqlWriterThreadOptions): SqlWriter {
  const statements = positional(options.statements)
  const shared = new SharedArrayBuffer(4)
  const signals = new Int32Array(shared) // bumped by the thread after each ack it sends
  const { port1: acks, port2: threadAcks } = new MessageChannel()
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    transferList: [threadAcks],
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file: options.file,
      nativeBinding: options.nativeBinding,
      statements: [...statements.values()].map((s) => ({ sql: s.sql, arity: s.names.length })),
      pragmas: options.pragmas ?? [],
      shared,
      acks: threadAcks,
    },
  })
  let queue: Item[] = []
  const inFlight = new Map<number, Item[]>()
  let seq = 0
  let immediate: NodeJS.Immediate | null = null
  let fatal: Error | null = null
  let closed = false
  // The thread and its port keep the process alive only while writes are on their way: a writer
  // nobody closes must not hold a finished process open.
  let referenced = false
  const setReferenced = (on: boolean) => {
    if (on === referenced) return
    referenced = on
    if (on) {
      worker.ref()
      acks.ref()
    } else {
      worker.unref()
      acks.unref()
    }
  }
  setReferenced(false)

  function settle(n: number, errors: Array<string | null> | null): void {
    const items = inFlight.get(n)
    if (!items) return
    inFlight.delete(n)
    if (inFlight.size === 0 && queue.length === 0) setReferenced(false)
    items.forEach((item, i) => {
      const error = errors?.[i] ?? null
      item.done(error === null ? null : new Error(error))
    })
  }
  const failAll = (error: Error) => {
    for (const n of [...inFlight.keys()]) settle(n, (inFlight.get(n) ?? []).map(() => error.message))
    // No ack will come to send what queued meanwhile: it fails now too.
    if (queue.length > 0) post()
  }

  acks.on('message', (ack: Ack) => {
    for (const { seq: n, errors } of ack) settle(n, errors)
    // The thread is free: what queued up while it committed goes now, as one batch.
    if (inFlight.size === 0 && queue.length > 0) post()
  })
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'fatal') fatal = new Error(`the writer thread cannot open ${options.file}: ${message.message ?? ''}`)
  })
  worker.on('error', (error) => {
    fatal ??= error
    failAll(fatal)
  })
  worker.on('exit', () => {
    if (!closed) {
      fatal ??= new Error('the writer thread stopped')
      failAll(fatal)
    }
  })

  function submit(ops: readonly WriteOp[], done: (error: Error | null) => void): void {
    if (closed) {
      done(new Error('the writer thread is closed'))
      return
    }
    let data: unknown[]
    try {
      data = encodeWrites(statements, ops)
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)))
      return
    }
    // Bytes travel as latin1 strings: one copy into the message, where a Buffer would be cloned
    // with its whole backing memory block (often a socket's 64 KiB read buffer) or need an
    // exact-size copy first.
    let blobs: number[] | null = null
    for (let i = 0; i < data.length; i++) {
      const v = data[i]
      if (Buffer.isBuffer(v)) {
        data[i] = v.toString('latin1')
        ;(blobs ??= []).push(i)
      }
    }
    queue.push({ data, done, blobs })
    setReferenced(true)
    // One batch at a time: while the thread commits, writes gather here and go together when it
    // acknowledges (fewer messages and wake-ups; the thread would join them in one transaction
    // anyway). With nothing in flight, the batch goes at the end of this event-loop turn.
    if (inFlight.size === 0) immediate ??= setImmediate(postIfIdle)
  }

  function postIfIdle(): void {
    immediate = null
    if (inFlight.size === 0) post()
  }

  /** Posts what is queued as one batch; returns its sequence number (0 when nothing was queued). */
  function post(): number {
    if (immediate) {
      clearImmediate(immediate)
      immediate = null
    }
    if (queue.length === 0) return 0
    const items = queue
    queue = []
    const n = ++seq
    inFlight.set(n, items)
    if (fatal) {
      settle(n, items.map(() => (fatal as Error).message))
      return n
    }
    const data: unknown[] = []
    const ends: number[] = []
    let blobs: number[] | null = null
    for (const item of items) {
      if (item.blobs) for (const i of item.blobs) (blobs ??= []).push(data.length + i)
      for (const v of item.data) data.push(v)
      ends.push(data.length)
    }
    worker.postMessage({ type: 'batch', seq: n, data, ends, blobs })
    return n
  }

  /** Blocks until every batch up to `last` is answered, settling each ack read on the way. */
  function waitFor(last: number): void {
    const open = () => [...inFlight.keys()].some((n) => n <= last)
    while (open()) {
      const seen = Atomics.load(signals, 0)
      for (let m = receiveMessageOnPort(acks); m !== undefined; m = receiveMessageOnPort(acks)) {
        for (const { seq: n, errors } of m.message as Ack) settle(n, errors)
      }
      if (!open()) return
      if (fatal) {
        failAll(fatal)
        return
      }
      Atomics.wait(signals, 0, seen, 1000)
    }
  }

  return {
    write: (ops) => promiseWrite(submit, ops),
    submit,
    flushNow() {
      post()
      waitFor(seq)
    },
    pending: () => queue.length + [...inFlight.values()].reduce((sum, items) => sum + items.length, 0),
    close() {
      if (closed) return
      try {
        post()
        waitFor(seq)
      } finally {
        closed = true
        worker.postMessage({ type: 'close' })
        acks.close()
        setReferenced(false)
      }
    },
  }
}
