// What `npm start` decides before opening the window (scripts/native/window-check.mjs), in a
// project folder of its own. Its node_modules/electron is a stand-in install (package.json,
// abi_version, path.txt and a placeholder binary that is never run): the real binary cannot be
// downloaded here. Everything else is real: better-sqlite3 and @electron/rebuild are the project's,
// and a rebuild really runs scripts/native-build.mjs, which fails for lack of Electron's headers
// (the Electron version is one that does not exist, so it fails the same way on any machine).
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { installNativeBuild } from '../../../scripts/native/record.mjs'
import { spawnNativeBuild } from '../../../scripts/native/spawn-build.mjs'
import { checkWindow } from '../../../scripts/native/window-check.mjs'
import { REPO_ROOT } from '../../support/run-cli'

const NODE_BUILD = resolve(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
// No such Electron: its headers and prebuilt binaries cannot be found anywhere.
const VERSION = '0.0.1-hookloop-test'

let scratch: string
let projects = 0
const nodeBuildHash = () => createHash('sha256').update(readFileSync(NODE_BUILD)).digest('hex')
let nodeBuildBefore: string
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hookloop-window-check-'))
  nodeBuildBefore = nodeBuildHash()
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
// The project's node_modules are linked into each test project: no build may touch Node's copy.
afterEach(() => expect(nodeBuildHash()).toBe(nodeBuildBefore))

function project(options: { binary: boolean }): string {
  const root = join(scratch, `project-${++projects}`)
  const electron = join(root, 'node_modules', 'electron')
  mkdirSync(join(electron, 'dist'), { recursive: true })
  writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: VERSION }))
  writeFileSync(join(electron, 'abi_version'), process.versions.modules)
  if (options.binary) {
    writeFileSync(join(electron, 'path.txt'), 'electron')
    writeFileSync(join(electron, 'dist', 'electron'), 'placeholder for the Electron binary')
  }
  for (const name of ['better-sqlite3', '@electron', 'prebuild-install', 'bindings']) symlinkSync(resolve(REPO_ROOT, 'node_modules', name), join(root, 'node_modules', name))
  return root
}

const nativeOf = (root: string) => join(root, 'native', 'electron')
const target = { electron: VERSION, abi: process.versions.modules, platform: process.platform, arch: process.arch, moduleVersion: 'test' }

// The real native build, with a home folder of its own (node-gyp keeps headers there).
const realBuild = (root: string) => {
  const home = join(root, 'home')
  mkdirSync(home, { recursive: true })
  return spawnNativeBuild(root, { env: { ...process.env, HOME: home, USERPROFILE: home } })
}

describe('npm start: before the window opens', () => {
  it('without the Electron binary: one notice, browser mode', () => {
    const plan = checkWindow(project({ binary: false }), { build: () => expect.unreachable('no build without a binary') })
    expect(plan).toEqual({ mode: 'browser', notices: ['the Electron binary is not installed (see README, "Set up"); starting browser mode instead.'] })
  })

  it('a build recorded for this Electron: the window, nothing rebuilt', () => {
    const root = project({ binary: true })
    installNativeBuild(NODE_BUILD, nativeOf(root), target, 'test')
    const plan = checkWindow(root, { build: () => expect.unreachable('nothing to rebuild') })
    expect(plan).toEqual({ mode: 'electron', binary: join(root, 'node_modules', 'electron', 'dist', 'electron'), notices: [] })
  })

  it('built for another Electron: says so, rebuilds; offline the rebuild fails, says what to run, browser mode', () => {
    const root = project({ binary: true })
    installNativeBuild(NODE_BUILD, nativeOf(root), { ...target, electron: '38.1.0' }, 'test')
    const plan = checkWindow(root, { build: realBuild })
    expect(plan.mode).toBe('browser')
    expect(plan.notices).toHaveLength(2)
    expect(plan.notices[0]).toBe(
      `better-sqlite3 for Electron ${VERSION} was built for another Electron (${join(nativeOf(root), 'better_sqlite3.node')} was built for Electron 38.1.0 (${process.platform}-${process.arch}), not Electron ${VERSION} (${process.platform}-${process.arch})); building it now (\`npm run native\`)…`,
    )
    expect(plan.notices[1]).toMatch(
      new RegExp(`^could not build better-sqlite3 for Electron ${VERSION.replace(/\./g, '\\.')}: @electron/rebuild could not build better-sqlite3 for Electron ${VERSION.replace(/\./g, '\\.')}: .+ \\(full output: native/build\\.log\\)\\. The window needs it; run \`npm run native\` where Electron's headers can be downloaded\\. Starting browser mode instead\\.$`),
    )
    // The failed build left the old pair as it was (still refused) and no staging folder.
    expect(JSON.parse(readFileSync(join(nativeOf(root), 'build.json'), 'utf8')).electron).toBe('38.1.0')
    expect(readFileSync(join(root, 'native', 'build.log'), 'utf8')).toContain(`building better-sqlite3`)
    expect(() => readFileSync(join(root, 'native', `.staging-${process.pid}`))).toThrow()
  })

  it('a damaged file or a missing one: named, rebuilt, or browser mode with the reason', () => {
    const damaged = project({ binary: true })
    installNativeBuild(NODE_BUILD, nativeOf(damaged), target, 'test')
    writeFileSync(join(nativeOf(damaged), 'better_sqlite3.node'), 'half a file')
    const plan = checkWindow(damaged, { build: realBuild })
    expect(plan.mode).toBe('browser')
    expect(plan.notices[0]).toContain(`better-sqlite3 for Electron ${VERSION} is damaged (`)
    expect(plan.notices[0]).toContain('is not the file its build record describes (11 bytes')
    expect(plan.notices[1]).toContain(`could not build better-sqlite3 for Electron ${VERSION}: @electron/rebuild could not build`)

    const missing = checkWindow(project({ binary: true }), { build: realBuild })
    expect(missing.mode).toBe('browser')
    expect(missing.notices[0]).toContain(`better-sqlite3 for Electron ${VERSION} is not built yet (`)
    expect(missing.notices[1]).toContain('Starting browser mode instead.')
  })

  it('a rebuild that succeeds is checked again before the window opens', () => {
    const root = project({ binary: true })
    const plan = checkWindow(root, {
      // What scripts/native-build.mjs leaves after a successful build.
      build: (dir: string) => (installNativeBuild(NODE_BUILD, nativeOf(dir), target, 'test'), { ok: true, line: 'built', log: 'native/build.log' }),
    })
    expect(plan).toMatchObject({ mode: 'electron', notices: [expect.stringContaining('is not built yet')] })
  })
})
