// What `npm start` checks before it opens the window: the Electron binary is installed, and
// native/electron holds better-sqlite3 built for exactly that Electron (the build record matches,
// the file is whole). A mismatch is rebuilt; what cannot be fixed here is said in one line each,
// and the caller falls back to browser mode, so nobody meets a NODE_MODULE_VERSION dialog.
import { installedElectron } from './electron.mjs'
import { inspectNativeBuild, nativeDir } from './record.mjs'
import { spawnNativeBuild } from './spawn-build.mjs'

const WHY = {
  missing: 'is not built yet',
  'no-record': 'has no build record',
  'wrong-version': 'was built for another Electron',
  corrupt: 'is damaged',
}

/**
 * Returns { mode: 'electron', binary, notices } or { mode: 'browser', notices }; notices are the
 * lines to print. build(root) runs the native build (default: scripts/native-build.mjs).
 */
export function checkWindow(root, { build = (dir) => spawnNativeBuild(dir) } = {}) {
  const electron = installedElectron(root)
  if (!electron?.binary) {
    return {
      mode: 'browser',
      notices: ['the Electron binary is not installed (see README, "Set up"); starting browser mode instead.'],
    }
  }
  const status = inspectNativeBuild(nativeDir(root), electron.target)
  if (status.state === 'ok') return { mode: 'electron', binary: electron.binary, notices: [] }
  const notices = [`better-sqlite3 for Electron ${electron.version} ${WHY[status.state]} (${status.detail}); building it now (\`npm run native\`)…`]
  const result = build(root)
  const after = result.ok ? inspectNativeBuild(nativeDir(root), electron.target) : null
  if (after?.state === 'ok') return { mode: 'electron', binary: electron.binary, notices }
  const reason = result.ok ? (after?.detail ?? 'the build left no usable file') : result.line
  notices.push(
    `could not build better-sqlite3 for Electron ${electron.version}: ${reason} (full output: ${result.log}). The window needs it; run \`npm run native\` where Electron's headers can be downloaded. Starting browser mode instead.`,
  )
  return { mode: 'browser', notices }
}
