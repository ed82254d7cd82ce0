// The SqlWriter's thread transport: a worker thread with its own connection to the same file (WAL:
// reads on the caller's connection see every row as soon as its commit is acknowledged). The
// caller's event loop only posts batches and reads acknowledgements; statement runs, the commit
// and WAL checkpoints happen beside it. Queue, batches, retries and waiters are the writer's
// (sql-writer.ts), the same as inline.
import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { WriteSql } from './changes'
import { createSqlWriter, positional, type EncodedBatch, type SqlWriter, type SqlWriterOptions, type WriteTransport } from './sql-writer'

export interface SqlWriterThreadOptions extends SqlWriterOptions {
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
// CLI and the app). Acknowledges each batch on a port of its own, then bumps a shared counter:
// wait() sleeps on that counter and reads the ack synchronously. The second slot says the thread's
// connection is closed, so close() returns only when the thread no longer holds the file.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
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
// each write (a unit that commits together) ends; \`blobs\` where bytes came as latin1 strings.
const run = (data, from, to) => {
  for (let i = from; i < to; ) {
    const s = statements[data[i]]
    s.statement.run(data.slice(i + 1, i + 1 + s.arity))
    i += 1 + s.arity
  }
}
const commitAll = db.transaction((data) => run(data, 0, data.length))
const commitOne = db.transaction(run)
const describe = (e) => String((e && e.message) || e)
parentPort.on('message', (m) => {
  if (m.type === 'close') {
    db.close()
    acks.close()
    parentPort.close()
    Atomics.store(signals, 1, 1)
    Atomics.notify(signals, 1)
    return
  }
  if (m.blobs) for (const i of m.blobs) m.data[i] = Buffer.from(m.data[i], 'latin1')
  let result = null
  try {
    commitAll(m.data)
  } catch (error) {
    result = m.split
      ? m.ends.map((end, k) => { try { commitOne(m.data, k === 0 ? 0 : m.ends[k - 1], end); return null } catch (e) { return describe(e) } })
      : describe(error)
  }
  acks.postMessage(result)
  Atomics.add(signals, 0, 1)
  Atomics.notify(signals, 0)
})
`

const CLOSE_WAIT_MS = 5000

type Ack = string | Array<string | null> | null

export function createSqlWriterThread(options: SqlWriterThreadOptions): SqlWriter {
  const statements = positional(options.statements)
  const shared = new SharedArrayBuffer(8)
  // [0] bumped by the thread after each ack it sends; [1] set once its connection is closed
  const signals = new Int32Array(shared)
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
  // The batch being committed: told its result once, by the ack or by the thread's end.
  let settleBatch: ((result: Error | ReadonlyArray<Error | null> | null) => void) | null = null
  let fatal: Error | null = null
  let closed = false
  // The thread and its port keep the process alive only while a batch is on its way: a writer
  // nobody closes must not hold a finished process open.
  const setReferenced = (on: boolean) => {
    for (const handle of [worker, acks]) {
      if (on) handle.ref()
      else handle.unref()
    }
  }

  const answer = (result: Error | ReadonlyArray<Error | null> | null) => {
    const settle = settleBatch
    if (!settle) return
    settleBatch = null
    setReferenced(false)
    settle(result)
  }
  const onAck = (ack: Ack) => answer(ack === null ? null : typeof ack === 'string' ? new Error(ack) : ack.map((e) => (e === null ? null : new Error(e))))
  acks.on('message', onAck)
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'fatal') fatal = new Error(`the writer thread cannot open ${options.file}: ${message.message ?? ''}`)
  })
  worker.on('error', (error) => {
    fatal ??= error
    answer(fatal)
  })
  worker.on('exit', () => {
    if (closed) return
    fatal ??= new Error('the writer thread stopped')
    answer(fatal)
  })
  setReferenced(false) // after the listeners: adding one refs its handle again

  const transport: WriteTransport = {
    commit(batch: EncodedBatch, split, settle) {
      if (fatal) return settle(fatal)
      // Bytes travel as latin1 strings: one copy into the message, where a Buffer would be cloned
      // with its whole backing memory block (often a socket's 64 KiB read buffer) or need an
      // exact-size copy first.
      if (batch.blobs) {
        for (const i of batch.blobs) {
          const bytes = batch.data[i] as Uint8Array
          batch.data[i] = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('latin1')
        }
      }
      settleBatch = settle
      setReferenced(true)
      worker.postMessage({ type: 'batch', data: batch.data, ends: batch.ends, blobs: batch.blobs, split })
    },
    wait() {
      while (settleBatch) {
        const seen = Atomics.load(signals, 0)
        const m = receiveMessageOnPort(acks)
        if (m !== undefined) onAck(m.message as Ack)
        else if (fatal) answer(fatal)
        else Atomics.wait(signals, 0, seen, 1000)
      }
    },
    close() {
      closed = true
      worker.postMessage({ type: 'close' })
      // Wait (bounded) for the thread to close its connection: until then it may still be removing
      // the -wal and -shm files, and a caller that deletes or copies the folder next would race it.
      const until = Date.now() + CLOSE_WAIT_MS
      while (!fatal && Atomics.load(signals, 1) === 0 && Date.now() < until) Atomics.wait(signals, 1, 0, 50)
      acks.close()
      setReferenced(false)
    },
  }
  return createSqlWriter(statements, transport, options)
}
