// What another process may have changed in the definitions a running engine keeps in memory
// (endpoints, rules, subscriptions, breakpoints): a fingerprint of each definitions table, read
// through SqlEngine on either store engine. These tables hold what people define (tens of rows),
// never history, so reading them whole is cheap and its cost does not grow with the store.
import type { StoreTable } from './changes'
import type { SqlEngine } from './sql-engine'

/** The definition tables, and the breakpoints (one settings row: store/breakpoints.ts). */
export const DEFINITION_TABLES = ['endpoints', 'rules', 'subscriptions', 'breakpoints'] as const
export type DefinitionTable = (typeof DEFINITION_TABLES)[number]

/** The definitions a change of `table` (store/change-feed.ts) may have changed. */
export function definitionsIn(table: StoreTable): DefinitionTable | null {
  if (table === 'endpoints' || table === 'rules' || table === 'subscriptions') return table
  // The breakpoints are the settings row `breakpoints`.
  return table === 'settings' ? 'breakpoints' : null
}

const SELECT: Record<DefinitionTable, string> = {
  endpoints: 'SELECT * FROM endpoints ORDER BY id',
  rules: 'SELECT * FROM rules ORDER BY id',
  subscriptions: 'SELECT * FROM subscriptions ORDER BY id',
  breakpoints: "SELECT value_json FROM settings WHERE key = 'breakpoints'",
}

export function createDefinitionReads(engine: SqlEngine) {
  return {
    /** Equal for two reads exactly when the table's rows are equal. */
    fingerprint: async (table: DefinitionTable): Promise<string> =>
      JSON.stringify(await engine.all(SELECT[table]), (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value)),
  }
}
