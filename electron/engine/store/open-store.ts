// Opens a store wherever it is (store/store-location.ts) as a SqlEngine, migrated to this
// Hookloop's schema, with the data key that seals its signing secrets. A data folder keeps its
// key in a file beside the database, as it always has; a PostgreSQL store is shared by several
// processes and machines, so its key is given to each of them: HOOKLOOP_SECRET_KEY_FILE (a file
// of 32 random bytes in base64, made on first use) or HOOKLOOP_SECRET_KEY (the base64 itself).
import type { Database } from 'better-sqlite3'
import { openDatabase, type OpenDatabaseOptions } from './database'
import { migratePostgres } from './postgres-migrate'
import { openPostgresEngine } from './postgres-engine'
import { createSecretBox, fileSecretKey, lockedSecretBox, secretBoxOf, type SecretBox } from './secret-box'
import type { SqlEngine } from './sql-engine'
import { createSqliteEngine } from './sqlite-engine'
import { StoreError } from './store-error'
import type { StoreLocation } from './store-location'

export interface OpenedStore {
  engine: SqlEngine
  /** Seals and opens the signing secrets of this store. */
  secrets: SecretBox
}

export interface OpenStoreOptions {
  /** A PostgreSQL store's data key: a key file (made if missing) or the key; default from the environment. */
  postgresKey?: { file: string } | { key: Buffer }
  /** Where notices go (a migration applied, a key file made); default stderr. */
  notice?: (line: string) => void
  /** Options for a data folder's SQLite file (the Electron ABI's binding, the app's key). */
  sqlite?: Pick<OpenDatabaseOptions, 'nativeBinding' | 'secretKey'>
  env?: NodeJS.ProcessEnv
  /** Open it to read what holds no secret (lists, counts): no data key is asked for, and the secrets stay sealed. */
  withoutSecrets?: boolean
}

/**
 * A data folder's Database that is open already (an engine's, a test's) as an OpenedStore, for the
 * modules that read through SqlEngine: closing its engine leaves the Database to its owner.
 */
export function storeOfDatabase(db: Database): OpenedStore {
  return { engine: createSqliteEngine(db, { closeDatabase: false }), secrets: secretBoxOf(db) }
}

const stderrNotice = (line: string) => void process.stderr.write(`hookloop: ${line}\n`)

export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  const notice = options.notice ?? stderrNotice
  if (location.kind === 'sqlite') {
    const db = openDatabase({ file: location.file, notice, ...options.sqlite, ...(options.withoutSecrets ? { withoutSecrets: true } : {}) })
    return { engine: createSqliteEngine(db, { where: location.where }), secrets: options.withoutSecrets ? lockedSecretBox(location.where) : secretBoxOf(db) }
  }
  const key = options.withoutSecrets ? undefined : postgresKey(options.postgresKey ?? keyFromEnvironment(options.env ?? process.env), notice)
  const engine = await openPostgresEngine({ url: location.url })
  try {
    const migration = await migratePostgres(engine)
    if (migration.steps.length > 0) {
      notice(`migrated the PostgreSQL store at ${engine.where} from schema version ${migration.from} to ${migration.to}: ${migration.steps.join(', ')}`)
    }
    if (key === undefined) return { engine, secrets: lockedSecretBox(engine.where) }
    const secrets = createSecretBox(key)
    await checkKey(engine, secrets)
    return { engine, secrets }
  } catch (error) {
    await engine.close()
    throw error
  }
}

function keyFromEnvironment(env: NodeJS.ProcessEnv): { file: string } | { key: Buffer } {
  if (env.HOOKLOOP_SECRET_KEY) return { key: Buffer.from(env.HOOKLOOP_SECRET_KEY.trim(), 'base64') }
  if (env.HOOKLOOP_SECRET_KEY_FILE) return { file: env.HOOKLOOP_SECRET_KEY_FILE }
  throw new StoreError(
    'secrets_locked',
    'a PostgreSQL store needs the data key that seals its signing secrets, the same for every process: set HOOKLOOP_SECRET_KEY_FILE to a key file (made on first use; keep it safe, give it to every process) or HOOKLOOP_SECRET_KEY to the key in base64',
  )
}

function postgresKey(source: { file: string } | { key: Buffer }, notice: (line: string) => void): Buffer {
  if ('file' in source) return fileSecretKey(source.file, notice)
  if (source.key.length !== 32) throw new StoreError('secrets_locked', `HOOKLOOP_SECRET_KEY must be 32 bytes in base64 (it is ${source.key.length} bytes)`)
  return source.key
}

/** A wrong key is refused at open, naming the cause, not found out deep in a request. */
async function checkKey(engine: SqlEngine, box: SecretBox): Promise<void> {
  for (const table of ['endpoints', 'subscriptions']) {
    const sample = await engine.get<{ secrets_json: string }>(`SELECT secrets_json FROM ${table} WHERE secrets_json LIKE 'hlenc1:%' LIMIT 1`)
    if (!sample) continue
    try {
      box.open(sample.secrets_json)
    } catch (error) {
      throw new StoreError('secrets_locked', `the signing secrets in the PostgreSQL store at ${engine.where} were sealed with another data key than the one given (HOOKLOOP_SECRET_KEY_FILE / HOOKLOOP_SECRET_KEY)`, { cause: error })
    }
  }
}
