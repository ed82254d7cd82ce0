// The data key that seals signing secrets in the engine's database, kept with the OS keychain:
// Electron's safeStorage seals 32 random bytes into `hookloop.db.key.sealed` beside the database,
// and the unsealed key goes to the engine process over its IPC channel (never argv or the
// environment). A key file an earlier run, the CLI or `hookloop serve` left beside the database
// is adopted: sealed, then removed, so the secrets it guards stay readable and no plain key stays
// (unless HOOKLOOP_SHARE_DATA_KEY=1 asks to share the folder with the command line).
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { safeStorage } from 'electron'
import { DATA_FILE_NAME, sealedKeyFileOf, secretKeyFileOf } from '../engine/store'

export interface AppDataKey {
  /** base64; undefined when the OS offers no encryption (the engine then keeps its key file). */
  key: string | undefined
  /** Why the key is not with the keychain, for the warning banner. */
  warning: string | null
}

function writePrivate(file: string, text: string): void {
  // Write then rename: a crash never leaves half a key.
  writeFileSync(`${file}.tmp`, text, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
}

export function appDataKey(dataDir: string): AppDataKey {
  const dataFile = join(dataDir, DATA_FILE_NAME)
  const sealedFile = sealedKeyFileOf(dataFile)
  const plainFile = secretKeyFileOf(dataFile)
  if (!safeStorage.isEncryptionAvailable()) {
    return { key: undefined, warning: `No OS keychain is available: the key to the signing secrets stays in ${plainFile} (mode 0600).` }
  }
  // HOOKLOOP_SHARE_DATA_KEY=1: the command line and `hookloop mcp` (plain Node, no keychain) share
  // this folder, so the key also stays in the 0600 key file they read, as `hookloop serve` keeps it.
  const share = process.env.HOOKLOOP_SHARE_DATA_KEY === '1'
  const shared = (key: string): AppDataKey => {
    if (!existsSync(plainFile)) writePrivate(plainFile, key + '\n')
    return { key, warning: `HOOKLOOP_SHARE_DATA_KEY is set: the key to the signing secrets is also in ${plainFile} (mode 0600), for the command line.` }
  }
  if (existsSync(sealedFile)) {
    const key = safeStorage.decryptString(Buffer.from(readFileSync(sealedFile, 'utf8').trim(), 'base64'))
    return share ? shared(key) : { key, warning: null }
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const key = existsSync(plainFile) ? readFileSync(plainFile, 'utf8').trim() : randomBytes(32).toString('base64')
  writePrivate(sealedFile, safeStorage.encryptString(key).toString('base64') + '\n')
  if (share) return shared(key)
  if (existsSync(plainFile)) rmSync(plainFile)
  return { key, warning: null }
}
