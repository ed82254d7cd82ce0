// The capture writer on a thread of its own: the same batches and the same guarantee (nothing is
// answered before its row is committed), but the SQLite work — most of a request's cost — runs
// beside the HTTP server instead of on its event loop. The thread opens its own connection to the
// same file (WAL: the receiver's reads on the main connection see every committed row).
// Batches stay in memory on this side until the thread confirms the commit; a failed commit puts
// them back in the queue, so nothing captured is dropped.
import { createRequire } from 'node:module'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { INSERT_REQUEST_SQL, UPDATE_OUTCOME_SQL, type RequestOutcomeRow, type RequestRow } from '../store/requests'
import type { CaptureWriter } from './capture-writer'

export interface CaptureThreadOptions {
  /** The SQLite file (already created and migrated by openDatabase). */
  file: string
  /** better-sqlite3's addon for another ABI (Electron), as given to openDatabase. */
  nativeBinding?: string
  onError: (error: Error, pending: number) => void
  retryMs?: number
}

// Plain JavaScript, evaluated in the thread (no bundler involved: it runs the same in tests, the
// CLI and the app). Acknowledges each batch by sequence number on a port of its own, then bumps a
// shared counter: flushNow() sleeps on that counter and reads the acks synchronously.
const THREAD_SOURCE = `
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads')
const Database = require(workerData.driver)
const signals = new Int32Array(workerData.shared)
const acks = workerData.acks
let db
try {
  db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {})
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
} catch (error) {
  parentPort.postMessage({ type: 'fatal', message: String(error && error.message || error) })
  throw error
}
const insert = db.prepare(workerData.insertSql)
const update = db.prepare(workerData.updateSql)
const toBuffer = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v)
const commit = db.transaction((messages) => {
  for (const message of messages) {
    for (const row of message.inserts) { row.body = toBuffer(row.body); row.response_body = toBuffer(row.response_body); insert.run(row) }
    for (const row of message.outcomes) { row.response_body = toBuffer(row.response_body); update.run(row) }
  }
})
parentPort.on('message', (first) => {
  // Batches that queued up while the last commit ran go into ONE transaction.
  const messages = []
  let closing = first.type === 'close'
  if (!closing) messages.push(first)
  for (let next = receiveMessageOnPort(parentPort); next !== undefined && !closing; next = receiveMessageOnPort(parentPort)) {
    if (next.message.type === 'close') closing = true
    else messages.push(next.message)
  }
  if (messages.length > 0) {
    let error = null
    try { commit(messages) } catch (e) { error = String(e && e.message || e) }
    acks.postMessage({ seqs: messages.map((m) => m.seq), error })
    Atomics.add(signals, 0, 1)
    Atomics.notify(signals, 0)
  }
  if (closing) { db.close(); acks.close(); parentPort.close() }
})
parentPort.postMessage({ type: 'ready' })
`

/**
 * A Buffer is usually a view into a larger memory block (Node's 8 KiB pool, a socket's 64 KiB
 * read buffer), and posting it to a thread copies the WHOLE block: give it its own exact-size copy.
 */
function exact(bytes: Buffer | null): Buffer | null {
  if (bytes === null || (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)) return bytes
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength)
  bytes.copy(copy)
  return copy
}

interface InFlight {
  inserts: RequestRow[]
  outcomes: RequestOutcomeRow[]
  waiters: { resolve: () => void; reject: (e: Error) => void }[]
}

