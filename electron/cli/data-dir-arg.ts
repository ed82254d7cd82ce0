// `--data DIR` of every command that opens a store, resolved by the one rule of data-dir.ts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DATA_DIR_DEFAULT_HELP, DATA_ENV, DataDirError, resolveDataDir } from '../engine/data-dir'
import { DATA_FILE_NAME } from '../engine/store'
import { UsageError } from './usage-error'

export { DATA_DIR_DEFAULT_HELP }

/** The data folder for `--data` (or its absence), a bad value as a usage error naming the command. */
export function dataDirArg(command: string, flag: string | undefined): string {
  try {
    return resolveDataDir(flag)
  } catch (error) {
    if (error instanceof DataDirError) throw new UsageError(`${command}: ${error.message}`)
    throw error
  }
}

/** The store file of a data folder that must hold one already; where the folder came from is said when it does not. */
export function existingStoreFile(command: string, flag: string | undefined): { dataDir: string; file: string } {
  const dataDir = dataDirArg(command, flag)
  const file = join(dataDir, DATA_FILE_NAME)
  if (!existsSync(file)) {
    const from = flag !== undefined ? '--data' : process.env[DATA_ENV]?.trim() ? `$${DATA_ENV}` : 'the user data folder'
    throw new UsageError(`${command}: no Hookloop data in ${dataDir} (${from}; ${file} does not exist)`)
  }
  return { dataDir, file }
}
