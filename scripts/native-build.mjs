// `npm run native`: better-sqlite3 for the installed Electron, into native/electron/ with its
// build record. Run by the postinstall step after the Electron binary is installed, and by
// `npm start` when the record does not match. Exit 0 built (or already right), 1 the build
// failed, 2 nothing to build for (no Electron package). The last line names the outcome.
//
// --root DIR: the project to build for (default: this one). --target-version V --abi N --out DIR
// build for a runtime other than the installed Electron; the test suite uses them to run this same
// pipeline against Node's own headers (Electron's cannot be downloaded there).
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { buildNative } from './native/build.mjs'
import { installedElectron } from './native/electron.mjs'
import { inspectNativeBuild, nativeDir } from './native/record.mjs'

const { values } = parseArgs({
  options: { root: { type: 'string' }, 'target-version': { type: 'string' }, abi: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } },
})
const root = values.root ? resolve(values.root) : resolve(import.meta.dirname, '..')

function done(code, line) {
  console.log(`hookloop: ${line}`)
  process.exit(code)
}

let target
if (values['target-version']) {
  if (!values.abi) done(2, '--target-version needs --abi (the NODE_MODULE_VERSION it loads)')
  target = { electron: values['target-version'], abi: values.abi, platform: process.platform, arch: process.arch }
} else {
  const electron = installedElectron(root)
  if (!electron) done(2, 'the electron package is not installed (node_modules/electron); run `npm install`')
  if (!electron.abi) done(2, `node_modules/electron ${electron.version} does not say which NODE_MODULE_VERSION it loads (abi_version); reinstall it`)
  target = electron.target
}
const outDir = values.out ? resolve(values.out) : nativeDir(root)

const before = inspectNativeBuild(outDir, target)
if (before.state === 'ok' && !values.force) done(0, `better-sqlite3 for Electron ${target.electron} is already built (${before.binding})`)

try {
  const { binding } = await buildNative({ root, target, outDir, log: (line) => console.log(line) })
  done(0, `better-sqlite3 for Electron ${target.electron} is built: ${binding}`)
} catch (error) {
  done(1, error instanceof Error ? error.message : String(error))
}
