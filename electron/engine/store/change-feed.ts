// Which tables changed in the store, whoever wrote them, for a reader that follows it (the host's
// timeline watch). One shape for both engines, fed each engine's way:
// - a data folder: the engine's own writes are told on its connection (changes.ts, at once), and
//   every other writer (a writer thread, another process) shows as a new PRAGMA data_version on
//   that connection, polled: a poll that finds it unchanged reads nothing else;
// - a team's PostgreSQL: every commit NOTIFYs the tables it wrote (store-notify.ts), this process's
//   own commits included, so a LISTENing connection hears them all and nothing is polled.
import type { Database } from 'better-sqlite3'
import { storeChanges, type StoreTable } from './changes'
import type { SqlEngine } from './sql-engine'
import { databaseOf } from './sqlite-engine'
import { StoreError } from './store-error'
import { listenForChanges } from './store-notify'

/** Every table, for a change that cannot say which (another process's commit on a data folder, a lost listener). */
const EVERY_TABLE: readonly StoreTable[] = ['endpoints', 'rules', 'requests', 'forward_legs', 'subscriptions', 'events', 'deliveries', 'attempts', 'scenarios', 'simulations', 'settings']

export interface StoreChangeFeed {
  /** `listener` hears the tables of each change; returns its removal. */
  subscribe(listener: (tables: readonly StoreTable[]) => void): () => void
  /** Stops polling or listening. */
  close(): Promise<void>
}

function listenerSet() {
  const listeners = new Set<(tables: readonly StoreTable[]) => void>()
  return {
    tell: (tables: readonly StoreTable[]) => listeners.forEach((listener) => listener(tables)),
    subscribe: (listener: (tables: readonly StoreTable[]) => void) => (listeners.add(listener), () => listeners.delete(listener)),
  }
}

/**
 * A data folder's changes, on `db`'s connection: its own writes at once, other connections' by a
 * data_version poll every `intervalMs`. `othersOnly`: other connections' alone (a follower that
 * made no write it needs to hear of, `hookloop listen`).
 */
export function sqliteChangeFeed(db: Database, intervalMs: number, options: { othersOnly?: boolean } = {}): StoreChangeFeed {
  const { tell, subscribe } = listenerSet()
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
  let version = dataVersion.get() ?? 0
  const offOwn = options.othersOnly ? () => undefined : storeChanges(db).subscribe(tell)
  const poll = setInterval(() => {
    let now: number
    try {
      now = dataVersion.get() ?? 0
    } catch {
      return // a closed or busy connection: asked again on the next poll
    }
    if (now === version) return
    version = now
    tell(EVERY_TABLE)
  }, intervalMs)
  poll.unref()
  return {
    subscribe,
    async close() {
      clearInterval(poll)
      offOwn()
    },
  }
}

/**
 * A team store's changes, by LISTEN on a connection of its own. A lost connection is listened
 * again after `retryMs`; once back, every table is told changed (commits made meanwhile were not heard).
 */
export async function postgresChangeFeed(url: string, retryMs = 1000): Promise<StoreChangeFeed> {
  const { tell, subscribe } = listenerSet()
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const listen = () =>
    listenForChanges({
      url,
      onChange: tell,
      onLost: () => {
        if (closed || retry) return
        const lost = current
        void lost.then((l) => l.close()).catch(() => undefined)
        const again = () => {
          retry = undefined
          if (closed) return
          current = listen()
          current.then(
            () => tell(EVERY_TABLE),
            () => (retry = setTimeout(again, retryMs)),
          )
        }
        retry = setTimeout(again, retryMs)
      },
    })
  let current = listen()
  await current // an unreachable server at start is the caller's StoreError
  return {
    subscribe,
    async close() {
      closed = true
      clearTimeout(retry)
      await current.then((l) => l.close()).catch(() => undefined)
    },
  }
}

/**
 * The change feed of the store `engine` reads: a data folder's on its connection (its own writes,
 * and data_version polled every `intervalMs`), a team's PostgreSQL by LISTEN on a connection of
 * its own to `postgresUrl` (the URL the store was opened by: a SqlEngine keeps no password).
 */
export async function storeChangeFeed(engine: SqlEngine, options: { intervalMs: number; postgresUrl?: string }): Promise<StoreChangeFeed> {
  if (engine.kind === 'postgres') {
    if (options.postgresUrl === undefined) throw new StoreError('bad_location', `following the changes of the PostgreSQL store at ${engine.where} needs its URL`)
    return postgresChangeFeed(options.postgresUrl)
  }
  const db = databaseOf(engine)
  if (!db) throw new StoreError('bad_location', `the SQLite store at ${engine.where} has no connection to follow`)
  return sqliteChangeFeed(db, options.intervalMs)
}
