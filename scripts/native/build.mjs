// Builds better-sqlite3 for Electron with the ecosystem's tool, @electron/rebuild: it fetches
// better-sqlite3's prebuilt binary for Electron's runtime (prebuild-install) and falls back to
// compiling against Electron's headers (node-gyp). It rebuilds modules in place, so it works on a
// copy of the package in a staging folder: node_modules keeps Node's build for the CLI and tests.
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { installNativeBuild, NATIVE_FILE } from './record.mjs'

const require = createRequire(import.meta.url)

/**
 * root: the project (node_modules/better-sqlite3 and @electron/rebuild come from there).
 * target: { electron, abi, platform, arch } to build for. outDir: where the module and its record
 * go (native/electron). Resolves with the installed binding; rejects with a one-sentence reason.
 */
export async function buildNative({ root, target, outDir, log = () => {} }) {
  const source = join(root, 'node_modules', 'better-sqlite3')
  if (!existsSync(join(source, 'package.json'))) throw new Error(`${source} is missing; run \`npm install\``)
  const moduleVersion = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version
  const rebuilderPackage = require.resolve('@electron/rebuild/package.json', { paths: [root] })
  const rebuilderVersion = JSON.parse(readFileSync(rebuilderPackage, 'utf8')).version
  // Inside the project, so the copy finds better-sqlite3's own dependencies (prebuild-install,
  // bindings) in the project's node_modules the way @electron/rebuild looks them up.
  const staging = join(root, 'native', `.staging-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  try {
    mkdirSync(join(staging, 'node_modules'), { recursive: true })
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'hookloop-native', private: true, dependencies: { 'better-sqlite3': moduleVersion } }))
    const copy = join(staging, 'node_modules', 'better-sqlite3')
    // A real copy (node_modules/better-sqlite3 may be a link: @electron/rebuild would follow it and
    // rebuild Node's build in place). Node's compiled build stays behind: the copy is built afresh.
    const real = realpathSync(source)
    cpSync(real, copy, { recursive: true, dereference: true, filter: (path) => path !== join(real, 'build') })
    if (realpathSync(copy) !== copy) throw new Error(`the staging copy ${copy} is not a folder of its own`)
    log(`building better-sqlite3 ${moduleVersion} for Electron ${target.electron} (${target.platform}-${target.arch}) with @electron/rebuild ${rebuilderVersion}…`)
    const { rebuild } = require(require.resolve('@electron/rebuild', { paths: [root] }))
    try {
      await rebuild({ buildPath: staging, electronVersion: target.electron, arch: target.arch, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' })
    } catch (error) {
      throw new Error(`@electron/rebuild could not build better-sqlite3 for Electron ${target.electron}: ${firstLine(error)}`)
    }
    const built = join(copy, 'build', 'Release', NATIVE_FILE)
    if (!existsSync(built)) throw new Error(`@electron/rebuild finished without producing ${built}`)
    return installNativeBuild(built, outDir, { ...target, moduleVersion }, `@electron/rebuild ${rebuilderVersion}`)
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function firstLine(error) {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n').find((line) => line.trim()) ?? message
}
