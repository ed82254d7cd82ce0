// Signing secrets at rest: the secrets_json columns of endpoints and subscriptions hold
// AES-256-GCM ciphertext, never the secrets, so a copied or attached database (its WAL included)
// reveals none. The 32-byte data key comes from whoever opens the store: the app hands over one
// it keeps sealed with the OS keychain (Electron safeStorage, in electron/main); everything else
// (CLI, `hookloop serve`, tests) uses a random key kept in a 0600 file beside the database.
// The statement modules seal on write and open on read, so the rest of the engine sees plain JSON.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, openSync, readFileSync, writeSync, closeSync, statSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { StoreError } from './store-error'

/** The data key, or where it comes from. */
export type SecretKeySource = Buffer | (() => Buffer)

export interface SecretBox {
  seal(plain: string): string
  /** A sealed value opened; a legacy plain-text value (written before sealing existed) as it is. */
  open(stored: string): string
  isSealed(stored: string): boolean
}

const PREFIX = 'hlenc1:'
const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
// Binds the ciphertext to its purpose: a value sealed for something else does not open here.
const AAD = Buffer.from('hookloop signing secrets v1')

/** Where the CLI, `hookloop serve` and tests keep the data key of a database file. */
export function secretKeyFileOf(dataFile: string): string {
  return `${dataFile}.key`
}

/** Where the app keeps the data key sealed with the OS keychain (written by electron/main). */
export function sealedKeyFileOf(dataFile: string): string {
  return `${dataFile}.key.sealed`
}

/**
 * Throws a StoreError saying so when the app sealed this database's key with the OS keychain and
 * no key file is beside it: only the app (Electron's safeStorage) can unseal that key, and a
 * command that made a key file of its own would seal new secrets with a second key.
 */
export function appSealedFolder(dataFile: string): void {
  const sealed = sealedKeyFileOf(dataFile)
  if (existsSync(secretKeyFileOf(dataFile)) || !existsSync(sealed)) return
  throw new StoreError(
    'secrets_locked',
    `the signing secrets in ${dataFile} are sealed by the Hookloop app: it keeps their key with the OS keychain (${sealed}, sealed by Electron's safeStorage), which only the app can open. ` +
      'Open this folder in the app; `hookloop requests`, `deliveries` and `prune` read no secret and work on it as it is. ' +
      'To share the folder with every command, start the app once with HOOKLOOP_SHARE_DATA_KEY=1: it then also keeps the key in ' +
      `${secretKeyFileOf(dataFile)} (mode 0600), as \`hookloop serve\` does.`,
  )
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new StoreError('secrets_locked', `the data key must be ${KEY_BYTES} bytes (got ${key.length})`)
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(AAD)
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64')
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES))
      decipher.setAAD(AAD)
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
      } catch (error) {
        throw new StoreError('secrets_locked', 'a signing secret in this database was sealed with another data key', { cause: error })
      }
    },
    isSealed: (stored) => stored.startsWith(PREFIX),
  }
}

/**
 * The data key kept in a file (created with 32 random bytes, mode 0600, on first use; a looser
 * mode is tightened). The file is the key: without it the secrets in the database stay sealed.
 */
export function fileSecretKey(keyFile: string, notice: (line: string) => void): Buffer {
  if (!existsSync(keyFile)) {
    const key = randomBytes(KEY_BYTES)
    // 'wx': never overwrite a key another process wrote a moment ago.
    try {
      const fd = openSync(keyFile, 'wx', 0o600)
      try {
        writeSync(fd, key.toString('base64') + '\n')
      } finally {
        closeSync(fd)
      }
      return key
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StoreError('open_failed', `cannot create the data key ${keyFile}: ${(error as Error).message}`, { cause: error })
    }
  }
  if ((statSync(keyFile).mode & 0o077) !== 0) {
    chmodSync(keyFile, 0o600)
    notice(`tightened ${keyFile} to 0600 (it holds the key to the signing secrets)`)
  }
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')
  if (key.length !== KEY_BYTES) throw new StoreError('secrets_locked', `${keyFile} is not a Hookloop data key (${KEY_BYTES} bytes, base64)`)
  return key
}

// Which box belongs to which connection: the statement modules take only the Database.
const boxes = new WeakMap<Database, SecretBox>()

export function attachSecretBox(db: Database, box: SecretBox): void {
  boxes.set(db, box)
}

/** A box for a store opened to read what holds no secret: any use of it says so. */
export function lockedSecretBox(where: string): SecretBox {
  const locked = (): never => {
    throw new StoreError('secrets_locked', `the store at ${where} was opened without its data key (to read what holds no secret), so its signing secrets cannot be sealed or opened here`)
  }
  return { seal: locked, open: locked, isSealed: (stored) => stored.startsWith(PREFIX) }
}

export function secretBoxOf(db: Database): SecretBox {
  const box = boxes.get(db)
  if (!box) throw new StoreError('secrets_locked', 'this database connection was not opened with openDatabase, so it has no data key for the signing secrets')
  return box
}

const SECRET_TABLES = ['endpoints', 'subscriptions'] as const

function tablesPresent(db: Database): (typeof SECRET_TABLES)[number][] {
  const names = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
  return SECRET_TABLES.filter((t) => names.has(t))
}

/**
 * Checks the key against a secret already sealed (a wrong key is an error at open, naming the
 * cause, not a failure deep in a request), then seals every secret still in plain text (a
 * database written before secrets were sealed). Returns how many rows it sealed.
 */
export function sealSecretsAtRest(db: Database, box: SecretBox, describeKey: string): number {
  const tables = tablesPresent(db)
  for (const table of tables) {
    const sample = db.prepare(`SELECT secrets_json FROM ${table} WHERE secrets_json LIKE '${PREFIX}%' LIMIT 1`).pluck().get() as string | undefined
    if (sample === undefined) continue
    try {
      box.open(sample)
    } catch (error) {
      throw new StoreError(
        'secrets_locked',
        `the signing secrets in this database were sealed with another data key than ${describeKey}. A data folder the app made is opened with the app's OS-keychain key; a copied database needs the key file that was beside it.`,
        { cause: error },
      )
    }
  }
  const plain = tables.reduce((n, t) => n + (db.prepare(`SELECT count(*) FROM ${t} WHERE secrets_json NOT LIKE '${PREFIX}%'`).pluck().get() as number), 0)
  if (plain === 0) return 0
  let sealed = 0
  // secure_delete zeroes the old cells instead of leaving them in free space; the checkpoint
  // then folds the WAL into the file and truncates it, so no page image with a plain secret stays.
  const secureDelete = db.pragma('secure_delete', { simple: true }) as number
  db.pragma('secure_delete = ON')
  const run = db.transaction(() => {
    for (const table of tables) {
      const rows = db.prepare(`SELECT rowid AS id, secrets_json FROM ${table} WHERE secrets_json NOT LIKE '${PREFIX}%'`).all() as { id: number; secrets_json: string }[]
      const update = db.prepare(`UPDATE ${table} SET secrets_json = ? WHERE rowid = ?`)
      for (const row of rows) {
        update.run(box.seal(row.secrets_json), row.id)
        sealed++
      }
    }
  })
  try {
    run()
  } finally {
    db.pragma(`secure_delete = ${secureDelete}`)
  }
  db.pragma('wal_checkpoint(TRUNCATE)')
  return sealed
}
