// The data folder, one rule for every front door (the desktop app, `hookloop serve`, `listen`,
// `export`, `prune`, `resend`, `conform`): `--data DIR`, else $HOOKLOOP_DATA, else the user data
// folder of the platform. All of them then open the same store unless told otherwise.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** The environment variable naming the data folder when no `--data` is given. */
export const DATA_ENV = 'HOOKLOOP_DATA'

/** What `--help` says about `--data`, in the same words everywhere. */
export const DATA_DIR_DEFAULT_HELP = `default: $${DATA_ENV}, else the user data folder, shared with the app`

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Hookloop')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Hookloop')
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share')
  return join(base, 'hookloop')
}

/**
 * `--data` (when given), else $HOOKLOOP_DATA (when set and not empty: an empty value is how a shell
 * unsets it for one command), else the platform's user data folder. A relative folder is taken
 * from the working directory, so every process started in one place opens one file.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new DataDirError('--data needs a folder, got an empty value')
    return resolve(flag)
  }
  const fromEnv = env[DATA_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(fromEnv)
  return defaultDataDir(env, platform)
}

/** A data folder named in a way that cannot be used (the CLI turns it into a usage error). */
export class DataDirError extends Error {
  override name = 'DataDirError'
}

/** The desktop app's `--data DIR` (or `--data=DIR`) among its command-line arguments, if given. */
export function dataFlagOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg.startsWith('--data=')) return arg.slice('--data='.length)
    if (arg === '--data') return argv[i + 1] ?? ''
  }
  return undefined
}
