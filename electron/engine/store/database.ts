import { randomBytes } from 'node:crypto'
import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'
import { prepareDataFiles, tightenDatabaseFiles } from './file-modes'
import { migrate, type Migration, MIGRATIONS } from './migrations'
import { appSealedFolder, attachSecretBox, createSecretBox, fileSecretKey, sealSecretsAtRest, secretKeyFileOf, type SecretKeySource } from './secret-box'
import { StoreError } from './store-error'

export interface OpenDatabaseOptions {
  /** A file path, or ':memory:' (tests only: it is never a fallback). */
  file: string
  migrations?: readonly Migration[]
  /** Where better-sqlite3's native addon lives (Electron needs its own ABI build). */
  nativeBinding?: string
  /**
   * The 32-byte key that seals signing secrets at rest (the app passes one kept with the OS
   * keychain). Default: a random key in a 0600 file beside the database (`<file>.key`).
   */
  secretKey?: SecretKeySource
  /**
   * For work that never reads a signing secret (pruning history): no data key is read or made,
   * plain secrets are left for the next full open, and the secret statements refuse to run.
   */
  withoutSecrets?: boolean
  /** Where a notice goes (a file mode tightened, plain secrets sealed); default stderr. */
  notice?: (line: string) => void
}

const stderrNotice = (line: string) => void process.stderr.write(`hookloop: ${line}\n`)

/** Opens (creating if needed) and migrates the database; WAL mode for files. */
/** WAL pages between automatic checkpoints, on every connection to a data folder's file. */
export const WAL_CHECKPOINT_PAGES = 4000

export function openDatabase(options: OpenDatabaseOptions): Database {
  const { file } = options
  const notice = options.notice ?? stderrNotice
  if (file !== ':memory:') prepareDataFiles(file, notice)
  let db: Database
  try {
    db = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  } catch (error) {
    throw new StoreError('open_failed', `cannot open the database at ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  try {
    if (file !== ':memory:') {
      // A new file frees pruned pages back to the file system (incremental vacuum, store/history.ts);
      // the setting can only be chosen before the first page is written.
      if (db.pragma('page_count', { simple: true }) === 0) db.pragma('auto_vacuum = INCREMENTAL')
      const mode = db.pragma('journal_mode = WAL', { simple: true })
      if (mode !== 'wal') throw new StoreError('open_failed', `cannot switch ${file} to WAL mode (journal_mode is ${String(mode)})`)
    }
    // NORMAL in WAL mode: a committed transaction survives a crash of the process (what a
    // "request answered 2xx is on disk" needs); only a power loss can undo the last commits.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    // A checkpoint every 4 000 WAL pages (16 MiB) instead of SQLite's 1 000: each one waits on two
    // fsyncs on the committing thread, and a publish writes about a dozen pages (one per B-tree it
    // touches), so at the default every ~80th publish paid for one (docs/BENCHMARKS.md, "Publishing").
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
    migrate(db, options.migrations ?? MIGRATIONS)
    if (file !== ':memory:') tightenDatabaseFiles(file, notice)
    if (options.withoutSecrets) return db
    // A folder the app sealed with the OS keychain has no key file: making one would only seal
    // new secrets with a second key. Say what sealed it and how to open it instead.
    if (options.secretKey === undefined && file !== ':memory:') appSealedFolder(file)
    const source = options.secretKey ?? (file === ':memory:' ? randomBytes(32) : () => fileSecretKey(secretKeyFileOf(file), notice))
    const box = createSecretBox(typeof source === 'function' ? source() : source)
    const sealed = sealSecretsAtRest(db, box, options.secretKey === undefined ? `the key file ${secretKeyFileOf(file)}` : 'the one given')
    if (sealed > 0) notice(`sealed the signing secrets of ${sealed} endpoint(s) and subscription(s) in ${file}: they were stored in plain text`)
    attachSecretBox(db, box)
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

/** The pragma that sets a connection's page cache to `mib` MiB (for a writer thread's own connection). */
export const pageCachePragma = (mib: number): string => `cache_size = -${mib * 1024}`

/** Grows the connection's page cache to at least `mib` MiB (SQLite's default is 2 MiB). */
export function growPageCache(db: Database, mib: number): void {
  if (Math.abs(Number(db.pragma('cache_size', { simple: true }))) < mib * 1024) db.pragma(pageCachePragma(mib))
}

/** `work` (store calls on this connection) as one transaction: each call commits all of it, or none. */
export function transactional<A extends unknown[], R>(db: Database, work: (...args: A) => R): (...args: A) => R {
  return db.transaction(work)
}