export function createCaptureThread(options: CaptureThreadOptions): CaptureWriter {
  const { onError, retryMs = 1000 } = options
  const shared = new SharedArrayBuffer(4)
  const signals = new Int32Array(shared) // bumped by the thread after each ack it sends
  const { port1: acks, port2: threadAcks } = new MessageChannel()
  const worker = new Worker(THREAD_SOURCE, {
    transferList: [threadAcks],
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file: options.file,
      nativeBinding: options.nativeBinding,
      insertSql: INSERT_REQUEST_SQL,
      updateSql: UPDATE_OUTCOME_SQL,
      shared,
      acks: threadAcks,
    },
  })
  let inserts: RequestRow[] = []
  let stamps: (() => void)[] = []
  let outcomes: RequestOutcomeRow[] = []
  let waiters: InFlight['waiters'] = []
  const inFlight = new Map<number, InFlight>()
  let seq = 0
  let immediate: NodeJS.Immediate | null = null
  let retry: NodeJS.Timeout | null = null
  let closed = false
  let fatal: Error | null = null

  function settle(n: number, error: string | null): void {
    const batch = inFlight.get(n)
    if (!batch) return
    inFlight.delete(n)
    if (error === null) {
      for (const w of batch.waiters) w.resolve()
      return
    }
    // Back in front of the queue, retried later; the requests waiting on it are answered 503.
    inserts = batch.inserts.concat(inserts)
    outcomes = batch.outcomes.concat(outcomes)
    const err = new Error(error)
    for (const w of batch.waiters) w.reject(err)
    onError(err, inserts.length + outcomes.length)
    if (!retry && !closed) {
      retry = setTimeout(() => {
        retry = null
        post()
      }, retryMs)
    }
  }

  const onAck = (ack: { seqs: number[]; error: string | null }) => {
    for (const n of ack.seqs) settle(n, ack.error)
  }
  acks.on('message', onAck)
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'fatal') fatal = new Error(`the capture thread cannot open ${options.file}: ${message.message ?? ''}`)
  })
  worker.on('error', (error) => {
    fatal = error
    onError(error, inserts.length + outcomes.length)
    for (const n of [...inFlight.keys()]) settle(n, error.message)
  })

  /** Sends what is queued as one batch; returns its sequence number (0 when nothing was queued). */
  function post(): number {
    if (immediate) {
      clearImmediate(immediate)
      immediate = null
    }
    if (inserts.length === 0 && outcomes.length === 0) {
      const done = waiters
      waiters = []
      if (inFlight.size === 0) for (const w of done) w.resolve()
      else {
        // Resolve once everything already sent is committed.
        const last = inFlight.get(seq)
        if (last) last.waiters.push(...done)
        else for (const w of done) w.resolve()
      }
      return 0
    }
    for (const stamp of stamps) stamp()
    stamps = []
    const batch: InFlight = { inserts, outcomes, waiters }
    inserts = []
    outcomes = []
    waiters = []
    if (fatal) {
      inFlight.set(++seq, batch)
      settle(seq, fatal.message)
      return seq
    }
    inFlight.set(++seq, batch)
    for (const row of batch.inserts) {
      row.body = exact(row.body)
      row.response_body = exact(row.response_body)
    }
    for (const row of batch.outcomes) row.response_body = exact(row.response_body)
    worker.postMessage({ type: 'batch', seq, inserts: batch.inserts, outcomes: batch.outcomes })
    return seq
  }

  function schedule(): void {
    if (immediate || closed) return
    immediate = setImmediate(() => {
      immediate = null
      post()
    })
  }

  /** Blocks until the thread has answered batch n (committed or failed), settling every ack read on the way. */
  function waitFor(n: number): void {
    while (inFlight.has(n)) {
      const seen = Atomics.load(signals, 0)
      for (let m = receiveMessageOnPort(acks); m !== undefined; m = receiveMessageOnPort(acks)) onAck(m.message as { seqs: number[]; error: string | null })
      if (!inFlight.has(n)) return
      if (fatal) {
        for (const k of [...inFlight.keys()]) settle(k, fatal.message)
        return
      }
      Atomics.wait(signals, 0, seen, 1000)
    }
  }

  return {
    insert(row, beforeCommit) {
      inserts.push(row)
      if (beforeCommit) stamps.push(beforeCommit)
      schedule()
    },
    outcome(row) {
      outcomes.push(row)
      schedule()
    },
    committed() {
      if (inserts.length === 0 && outcomes.length === 0 && inFlight.size === 0) return Promise.resolve()
      return new Promise((resolve, reject) => {
        waiters.push({ resolve, reject })
        schedule()
      })
    },
    flushNow() {
      // Twice at most: a batch already on its way may fail and come back to the queue.
      for (let round = 0; round < 2; round++) {
        const n = post()
        waitFor(n === 0 ? seq : n)
        if (inserts.length === 0 && outcomes.length === 0) return
      }
      throw fatal ?? new Error('the capture could not be committed; it stays queued and is retried')
    },
    pending: () => inserts.length + outcomes.length + [...inFlight.values()].reduce((sum, b) => sum + b.inserts.length + b.outcomes.length, 0),
    close() {
      closed = true
      if (retry) clearTimeout(retry)
      retry = null
      try {
        const n = post()
        waitFor(n === 0 ? seq : n)
      } finally {
        worker.postMessage({ type: 'close' })
        acks.close()
        void worker.terminate()
      }
    },
  }
}
