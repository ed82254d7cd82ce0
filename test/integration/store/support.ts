import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { expect } from 'vitest'
import { MIGRATIONS, migrate, schemaVersion } from '../../../electron/engine/store'

/** A real SQLite file in `dir` at schema `version` holding `rows`, as a store written before a later migration left it. */
export function storeWrittenAt(dir: string, version: number, rows: string): string {
  const file = join(dir, 'hookloop.db')
  const old = new BetterSqlite3(file)
  migrate(old, MIGRATIONS.filter((m) => m.version <= version))
  expect(schemaVersion(old)).toBe(version)
  old.exec(rows)
  old.close()
  return file
}
