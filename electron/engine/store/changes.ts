// Who wrote what, in this process. Every write statement of the store names the tables it touches
// (a WriteSql), and whatever runs one on a connection tells that connection's StoreChanges: a reader
// in the same process (the host's timeline watch) learns of the engine's own writes without polling.
// Writes on other connections (a writer thread, another process) are not told here; they show as a
// new PRAGMA data_version on this connection (change-reads.ts), which is what a reader polls.
import type { Database, RunResult } from 'better-sqlite3'

/** The schema's tables (migrations.ts); of `settings`, what a change follower reads of it (the breakpoints). */
export type StoreTable = 'endpoints' | 'rules' | 'requests' | 'forward_legs' | 'request_schema_verdicts' | 'subscriptions' | 'events' | 'deliveries' | 'attempts' | 'scenarios' | 'simulations' | 'settings'

/** A write statement and every table it changes (foreign-key cascades included). */
export interface WriteSql {
  /** SQL with positional `?` placeholders, bound as written: nothing rewrites it. */
  readonly sql: string
  readonly tables: readonly StoreTable[]
  /** The parameter each `?` binds, in order (a name used twice appears twice). */
  readonly params: readonly string[]
  /**
   * Parameters whose bytes the writer may take instead of copying (sql-writer.ts): the caller
   * never reads that Buffer again once the write is queued (it is empty after the commit).
   */
  readonly takes?: readonly string[]
  /**
   * On PostgreSQL, this write for n rows as one statement, each row's parameters in `params`'
   * order one row after the other, with the effect of the n statements run in that order: what a
   * group commit sends for a run of them (engine-writer.ts). A plain `INSERT … VALUES (?, …)` needs
   * none (its row is repeated); PostgreSQL's spelling only (never run on SQLite).
   */
  readonly rows?: (n: number) => string
}

const tableList = (tables: StoreTable | readonly StoreTable[]): readonly StoreTable[] => (typeof tables === 'string' ? [tables] : tables)

/** A write statement over one table, or over each table it changes, and the parameter of each `?`. */
export const writeSql = (tables: StoreTable | readonly StoreTable[], sql: string, params: readonly string[]): WriteSql => ({ sql, tables: tableList(tables), params })

export interface StoreChanges {
  /** Listeners run at once, maybe inside the writer's transaction: they note it and read later. */
  wrote(tables: readonly StoreTable[]): void
  /** Returns the listener's removal. */
  subscribe(listener: (tables: readonly StoreTable[]) => void): () => void
}

const hubs = new WeakMap<Database, StoreChanges>()

/** The change hub of one connection. */
export function storeChanges(db: Database): StoreChanges {
  let hub = hubs.get(db)
  if (!hub) {
    const listeners = new Set<(tables: readonly StoreTable[]) => void>()
    hub = {
      wrote: (tables) => listeners.forEach((listener) => listener(tables)),
      subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    }
    hubs.set(db, hub)
  }
  return hub
}

/** Prepares a write over `tables` whose runs that change rows tell the connection's StoreChanges. */
export function prepareWrite(db: Database, tables: StoreTable | readonly StoreTable[], sql: string): { run(...params: unknown[]): RunResult } {
  const statement = db.prepare(sql)
  const changes = storeChanges(db)
  const changed = tableList(tables)
  return {
    run(...params) {
      const result = statement.run(...params)
      if (result.changes > 0) changes.wrote(changed)
      return result
    },
  }
}
