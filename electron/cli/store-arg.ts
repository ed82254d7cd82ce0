// `--store STORE` of every command that can work on a team's store as well as on a data folder:
// STORE is a data folder or a postgres:// URL (store/store-location.ts). Without it, `--data` (a
// folder) wins, then HOOKLOOP_STORE, then the data folder rule of data-dir.ts.
import { existsSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { DATA_FILE_NAME, openStore, parseStoreLocation, StoreError, type OpenedStore, type OpenStoreOptions, type StoreLocation } from '../engine/store'
import { dataDirArg, existingStoreFile } from './data-dir-arg'
import { UsageError } from './usage-error'

export const STORE_ENV = 'HOOKLOOP_STORE'

export const STORE_OPTION = {
  type: 'string',
  value: 'STORE',
  help: `a data folder or a team's postgres://user:password@host:5432/database (default: --data, else $${STORE_ENV}, else the data folder)`,
} as const

/** A --store value (or HOOKLOOP_STORE's), a bad one as a usage error naming where it came from. */
export function storeLocationArg(command: string, from: string, value: string): StoreLocation {
  try {
    return parseStoreLocation(value)
  } catch (error) {
    if (error instanceof StoreError) throw new UsageError(`${command}: ${from} ${error.message}`)
    throw error
  }
}

/**
 * The store a command names, which must exist already: `where` is how messages name it (the data
 * folder, or postgres://user@host:port/database).
 */
export function existingStoreArg(command: string, values: { store?: string | undefined; data?: string | undefined }): { location: StoreLocation; where: string } {
  if (values.store !== undefined && values.data !== undefined) throw new UsageError(`${command}: give --store or --data, not both (--store takes a data folder too)`)
  const given = values.store ?? (values.data === undefined ? process.env[STORE_ENV]?.trim() || undefined : undefined)
  if (given === undefined) {
    const { dataDir, file } = existingStoreFile(command, values.data)
    return { location: { kind: 'sqlite', file, where: file }, where: dataDir }
  }
  const from = values.store !== undefined ? '--store' : `$${STORE_ENV}`
  const location = storeLocationArg(command, from, given)
  if (location.kind === 'sqlite' && !existsSync(location.file)) throw new UsageError(`${command}: no Hookloop data at ${given} (${from}; ${location.file} does not exist)`)
  return { location, where: location.kind === 'sqlite' ? given : location.where }
}

/** Opens the store a command names (existingStoreArg), migrated; a store that cannot be opened is a StoreError. */
export async function openStoreArg(command: string, values: { store?: string | undefined; data?: string | undefined }, options: OpenStoreOptions = {}): Promise<OpenedStore & { where: string }> {
  const { location, where } = existingStoreArg(command, values)
  return { ...(await openStore(location, options)), where }
}

/**
 * The store of a command that makes a data folder when there is none (listen, run): `--store` (a
 * data folder or a team's postgres:// URL), else `--data`, else $HOOKLOOP_STORE, else the data
 * folder rule (data-dir.ts). A team's `where` names it without its password; its URL is kept
 * in memory only, never printed.
 */
export function storeOrDataFolderArg(command: string, values: { store?: string | undefined; data?: string | undefined }): { dataDir: string } | { url: string; where: string } {
  if (values.store !== undefined && values.data !== undefined) throw new UsageError(`${command}: give --store or --data, not both (--store takes a data folder too)`)
  const given = values.store ?? (values.data === undefined ? process.env[STORE_ENV]?.trim() || undefined : undefined)
  if (given === undefined) return { dataDir: dataDirArg(command, values.data) }
  const from = values.store !== undefined ? '--store' : `$${STORE_ENV}`
  const location = storeLocationArg(command, from, given)
  if (location.kind === 'postgres') return { url: location.url, where: location.where }
  // A data folder's store is its hookloop.db; a file of another name is not one.
  if (basename(location.file) !== DATA_FILE_NAME) throw new UsageError(`${command}: ${from} ${given} names a file; give its data folder (the store is <folder>/${DATA_FILE_NAME})`)
  return { dataDir: dataDirArg(command, dirname(location.file)) }
}

/**
 * The warning for a --store URL that carries a password (after the user name, or as a `password`
 * parameter): the argv of a process that runs for hours shows in `ps` to anyone on the machine.
 * Null when there is none; the password itself is never in it.
 */
export function passwordOnCommandLine(store: string | undefined): string | null {
  if (store === undefined || !/^postgres(ql)?:/i.test(store)) return null
  try {
    const parsed = new URL(store)
    if (parsed.password === '' && !parsed.searchParams.has('password')) return null
  } catch {
    return null
  }
  return `--store carries a password on the command line, where \`ps\` shows it to anyone on this machine; give the URL in $${STORE_ENV} instead`
}
