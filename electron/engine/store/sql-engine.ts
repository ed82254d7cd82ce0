// One way to talk SQL to either store engine: the embedded SQLite file (better-sqlite3) or a
// team's PostgreSQL server (pg). Statements are written once, in the SQL both engines share,
// with positional `?` parameters; each adapter runs them its own way (docs/ARCHITECTURE.md,
// "Two store engines"). The engine above awaits it and never learns which one it talks to.

export type StoreKind = 'sqlite' | 'postgres'

export interface SqlRunResult {
  /** Rows the statement inserted, updated or deleted. */
  changes: number
}

/** A statement and its parameters, one of several sent at once (SqlEngine.transactionAtOnce). */
export interface SqlStatement {
  sql: string
  params?: readonly unknown[]
}

export interface SqlEngine {
  readonly kind: StoreKind
  /** Where the store is, for messages: a file path, or postgres://user@host:port/db (never a password). */
  readonly where: string
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>
  get<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | undefined>
  run(sql: string, params?: readonly unknown[]): Promise<SqlRunResult>
  /** Several statements without parameters in one text (migrations, DDL). */
  exec(sql: string): Promise<void>
  /**
   * `work` in one transaction on one connection: it commits when `work` resolves and rolls back
   * when it throws. Statements made on `tx` run inside it; nothing else runs on this engine's
   * connection in between (SQLite) or sees it before the commit (PostgreSQL).
   */
  transaction<R>(work: (tx: SqlEngine) => Promise<R>): Promise<R>
  /**
   * `statements` in one transaction, in order, when none needs an earlier one's answer: it commits
   * when every one succeeds, and the first that fails rolls it back and is thrown. On PostgreSQL
   * BEGIN, the statements and COMMIT leave together and are answered together, one round trip
   * (postgres-engine.ts); on SQLite, whose statements are calls, it is transaction() over them.
   */
  transactionAtOnce(statements: readonly SqlStatement[]): Promise<SqlRunResult[]>
  close(): Promise<void>
  /**
   * Whether the server is reached, on a team's PostgreSQL (postgres-engine.ts); absent on a data
   * folder, whose file does not go away while it is open.
   */
  readonly reach?: StoreReach
}

/** A server that can go away and come back: what the receiver, the sender and the probes follow. */
export interface StoreReach {
  /** True from a statement that failed for want of the server until one succeeds again. */
  lost(): boolean
  /** Resolves once the server answers again (at once when it is not lost). */
  back(): Promise<void>
  /** `listener` hears each change (true: lost, false: back); returns its removal. */
  subscribe(listener: (lost: boolean) => void): () => void
}

/**
 * Store calls made on `tx` inside `work`, committed together on either engine (or none of them):
 * what transactional() is for a data folder's Database, awaited. The store's modules take `tx`
 * as their engine (createDeliveryStore(tx) …).
 */
export function inTransaction<R>(engine: SqlEngine, work: (tx: SqlEngine) => Promise<R>): Promise<R> {
  return engine.transaction(work)
}
