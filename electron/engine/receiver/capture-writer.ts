// Groups capture writes: every row queued during one turn of the event loop is committed in ONE
// transaction on the next turn (setImmediate), so a burst of requests costs one commit, not one
// each. A request's response waits for `committed()`: nothing is answered before it is on disk.
// If a commit fails, the rows stay queued and are retried; nothing captured is dropped.
import type { RequestOutcomeRow, RequestRow, RequestStore } from '../store/requests'

export interface CaptureWriter {
  /** Queue a row; beforeCommit runs just before its transaction (to stamp the answer's time). */
  insert(row: RequestRow, beforeCommit?: () => void): void
  outcome(row: RequestOutcomeRow): void
  /** Resolves once every row queued so far is committed; rejects if that commit failed. */
  committed(): Promise<void>
  /** Commit now, synchronously (before a read, and at close). Throws if the commit fails. */
  flushNow(): void
  pending(): number
  /** Stop the retry timer and commit what is left. */
  close(): void
}

export interface CaptureWriterOptions {
  store: RequestStore
  onError: (error: Error, pending: number) => void
  /** Retry interval after a failed commit (real time: the disk does not follow a virtual clock). */
  retryMs?: number
}

export function createCaptureWriter(options: CaptureWriterOptions): CaptureWriter {
  const { store, onError, retryMs = 1000 } = options
  let inserts: RequestRow[] = []
  let stamps: (() => void)[] = []
  let outcomes: RequestOutcomeRow[] = []
  let waiters: { resolve: () => void; reject: (e: Error) => void }[] = []
  let immediate: NodeJS.Immediate | null = null
  let retry: NodeJS.Timeout | null = null
  let closed = false

  function commit(): void {
    if (immediate) {
      clearImmediate(immediate)
      immediate = null
    }
    if (inserts.length === 0 && outcomes.length === 0) {
      const done = waiters
      waiters = []
      for (const w of done) w.resolve()
      return
    }
    const batchInserts = inserts
    const batchOutcomes = outcomes
    const batchWaiters = waiters
    for (const stamp of stamps) stamp()
    stamps = []
    inserts = []
    outcomes = []
    waiters = []
    try {
      store.writeBatch(batchInserts, batchOutcomes)
    } catch (error) {
      // Put the rows back in front of anything queued meanwhile, and try again later.
      inserts = batchInserts.concat(inserts)
      outcomes = batchOutcomes.concat(outcomes)
      const err = error instanceof Error ? error : new Error(String(error))
      for (const w of batchWaiters) w.reject(err)
      onError(err, inserts.length + outcomes.length)
      if (!retry && !closed) {
        retry = setTimeout(() => {
          retry = null
          try {
            commit()
          } catch {
            // reported through onError already
          }
        }, retryMs)
      }
      throw err
    }
    for (const w of batchWaiters) w.resolve()
  }

  function schedule(): void {
    if (immediate || closed) return
    immediate = setImmediate(() => {
      immediate = null
      try {
        commit()
      } catch {
        // reported through onError; the waiters were rejected
      }
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
      if (inserts.length === 0 && outcomes.length === 0 && !immediate) return Promise.resolve()
      return new Promise((resolve, reject) => {
        waiters.push({ resolve, reject })
        schedule()
      })
    },
    flushNow: () => commit(),
    pending: () => inserts.length + outcomes.length,
    close() {
      closed = true
      if (retry) clearTimeout(retry)
      retry = null
      commit()
    },
  }
}
