// Electron's own postinstall is disabled (package.json "allowScripts") because it fails the
// whole install on a machine that cannot download the Electron binary. This runs it instead and
// turns a failed download into a notice: the CLI, browser mode and tests do not need the binary.
// Electron's installer reports a failed download with a whole stack trace, so its output is kept
// back and only the error's first line goes into the notice: one line on a machine that cannot
// reach Electron's downloads. With the binary in place it builds better-sqlite3 for that Electron
// (scripts/native-build.mjs) into native/electron/, where the app's engine looks for it;
// node_modules keeps Node's build.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { installedElectron } from './native/electron.mjs'
import { spawnNativeBuild } from './native/spawn-build.mjs'

const root = resolve(import.meta.dirname, '..')
const installer = join(root, 'node_modules', 'electron', 'install.js')
const WITHOUT_WINDOW = 'the Electron window will not be available; `npm start` opens browser mode instead (the CLI works)'

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log(`hookloop: ELECTRON_SKIP_BINARY_DOWNLOAD is set; ${WITHOUT_WINDOW}.`)
} else if (existsSync(installer)) {
  const run = spawnSync(process.execPath, [installer], { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, encoding: 'utf8' })
  if (run.status !== 0 || !installedElectron(root)?.binary) {
    const reason = firstLine(run.stderr) ?? firstLine(run.error?.message) ?? firstLine(run.stdout)
    console.log(`hookloop: the Electron binary could not be downloaded${reason ? ` (${reason})` : ''}; ${WITHOUT_WINDOW}.`)
  } else {
    const build = spawnNativeBuild(root)
    if (build.ok) console.log(`hookloop: ${build.line}`)
    else console.log(`hookloop: ${build.line} (full output: ${build.log}); \`npm start\` tries again, or run \`npm run native\`.`)
  }
}

function firstLine(text) {
  return text?.split('\n').map((line) => line.trim()).find(Boolean)
}
