// WAL checkpoints beside the writer thread. A commit that crosses SQLite's auto-checkpoint mark
// copies the whole WAL into the database and syncs it before it returns: after a 10 MB body that
// more than doubles the commit, and every write queued behind it waits that long (measured in
// docs/BENCHMARKS.md, hostile). With this, the writer's connection never checkpoints; a
// connection of its own on another thread runs a PASSIVE checkpoint (it waits for no reader or
// writer, and no writer waits for it) once enough has been written since the last one.
import { Worker } from 'node:worker_threads'

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const signals = new Int32Array(workerData.shared)
const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {})
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close()
    parentPort.close()
    Atomics.store(signals, 0, 1)
    Atomics.notify(signals, 0)
    return
  }
  let error = null
  try { db.pragma('wal_checkpoint(PASSIVE)') } catch (e) { error = String((e && e.message) || e) }
  parentPort.postMessage(error)
})
`

const CLOSE_WAIT_MS = 5000

export interface CheckpointThread {
  /** The writer committed about this many bytes. */
  wrote(bytes: number): void
  /** Waits (bounded) until the thread's connection is closed. */
  close(): void
}

export function createCheckpointThread(options: { file: string; driver: string; nativeBinding?: string | undefined; everyBytes: number; onError?: (message: string) => void }): CheckpointThread {
  const shared = new SharedArrayBuffer(4)
  const signals = new Int32Array(shared)
  const worker = new Worker(SOURCE, { eval: true, workerData: { driver: options.driver, file: options.file, nativeBinding: options.nativeBinding, shared } })
  let written = 0
  let running = false
  let closed = false
  let failed = false
  const start = () => {
    if (running || closed || failed || written < options.everyBytes) return
    written = 0
    running = true
    worker.ref() // a checkpoint under way finishes before the process may end
    worker.postMessage('checkpoint')
  }
  worker.on('message', (error: string | null) => {
    running = false
    worker.unref()
    if (error) options.onError?.(error)
    start()
  })
  worker.on('error', (error) => {
    failed = true
    options.onError?.(error.message)
  })
  worker.unref()
  return {
    wrote(bytes) {
      written += bytes
      start()
    },
    close() {
      if (closed) return
      closed = true
      if (failed) return
      worker.postMessage('close')
      const until = Date.now() + CLOSE_WAIT_MS
      while (Atomics.load(signals, 0) === 0 && Date.now() < until) Atomics.wait(signals, 0, 0, 50)
      worker.unref()
    },
  }
}
