// A write made through a SqlEngine, told to whoever follows the store's changes, as the SQLite
// writers tell theirs (changes.ts): on a data folder this process's own StoreChanges (a reader on
// the same connection hears it without polling); on a team's PostgreSQL a NOTIFY in the same
// transaction (store-notify.ts), heard by every process once the rows can be read.
import { storeChanges, type StoreTable } from './changes'
import type { SqlEngine, SqlRunResult } from './sql-engine'
import { databaseOf } from './sqlite-engine'
import { CHANGES_CHANNEL } from './store-notify'

/** Runs a write on `engine` and tells the store's change followers which tables it changed. */
export async function runWrite(engine: SqlEngine, tables: readonly StoreTable[], sql: string, params: readonly unknown[]): Promise<SqlRunResult> {
  const result = await engine.run(sql, params)
  if (result.changes > 0) await noteWrite(engine, tables)
  return result
}

/** Tells the change followers of `engine` that `tables` changed (inside the transaction on PostgreSQL). */
export async function noteWrite(engine: SqlEngine, tables: readonly StoreTable[]): Promise<void> {
  const db = databaseOf(engine)
  if (db) return storeChanges(db).wrote(tables)
  if (engine.kind === 'postgres') await engine.run('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, [...tables].sort().join(',')])
}

/**
 * `engine` for a definitions table's module (endpoints, rules, subscriptions): on a team's
 * PostgreSQL each write that changed a row is told to every other process (a NOTIFY naming
 * `tables`, inside the transaction when there is one), so their definitions watch reloads the
 * lists and their receivers answer by them. A data folder's engine is given back as it is: other
 * processes see its data_version move, and this one changed its own copy as it wrote.
 */
export function tellingOthers(engine: SqlEngine, tables: readonly StoreTable[]): SqlEngine {
  if (engine.kind !== 'postgres') return engine
  const telling = (on: SqlEngine): SqlEngine => ({
    ...on,
    async run(sql, params) {
      const result = await on.run(sql, params)
      if (result.changes > 0) await noteWrite(on, tables)
      return result
    },
    transaction: (work) => on.transaction((tx) => work(telling(tx))),
  })
  return telling(engine)
}
