import type { Database } from 'better-sqlite3'

// Group commit for the attempt path: every write queued during one turn of the event loop is
// committed in ONE transaction on the next turn (setImmediate). A commit costs far more than the
// statements in it, so this is what lets the sender keep up with its HTTP client. Callers await
// their write: a request goes out only after its attempt row is on disk, and a result is
// announced only after it is recorded.

export interface WriteBatch {
  run<T>(write: () => T): Promise<T>
  /** Commit what is queued now, synchronously. */
  flush(): void
}

interface Queued {
  write: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

export function createWriteBatch(db: Database): WriteBatch {
  let queue: Queued[] = []
  let scheduled: NodeJS.Immediate | null = null

  const commitAll = db.transaction((items: Queued[]) => items.map((item) => item.write()))

  function flush(): void {
    if (scheduled) {
      clearImmediate(scheduled)
      scheduled = null
    }
    if (queue.length === 0) return
    const items = queue
    queue = []
    let results: unknown[]
    try {
      results = commitAll(items)
    } catch {
      // One bad write must not take the others down: retry each in its own transaction.
      for (const item of items) {
        try {
          item.resolve(db.transaction(item.write)())
        } catch (error) {
          item.reject(error)
        }
      }
      return
    }
    items.forEach((item, i) => item.resolve(results[i]))
  }

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject })
        scheduled ??= setImmediate(flush)
      })
    },
    flush,
  }
}
