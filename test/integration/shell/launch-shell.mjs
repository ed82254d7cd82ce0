// Runs the built main process (out/main/index.js) under Node with `electron` resolved to the
// stand-in (see electron-stand-in/electron.mjs for why). Arguments go to the main process as
// they would after `electron .` (e.g. --smoke-test). With HOOKLOOP_SHELL_PROBE=1 it waits until
// the window shows the connected app, probes what SECURITY.md promises, prints the findings as
// `@@shell probe <json>` and quits the app the way a person would.
import { register } from 'node:module'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '../../..')
register('./electron-stand-in/hooks.mjs', import.meta.url)
// The stand-in plays the Electron of node_modules; the ABI it loads (process.versions.modules)
// stays Node's, which is what the engine child really runs on.
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version
Object.defineProperty(process.versions, 'electron', { value: electronVersion, enumerable: true })

const standIn = await import('./electron-stand-in/electron.mjs')
const { probe } = await import('./shell-probes.mjs')
await import(pathToFileURL(join(root, 'out', 'main', 'index.js')).href)

if (process.env.HOOKLOOP_SHELL_PROBE) {
  try {
    standIn.announce('probe', await probe(standIn, { root }))
  } catch (error) {
    standIn.announce('probe-failed', { message: error instanceof Error ? error.stack : String(error) })
  }
  await standIn.app.quit()
}
