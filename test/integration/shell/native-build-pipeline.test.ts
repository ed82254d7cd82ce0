// The native build pipeline end to end, for real, on something that can build here: Electron's
// headers cannot be downloaded on our machines, so scripts/native-build.mjs builds for this Node
// instead. @electron/rebuild reads a runtime's headers from ~/.electron-gyp/<version>; this test
// gives it a home folder holding Node's own headers under Node's version, and asks for that
// version and Node's ABI. Everything else (the staging copy, @electron/rebuild trying the prebuilt
// binary and falling back to node-gyp, the ABI check, the move into place, the record) is the
// code `npm install` runs for Electron. The result must load and answer a query.
//
// It compiles SQLite (minutes on a busy machine), so it runs only when asked:
// `npm run test:native-build`.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { inspectNativeBuild } from '../../../scripts/native/record.mjs'
import { REPO_ROOT } from '../../support/run-cli'

const asked = process.env.npm_lifecycle_event === 'test:native-build' || process.env.HOOKLOOP_NATIVE_BUILD_TEST === '1'
const require = createRequire(import.meta.url)
const NODE_BUILD = resolve(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

function nodeHeaders(): string {
  const candidates = [join(dirname(dirname(process.execPath)), 'include', 'node'), join(process.env.HOME ?? '', '.cache', 'node-gyp', process.versions.node, 'include', 'node')]
  const found = candidates.find((dir) => existsSync(join(dir, 'node_version.h')))
  if (!found) throw new Error(`Node's headers are not installed (looked in ${candidates.join(', ')}); on Debian: apt-get install nodejs-dev (or libnode-dev)`)
  return found
}

const scratch = mkdtempSync(join(tmpdir(), 'hookloop-native-pipeline-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe.runIf(asked)('scripts/native-build.mjs with @electron/rebuild, against Node’s own headers', () => {
  it('builds, checks, moves into place and records a better-sqlite3 that loads', async () => {
    const version = process.versions.node
    const home = join(scratch, 'home')
    const headers = join(home, '.electron-gyp', version)
    mkdirSync(join(headers, 'include'), { recursive: true })
    cpSync(nodeHeaders(), join(headers, 'include', 'node'), { recursive: true })
    const rebuildDir = dirname(require.resolve('@electron/rebuild/package.json', { paths: [REPO_ROOT] }))
    const gyp = JSON.parse(readFileSync(require.resolve('node-gyp/package.json', { paths: [rebuildDir] }), 'utf8')) as { installVersion: number }
    writeFileSync(join(headers, 'installVersion'), String(gyp.installVersion))
    const nodeBuildBefore = hash(NODE_BUILD)

    const out = join(scratch, 'native', 'electron')
    const args = [resolve(REPO_ROOT, 'scripts/native-build.mjs'), '--target-version', version, '--abi', process.versions.modules, '--out', out]
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.on('close', done))
    expect(code, output).toBe(0)
    expect(output.trim().split('\n').at(-1)).toBe(`hookloop: better-sqlite3 for Electron ${version} is built: ${join(out, 'better_sqlite3.node')}`)

    const target = { electron: version, abi: process.versions.modules, platform: process.platform, arch: process.arch }
    const status = inspectNativeBuild(out, target)
    expect(status.state).toBe('ok')
    if (status.state !== 'ok') return
    expect(status.record).toMatchObject({ module: 'better-sqlite3', builtWith: expect.stringMatching(/^@electron\/rebuild 3\./) })
    const db = new Database(':memory:', { nativeBinding: status.binding })
    expect(db.prepare('select sqlite_version() as v').get()).toEqual({ v: expect.stringMatching(/^3\./) })
    db.close()

    // Node's build in node_modules is as it was, and no staging folder is left.
    expect(hash(NODE_BUILD)).toBe(nodeBuildBefore)
    expect(readdirSync(resolve(REPO_ROOT, 'native')).filter((name) => name.startsWith('.staging-'))).toEqual([])
    // A second run finds the record right and builds nothing.
    const again = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] })
    let second = ''
    again.stdout.on('data', (chunk: Buffer) => (second += chunk.toString()))
    expect(await new Promise((done) => again.on('close', done))).toBe(0)
    expect(second).toBe(`hookloop: better-sqlite3 for Electron ${version} is already built (${join(out, 'better_sqlite3.node')})\n`)
  }, 1_200_000)
})
