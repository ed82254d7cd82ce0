// Moves a whole store between engines (a data folder into a team's PostgreSQL, and back): every
// table, ids and links kept, in key order and in batches, each batch one transaction. A row
// whose key the target already has is left alone, so a second copy copies nothing twice and an
// interrupted one resumes. Signing secrets are opened with the source's data key and sealed again
// with the target's. Both stores are at this Hookloop's schema (openStore migrates them).
import { requestCountsRefill } from './count-definitions'
import { LOCK_REQUESTS_WHOLE_SQL } from './request-locks'
import type { SecretBox } from './secret-box'
import type { SqlEngine } from './sql-engine'
import { StoreError } from './store-error'

/** Parents before children, so every foreign key finds its row. */
export const COPIED_TABLES = [
  'simulations', 'endpoints', 'rules', 'subscriptions', 'events', 'deliveries', 'attempts', 'requests', 'forward_legs', 'request_schema_verdicts', 'scenarios', 'settings',
] as const
export type CopiedTable = (typeof COPIED_TABLES)[number]

const KEY_OF: Partial<Record<CopiedTable, string>> = { settings: 'key', request_schema_verdicts: 'request_id' }
/** The column a table is copied (and ordered) by. */
export const copyKeyOf = (table: CopiedTable): string => KEY_OF[table] ?? 'id'
const SEALED_COLUMN = 'secrets_json'

export interface TableCopy {
  table: CopiedTable
  /** Rows the source holds. */
  rows: number
  /** Rows written to the target (the rest it had already). */
  copied: number
}

export interface StoreSide {
  engine: SqlEngine
  secrets: SecretBox
}

export interface CopyOptions {
  /** Rows per batch (one transaction each); default 500. */
  batch?: number
  /** After each batch: the table and how far it is. */
  onProgress?: (progress: TableCopy) => void
}

export async function tableColumns(engine: SqlEngine, table: string): Promise<string[]> {
  if (engine.kind === 'sqlite') return (await engine.all<{ name: string }>(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, [table])).map((r) => r.name)
  return (
    await engine.all<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
      [table],
    )
  ).map((r) => r.name)
}

export async function copyStore(from: StoreSide, to: StoreSide, options: CopyOptions = {}): Promise<TableCopy[]> {
  const batch = options.batch ?? 500
  const result: TableCopy[] = []
  for (const table of COPIED_TABLES) {
    // A request's commit_order is the order it was committed in on its own store (migration 25):
    // the copy does not carry it over; the target numbers what it commits itself.
    const columns = (await tableColumns(from.engine, table)).filter((column) => !(table === 'requests' && column === 'commit_order'))
    const targetColumns = new Set(await tableColumns(to.engine, table))
    const missing = columns.filter((c) => !targetColumns.has(c))
    if (missing.length > 0) {
      throw new StoreError('migration_failed', `the target store's ${table} table has no column ${missing.join(', ')}: are both stores at the same schema version?`)
    }
    const key = copyKeyOf(table)
    const progress: TableCopy = { table, rows: 0, copied: 0 }
    const select = `SELECT ${columns.join(', ')} FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ${batch}`
    let after: unknown = typeof (await from.engine.get<Record<string, unknown>>(`SELECT ${key} AS k FROM ${table} LIMIT 1`))?.k === 'string' ? '' : -1
    for (;;) {
      const rows = await from.engine.all<Record<string, unknown>>(select, [after])
      if (rows.length === 0) break
      const values = rows.map((row) => columns.map((c) => (c === SEALED_COLUMN && typeof row[c] === 'string' ? to.secrets.seal(from.secrets.open(row[c] as string)) : row[c])))
      const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')} ON CONFLICT DO NOTHING`
      const { changes } = await to.engine.transaction((tx) => tx.run(insert, values.flat()))
      progress.rows += rows.length
      progress.copied += changes
      after = (rows[rows.length - 1] as Record<string, unknown>)[key]
      options.onProgress?.({ ...progress })
    }
    result.push(progress)
  }
  if (to.engine.kind === 'postgres') await advanceIdentities(to.engine)
  // Whatever the triggers counted while the rows went in (countAgain says why).
  if (result.some((copy) => copy.table === 'requests' && copy.rows > 0)) await countAgain(to.engine)
  return result
}

/**
 * The request counters (count-definitions.ts) made again from the requests the target holds now.
 * A copied row the target already has is skipped (ON CONFLICT): on a team store before schema 30
 * the counters' row trigger ran before that and counted it. From schema 30 PostgreSQL's INSERT
 * trigger counts only the rows written (a transition table holds no skipped row), as SQLite's AFTER
 * triggers do; one pass over the requests still makes the copy's counters what the rows say,
 * whichever triggers ran.
 */
async function countAgain(engine: SqlEngine): Promise<void> {
  await engine.transaction(async (tx) => {
    // On PostgreSQL no capture commits while the counters are made again (request-locks.ts).
    if (tx.kind === 'postgres') await tx.get(LOCK_REQUESTS_WHOLE_SQL)
    await tx.exec(requestCountsRefill(tx.kind))
  })
}

/** Rows copied in with their ids: each table's id sequence moves past them, so new rows never collide. */
async function advanceIdentities(engine: SqlEngine): Promise<void> {
  for (const table of COPIED_TABLES) {
    const sequence = await engine.get<{ name: string | null }>(`SELECT pg_get_serial_sequence(?, 'id') AS name`, [table]).catch(() => undefined)
    if (!sequence?.name) continue
    await engine.get(`SELECT setval(?, GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${table}), 1), (SELECT COUNT(*) > 0 FROM ${table}))`, [sequence.name])
  }
}
