// Electron's own postinstall is disabled (package.json "allowScripts") because it fails the
// whole install on a machine that cannot download the Electron binary. This runs it instead and
// turns a failed download into a notice: the CLI, browser mode and tests do not need the binary.
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'

const installer = 'node_modules/electron/install.js'
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log('hookloop: ELECTRON_SKIP_BINARY_DOWNLOAD is set; the Electron window will not be available (browser mode and the CLI work).')
} else if (existsSync(installer)) {
  const run = spawnSync(process.execPath, [installer], { stdio: 'inherit' })
  if (run.status !== 0) {
    console.log('hookloop: the Electron binary could not be downloaded; `npm start` will open browser mode instead (the CLI works).')
  }
}
