// Runs scripts/native-build.mjs as its own process with its output in native/build.log, so the
// postinstall step and `npm start` show one line, not a compiler's transcript.
import { spawnSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const SCRIPT = join(import.meta.dirname, '..', 'native-build.mjs')

/** Returns { ok, line, log }: line is the build's last `hookloop:` line (why it failed). */
export function spawnNativeBuild(root, { env = process.env } = {}) {
  const logDir = join(root, 'native')
  mkdirSync(logDir, { recursive: true })
  const log = join(logDir, 'build.log')
  const fd = openSync(log, 'w')
  let status
  try {
    status = spawnSync(process.execPath, [SCRIPT, '--root', root], { stdio: ['ignore', fd, fd], env }).status
  } finally {
    closeSync(fd)
  }
  const text = readFileSync(log, 'utf8')
  let line = text.split('\n').filter((l) => l.startsWith('hookloop: ')).pop()?.slice('hookloop: '.length) ?? `the native build exited (${status}) without saying why`
  // node-gyp says why in its transcript, not in the error @electron/rebuild rethrows.
  if (status !== 0 && /network connectivity|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(text)) line += ' (Electron\'s headers could not be downloaded: no network)'
  return { ok: status === 0, line, log: relative(root, log) || log }
}
