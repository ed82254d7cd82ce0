// The record of which Electron native/electron's better-sqlite3 was built for, and the checks
// `npm start`, the native build and the app's main process make on it, on real files: Node's own
// build of better-sqlite3 stands for a built module (it is one, for Node's ABI).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeBinary, inspectNativeBuild, installNativeBuild, nativeDir } from '../../../scripts/native/record.mjs'
import { REPO_ROOT } from '../../support/run-cli'

const NODE_BUILD = resolve(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
const target = { electron: '39.8.9', abi: process.versions.modules, platform: process.platform, arch: process.arch }
const built = { ...target, moduleVersion: '12.0.0' }

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hookloop-native-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const out = () => join(dir, 'native', 'electron')
const binding = () => join(out(), 'better_sqlite3.node')
const recordFile = () => join(out(), 'build.json')
const record = () => JSON.parse(readFileSync(recordFile(), 'utf8')) as Record<string, unknown>

describe('what a native module says about itself', () => {
  it("reads the library format and the NODE_MODULE_VERSION of a real build", () => {
    expect(describeBinary(readFileSync(NODE_BUILD))).toEqual({ library: true, abi: process.versions.modules })
  })
  it('an HTML error page or a truncated download is no library', () => {
    expect(describeBinary(Buffer.from('<!doctype html><h1>404</h1>'))).toEqual({ library: false, abi: null })
    expect(describeBinary(readFileSync(NODE_BUILD).subarray(0, 2), process.platform).library).toBe(false)
  })
})

describe('installing a build and judging it', () => {
  it('records the Electron, ABI, platform, size and hash; the check then says ok', () => {
    installNativeBuild(NODE_BUILD, out(), built, 'test')
    expect(record()).toMatchObject({ module: 'better-sqlite3', moduleVersion: '12.0.0', electron: '39.8.9', abi: process.versions.modules, platform: process.platform, arch: process.arch, builtWith: 'test' })
    expect(record().sha256).toBe(createHash('sha256').update(readFileSync(NODE_BUILD)).digest('hex'))
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'ok', binding: binding() })
    // Only the pair is left behind: no temporary file.
    expect(readdirSync(out()).sort()).toEqual(['better_sqlite3.node', 'build.json'])
  })

  it('missing: nothing built', () => {
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'missing', detail: `${binding()} does not exist` })
  })

  it('no record: a file copied by hand is of unknown Electron', () => {
    mkdirSync(out(), { recursive: true })
    copyFileSync(NODE_BUILD, binding())
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'no-record', detail: expect.stringContaining('has no build record') })
  })

  it('wrong version: built for another Electron, or another platform or architecture', () => {
    installNativeBuild(NODE_BUILD, out(), built, 'test')
    expect(inspectNativeBuild(out(), { ...target, electron: '40.0.0' })).toMatchObject({
      state: 'wrong-version',
      detail: `${binding()} was built for Electron 39.8.9 (${process.platform}-${process.arch}), not Electron 40.0.0 (${process.platform}-${process.arch})`,
    })
    expect(inspectNativeBuild(out(), { ...target, arch: 'arm64-other' }).state).toBe('wrong-version')
  })

  it('corrupt: a damaged file, an unreadable record, a file that is no library, a module for another ABI', () => {
    installNativeBuild(NODE_BUILD, out(), built, 'test')
    writeFileSync(binding(), readFileSync(NODE_BUILD).subarray(0, 1000))
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'corrupt', detail: expect.stringContaining('is not the file its build record describes (1000 bytes') })

    writeFileSync(recordFile(), '{"electron": "39.8.9", ')
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'corrupt', detail: `${recordFile()} is not a valid build record` })

    // A record that matches its file, but the file is an error page.
    const page = Buffer.from('<html>rate limited</html>')
    writeFileSync(binding(), page)
    const sha256 = createHash('sha256').update(page).digest('hex')
    writeFileSync(recordFile(), JSON.stringify({ ...built, bytes: page.length, sha256 }))
    expect(inspectNativeBuild(out(), target)).toMatchObject({ state: 'corrupt', detail: `${binding()} is not a native library for ${process.platform}` })

    // Recorded for Electron's ABI, but the module registers for Node's.
    copyFileSync(NODE_BUILD, binding())
    const bytes = readFileSync(NODE_BUILD)
    writeFileSync(recordFile(), JSON.stringify({ ...built, abi: '140', bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }))
    expect(inspectNativeBuild(out(), { ...target, abi: '140' })).toMatchObject({
      state: 'corrupt',
      detail: `${binding()} registers for NODE_MODULE_VERSION ${process.versions.modules}, Electron 39.8.9 (${process.platform}-${process.arch}) needs 140`,
    })
  })

  it('refuses to install a module for the wrong ABI, leaving the previous pair untouched', () => {
    installNativeBuild(NODE_BUILD, out(), built, 'first')
    expect(() => installNativeBuild(NODE_BUILD, out(), { ...built, abi: '140' }, 'second')).toThrow(
      `the build produced a module for NODE_MODULE_VERSION ${process.versions.modules}, Electron 39.8.9 needs 140`,
    )
    expect(record().builtWith).toBe('first')
    expect(inspectNativeBuild(out(), target).state).toBe('ok')
  })

  it('an install interrupted after the old record went never leaves a pair the engine would load', () => {
    installNativeBuild(NODE_BUILD, out(), built, 'first')
    // Something in the way of the final rename (here a folder where the file goes).
    rmSync(binding())
    mkdirSync(join(binding(), 'in-the-way'), { recursive: true })
    expect(() => installNativeBuild(NODE_BUILD, out(), built, 'second')).toThrow()
    expect(existsSync(recordFile())).toBe(false)
    expect(inspectNativeBuild(out(), target).state).toBe('no-record')
    expect(readdirSync(out()).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})

describe('where the app looks', () => {
  it('the project folder in development, outside the asar archive in an installer', () => {
    expect(nativeDir('/home/me/hookloop')).toBe(join('/home/me/hookloop', 'native', 'electron'))
    expect(nativeDir('/opt/Hookloop/resources/app.asar')).toBe(join('/opt/Hookloop/resources/app.asar.unpacked', 'native', 'electron'))
  })
})
