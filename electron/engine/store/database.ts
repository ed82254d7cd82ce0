import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'
import { migrate, type Migration, MIGRATIONS } from './migrations'
import { StoreError } from './store-error'

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' (tests only: it is never a fallback). */
  file: string
  migrations?: readonly Migration[]
  /** Where better-sqlite3's native addon lives (Electron needs its own ABI build). */
  nativeBinding?: string
}

/** Opens (creating if needed) and migrates the database; WAL mode for files. */
export function openDatabase(options: OpenDatabaseOptions): Database {
  const { file } = options
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  let db: Database
  try {
    db = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  } catch (error) {
    throw new StoreError('open_failed', `cannot open the database at ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  try {
    if (file !== ':memory:') {
      const mode = db.pragma('journal_mode = WAL', { simple: true })
      if (mode !== 'wal') throw new StoreError('open_failed', `cannot switch ${file} to WAL mode (journal_mode is ${String(mode)})`)
    }
    // NORMAL in WAL mode: a committed transaction survives a crash of the process (what a
    // "request answered 2xx is on disk" needs); only a power loss can undo the last commits.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db, options.migrations ?? MIGRATIONS)
    return db
  } catch (error) {
    db.close()
    if (error instanceof StoreError) throw error
    const message = error instanceof Error ? error.message : String(error)
    if (/not a database|file is encrypted/i.test(message)) {
      throw new StoreError('not_a_database', `${file} is not a Hookloop database (SQLite says: ${message})`, { cause: error })
    }
    throw new StoreError('open_failed', `cannot prepare the database at ${file}: ${message}`, { cause: error })
  }
}

/** A read-only connection beside the file's writer (WAL), no migration; throws while the file does not exist. */
export function openReader(file: string, nativeBinding?: string): Database {
  return new BetterSqlite3(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) })
}

/** Grows the connection's page cache to at least `mib` MiB (SQLite's default is 2 MiB). */
export function growPageCache(db: Database, mib: number): void {
  if (Math.abs(Number(db.pragma('cache_size', { simple: true }))) < mib * 1024) db.pragma(`cache_size = -${mib * 1024}`)
}
