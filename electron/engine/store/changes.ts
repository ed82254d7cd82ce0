// Who wrote what, in this process. Every write statement of the store names the tables it touches
// (a WriteSql); whatever runs one on a connection tells that connection's StoreChanges, so a reader
// in the same process (the host's change feed) learns of the engine's own writes at once instead of
// polling for them. Writes on other connections — a writer thread, a `hookloop listen` in another
// process on the same file — are not told here: they show as a new PRAGMA data_version on this
// connection (change-reads.ts), which is what a reader polls for.
import type { Database, RunResult } from 'better-sqlite3'

/** The schema's tables (migrations.ts). */
export type StoreTable = 'endpoints' | 'rules' | 'requests' | 'subscriptions' | 'events' | 'deliveries' | 'attempts' | 'scenarios'

/** A write statement and every table it changes (foreign-key cascades included). */
export interface WriteSql {
  readonly sql: string
  readonly tables: readonly StoreTable[]
}

export type ChangeListener = (tables: readonly StoreTable[]) => void

export interface StoreChanges {
  /**
   * These tables were written on this connection. Listeners run synchronously, possibly inside the
   * writer's transaction: they note what changed and read it later (on a later turn), never at once.
   */
  wrote(tables: readonly StoreTable[]): void
  /** Returns the listener's removal. */
  subscribe(listener: ChangeListener): () => void
}

const hubs = new WeakMap<Database, StoreChanges>()

/** The change hub of one connection (made on first use). */
export function storeChanges(db: Database): StoreChanges {
  let hub = hubs.get(db)
  if (!hub) {
    const listeners = new Set<ChangeListener>()
    hub = {
      wrote(tables) {
        if (tables.length > 0) for (const listener of listeners) listener(tables)
      },
      subscribe(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    }
    hubs.set(db, hub)
  }
  return hub
}

export interface PreparedWrite {
  run(...params: unknown[]): RunResult
}

/** Prepares a write whose runs that change rows tell the connection's StoreChanges. */
export function prepareWrite(db: Database, write: WriteSql): PreparedWrite {
  const statement = db.prepare(write.sql)
  const changes = storeChanges(db)
  return {
    run(...params) {
      const result = statement.run(...params)
      if (result.changes > 0) changes.wrote(write.tables)
      return result
    },
  }
}

/** Every table the statements of a writer's map touch, once each. */
export function tablesOf(statements: Readonly<Record<string, WriteSql>>): StoreTable[] {
  return [...new Set(Object.values(statements).flatMap((s) => s.tables))]
}
