// The SqlWriter's thread transport: a worker thread with its own connection to the same file (WAL:
// reads on the caller's connection see every row as soon as its commit is acknowledged). The
// caller's event loop only posts batches and reads acknowledgements; statement runs, the commit
// and WAL checkpoints happen beside it. Queue, batches, retries and waiters are the writer's
// (sql-writer.ts), the same as inline.
import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { WriteSql } from './changes'
import { WAL_CHECKPOINT_PAGES } from './database'
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
  db.pragma('wal_autocheckpoint = ' + workerData.walCheckpointPages)
  for (const p of workerData.pragmas) db.pragma(p)
  for (const { sql, arity } of workerData.statements) statements.push({ statement: db.prepare(sql), arity })
} catch (error) {
  parentPort.postMessage({ type: 'fatal', message: String((error && error.message) || error) })
  throw error
}
// A batch arrives flat: [statement index, its values in placeholder order, …]; \`ends\` marks where
// each write (a unit that commits together) ends; \`blobs\` and \`taken\` where bytes came, as
// Uint8Arrays whose memory was moved here. A failed batch gives the taken ones back (its retry
// needs them).
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
  const asBuffer = (i) => { const u = m.data[i]; m.data[i] = Buffer.from(u.buffer, u.byteOffset, u.byteLength) }
  if (m.blobs) m.blobs.forEach(asBuffer)
  if (m.taken) m.taken.forEach(asBuffer)
  let error = null
  try {
    commitAll(m.data)
  } catch (e) {
    error = m.split
      ? m.ends.map((end, k) => { try { commitOne(m.data, k === 0 ? 0 : m.ends[k - 1], end); return null } catch (e) { return describe(e) } })
      : describe(e)
  }
  if (error === null || !m.taken) acks.postMessage(error === null ? null : { error, returned: null })
  else {
    const returned = m.taken.map((i) => m.data[i])
    acks.postMessage({ error, returned }, [...new Set(returned.map((b) => b.buffer))])
  }
  Atomics.add(signals, 0, 1)
  Atomics.notify(signals, 0)
})
`

const CLOSE_WAIT_MS = 5000

type Ack = { error: string | Array<string | null>; returned: Uint8Array[] | null } | null

/** Whether the view spans all of its own ArrayBuffer (not a slice of a pool or a socket's buffer): it can move as it is. */
const ownsItsMemory = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer

/** Copies data[i] for each index into one new block, puts a view of it in their place, and returns the block. */
function copyInto(data: unknown[], indexes: readonly number[]): ArrayBuffer {
  let total = 0
  for (const i of indexes) total += (data[i] as Uint8Array).byteLength
  const block = new ArrayBuffer(total)
  let at = 0
  for (const i of indexes) {
    const bytes = data[i] as Uint8Array
    const view = new Uint8Array(block, at, bytes.byteLength)
    view.set(bytes)
    data[i] = view
    at += bytes.byteLength
  }
  return block
}

export function createSqlWriterThread(options: SqlWriterThreadOptions): SqlWriter {
  const statements = positional(options.statements)
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')

  const shared = new SharedArrayBuffer(8)
  // [0] bumped by the thread after each ack it sends; [1] set once its connection is closed
  const signals = new Int32Array(shared)
  const { port1: acks, port2: threadAcks } = new MessageChannel()
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    transferList: [threadAcks],
    workerData: {
      driver,
      file: options.file,
      nativeBinding: options.nativeBinding,
      statements: [...statements.values()].map((s) => ({ sql: s.sql, arity: s.names.length })),
      pragmas: options.pragmas ?? [],
      walCheckpointPages: WAL_CHECKPOINT_PAGES,
      shared,
      acks: threadAcks,
    },
  })
  // The batch being committed: told its result once, by the ack or by the thread's end.
  let settleBatch: ((result: Error | ReadonlyArray<Error | null> | null) => void) | null = null
  // Where the bytes taken from the batch being committed came from (EncodedBatch.taken).
  let takenFrom: EncodedBatch['taken'] = null
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
  const onAck = (ack: Ack) => {
    const taken = takenFrom
    takenFrom = null
    if (ack === null) return answer(null)
    // The batch failed: its taken bytes go back where they came from, for a retry to find them.
    if (taken && ack.returned) taken.forEach(({ params, name }, k) => {
      const bytes = ack.returned![k] as Uint8Array
      params[name] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    })
    answer(typeof ack.error === 'string' ? new Error(ack.error) : ack.error.map((e) => (e === null ? null : new Error(e))))
  }
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
      // Bytes move to the thread, not copied into the message: a Buffer would be cloned with its
      // whole backing memory (often a socket's 64 KiB read buffer, or a shared pool), a string
      // costs a conversion on each side. A value the statement lets the writer take (a request's
      // body, read into a buffer of its own) moves without a copy; the others are copied once,
      // together, into one block that moves with the batch.
      const message = { type: 'batch', data: batch.data, ends: batch.ends, blobs: batch.blobs, taken: batch.taken?.map((t) => t.index) ?? null, split }
      const own = (batch.taken ?? []).map(({ index }) => index).filter((i) => ownsItsMemory(batch.data[i] as Uint8Array))
      const original = own.map((i) => batch.data[i])
      const owned = new Set(own)
      const copied = [...(batch.blobs ?? []), ...(batch.taken ?? []).map(({ index }) => index).filter((i) => !owned.has(i))]
      const transfer = copied.length > 0 ? [copyInto(batch.data, copied)] : []
      try {
        worker.postMessage(message, [...transfer, ...own.map((i) => (batch.data[i] as Uint8Array).buffer as ArrayBuffer)])
      } catch {
        // A buffer that cannot move (one Node marks untransferable): copy those too.
        own.forEach((i, k) => (batch.data[i] = original[k]))
        worker.postMessage(message, [...transfer, copyInto(batch.data, own)])
      }
      takenFrom = batch.taken
      settleBatch = settle
      setReferenced(true)
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
