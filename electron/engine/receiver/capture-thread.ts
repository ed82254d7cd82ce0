// The capture writer on a thread of its own: the same batches and the same guarantee (nothing is
// answered before its row is committed), but the SQLite work — most of a request's cost — runs
// beside the HTTP server instead of on its event loop. The thread is the store's shared writer
// thread (store/sql-writer-thread.ts: its own connection to the same file, WAL, so the receiver's
// reads on the main connection see every committed row).
// Batches stay in memory on this side until the thread confirms the commit; a failed commit puts
// them back in the queue, so nothing captured is dropped.
import { INSERT_REQUEST_SQL, UPDATE_OUTCOME_SQL, type RequestOutcomeRow, type RequestRow } from '../store/requests'
import type { WriteOp } from '../store/sql-writer'
import { createSqlWriterThread } from '../store/sql-writer-thread'
import type { CaptureWriter } from './capture-writer'

export interface CaptureThreadOptions {
  /** The SQLite file (already created and migrated by openDatabase). */
  file: string
  /** better-sqlite3's addon for another ABI (Electron), as given to openDatabase. */
  nativeBinding?: string
  onError: (error: Error, pending: number) => void
  retryMs?: number
}

const STATEMENTS = { insert: INSERT_REQUEST_SQL, outcome: UPDATE_OUTCOME_SQL } as const

interface Batch {
  inserts: RequestRow[]
  outcomes: RequestOutcomeRow[]
  waiters: { resolve: () => void; reject: (e: Error) => void }[]
}

export function createCaptureThread(options: CaptureThreadOptions): CaptureWriter {
  const { onError, retryMs = 1000 } = options
  const thread = createSqlWriterThread({
    file: options.file,
    statements: STATEMENTS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
  let inserts: RequestRow[] = []
  let stamps: (() => void)[] = []
  let outcomes: RequestOutcomeRow[] = []
  let waiters: Batch['waiters'] = []
  // Batches sent and not yet answered, in order (the last one is what committed() waits behind).
  const inFlight = new Set<Batch>()
  let immediate: NodeJS.Immediate | null = null
  let retry: NodeJS.Timeout | null = null
  let closed = false
  let lastError: Error | null = null

  function settle(batch: Batch, error: Error | null): void {
    inFlight.delete(batch)
    if (error === null) {
      for (const w of batch.waiters) w.resolve()
      return
    }
    // Back in front of the queue, retried later; the requests waiting on it are answered 503.
    lastError = error
    inserts = batch.inserts.concat(inserts)
    outcomes = batch.outcomes.concat(outcomes)
    for (const w of batch.waiters) w.reject(error)
    onError(error, inserts.length + outcomes.length)
    if (!retry && !closed) {
      retry = setTimeout(() => {
        retry = null
        post()
      }, retryMs)
    }
  }

  /** Sends what is queued as one batch (one transaction on the thread). */
  function post(): void {
    if (immediate) {
      clearImmediate(immediate)
      immediate = null
    }
    if (inserts.length === 0 && outcomes.length === 0) {
      const done = waiters
      waiters = []
      // Resolve once everything already sent is committed.
      const last = [...inFlight].pop()
      if (last) last.waiters.push(...done)
      else for (const w of done) w.resolve()
      return
    }
    for (const stamp of stamps) stamp()
    stamps = []
    const batch: Batch = { inserts, outcomes, waiters }
    inserts = []
    outcomes = []
    waiters = []
    inFlight.add(batch)
    const ops: WriteOp[] = []
    for (const row of batch.inserts) ops.push(['insert', row as unknown as Record<string, unknown>])
    for (const row of batch.outcomes) ops.push(['outcome', row as unknown as Record<string, unknown>])
    thread.submit(ops, (error) => settle(batch, error))
  }

  function schedule(): void {
    if (immediate || closed) return
    immediate = setImmediate(() => {
      immediate = null
      post()
    })
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
        post()
        thread.flushNow()
        if (inserts.length === 0 && outcomes.length === 0) return
      }
      throw lastError ?? new Error('the capture could not be committed; it stays queued and is retried')
    },
    pending: () => inserts.length + outcomes.length + [...inFlight].reduce((sum, b) => sum + b.inserts.length + b.outcomes.length, 0),
    close() {
      closed = true
      if (retry) clearTimeout(retry)
      retry = null
      try {
        post()
        thread.flushNow()
      } finally {
        thread.close()
      }
    },
  }
}
