// What another process on the same data folder may have changed in the definitions a running
// engine keeps in memory (endpoints, rules, subscriptions): PRAGMA data_version, which moves only
// when another connection commits, and a fingerprint of each definitions table. These tables hold
// what people define (tens of rows), never history, so reading them whole is cheap and its cost
// does not grow with the store.
import type { Database } from 'better-sqlite3'

/** The definition tables, and the breakpoints (one settings row: store/breakpoints.ts). */
export const DEFINITION_TABLES = ['endpoints', 'rules', 'subscriptions', 'breakpoints'] as const
export type DefinitionTable = (typeof DEFINITION_TABLES)[number]

export function createDefinitionReads(db: Database) {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
  const select = (table: DefinitionTable) => (table === 'breakpoints' ? "SELECT value_json FROM settings WHERE key = 'breakpoints'" : `SELECT * FROM ${table} ORDER BY id`)
  const rows = new Map(DEFINITION_TABLES.map((table) => [table, db.prepare<[], unknown[]>(select(table)).raw()]))
  return {
    /** Moves whenever another connection commits to the file (never for this connection's own commits). */
    dataVersion: () => dataVersion.get() ?? 0,
    /** Equal for two reads exactly when the table's rows are equal. */
    fingerprint: (table: DefinitionTable): string => JSON.stringify(rows.get(table)?.all() ?? [], (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value)),
  }
}
