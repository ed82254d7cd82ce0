// The user data folder, per platform. One place for every front door: `hookloop listen` and
// `serve`, and the desktop app (a packaged app included), so all of them open the same store.
import { homedir } from 'node:os'
import { join } from 'node:path'

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Hookloop')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Hookloop')
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share')
  return join(base, 'hookloop')
}
