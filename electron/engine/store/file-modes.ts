// The data folder and the database files are private to the user: the folder 0700, the database
// and its WAL and shared-memory files 0600 (they hold every captured request). A folder or file
// left looser by an older Hookloop (0755 / 0644) is tightened, and the caller is told.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

export const DATA_DIR_MODE = 0o700
export const DATA_FILE_MODE = 0o600

/** The database file and the two files SQLite keeps beside it in WAL mode. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`]
}

function tighten(path: string, mode: number, notice: (line: string) => void): void {
  // One stat, no exists-then-stat: another process closing the folder (a `hookloop listen` that
  // stops) removes -wal and -shm, and a file gone between two calls threw ENOENT and stopped the open.
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) return
  const current = stat.mode & 0o777
  if ((current & ~mode) === 0) return
  try {
    chmodSync(path, mode)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  notice(`tightened ${path} from ${current.toString(8).padStart(4, '0')} to ${mode.toString(8).padStart(4, '0')}: only you can read it now`)
}

// POSIX modes: Windows keeps access in ACLs (a user's profile folder is private already) and
// Node's chmod there only toggles read-only, so nothing is done there.
const POSIX = process.platform !== 'win32'

/** Before opening: the folder exists at 0700 and the database file at 0600 (SQLite gives -wal and -shm the file's mode). */
export function prepareDataFiles(file: string, notice: (line: string) => void): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE })
  if (!POSIX) return
  tighten(dir, DATA_DIR_MODE, notice)
  if (!existsSync(file)) closeSync(openSync(file, 'a', DATA_FILE_MODE))
  tightenDatabaseFiles(file, notice)
}

/** After opening (WAL on): the database, -wal and -shm files at 0600. */
export function tightenDatabaseFiles(file: string, notice: (line: string) => void): void {
  if (!POSIX) return
  for (const path of databaseFiles(file)) tighten(path, DATA_FILE_MODE, notice)
}
