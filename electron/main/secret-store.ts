// Saved signing secrets, encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret or
// kwallet). Where the OS offers only safeStorage's plain-text fallback, the store still works but
// says so, and the app shows a warning banner.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { safeStorage } from 'electron'
import type { SecretStorageStatus } from '../../shared/bridge'

export interface SecretStore {
  status(): SecretStorageStatus
  save(name: string, value: string): void
  read(name: string): string | null
  list(): string[]
  delete(name: string): boolean
}

const NAME = /^[\w .:@-]{1,100}$/

export function secretStorageStatus(): SecretStorageStatus {
  const available = safeStorage.isEncryptionAvailable()
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : available ? 'os' : 'none'
  const encrypted = available && backend !== 'basic_text'
  return {
    encrypted,
    backend,
    warning: encrypted
      ? null
      : 'Saved secrets are NOT encrypted on this machine: no OS keychain (libsecret / kwallet) is available, so Electron falls back to plain text. Install and unlock a keyring to protect them.',
  }
}

/** file: where the encrypted map lives (in the user data folder). */
export function createSecretStore(file: string): SecretStore {
  function load(): Record<string, string> {
    if (!existsSync(file)) return {}
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
    return parsed && typeof parsed === 'object' ? parsed : {}
  }
  function store(map: Record<string, string>): void {
    mkdirSync(dirname(file), { recursive: true })
    // Write then rename: a crash never leaves half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(map), { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  }
  function checkName(name: string): void {
    if (!NAME.test(name)) throw new Error(`a secret's name is 1–100 letters, digits, spaces or . : @ _ - (got ${JSON.stringify(name.slice(0, 120))})`)
  }
  return {
    status: secretStorageStatus,
    save(name, value) {
      checkName(name)
      const map = load()
      map[name] = safeStorage.encryptString(value).toString('base64')
      store(map)
    },
    read(name) {
      checkName(name)
      const sealed = load()[name]
      return sealed === undefined ? null : safeStorage.decryptString(Buffer.from(sealed, 'base64'))
    },
    list: () => Object.keys(load()).sort(),
    delete(name) {
      checkName(name)
      const map = load()
      if (!(name in map)) return false
      delete map[name]
      store(map)
      return true
    },
  }
}
