// One way to talk SQL to either store engine: the embedded SQLite file (better-sqlite3) or a
// team's PostgreSQL server (pg). Statements are written once, in the SQL both engines share,
// with positional `?` parameters; each adapter runs them its own way (docs/ARCHITECTURE.md,
// "Two store engines"). The engine above awaits it and never learns which one it talks to.

export type StoreKind = 'sqlite' | 'postgres'

export interface SqlRunResult {
  /** Rows the statement inserted, updated or deleted. */
  changes: number
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
  close(): Promise<void>
}

/**
 * `?` parameters as PostgreSQL's `$1, $2 …`, skipping quoted strings, quoted names, comments and
 * dollar-quoted bodies, so a statement is written once for both engines.
 */
export function numberedParameters(sql: string): string {
  let out = ''
  let n = 0
  let i = 0
  while (i < sql.length) {
    const c = sql[i] as string
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c)
      out += sql.slice(i, end)
      i = end
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end === -1 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      const stop = end === -1 ? sql.length : end + 2
      out += sql.slice(i, stop)
      i = stop
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = (/^\$[A-Za-z_]*\$/.exec(sql.slice(i)) as RegExpExecArray)[0]
      const end = sql.indexOf(tag, i + tag.length)
      const stop = end === -1 ? sql.length : end + tag.length
      out += sql.slice(i, stop)
      i = stop
    } else if (c === '?') {
      out += `$${++n}`
      i++
    } else {
      out += c
      i++
    }
  }
  return out
}

function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2
      else return i + 1
    } else i++
  }
  return sql.length
}
