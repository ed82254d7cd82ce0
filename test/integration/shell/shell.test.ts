// The Electron shell, exercised: the built main process (out/main/index.js) and preload
// (out/preload/index.cjs) run under Node against a stand-in for the `electron` module, because the
// Electron binary cannot be downloaded or run here (see electron-stand-in/electron.mjs). The
// engine is a real child process on out/main/host.js with utilityProcess's messages, the window is
// real Chromium on the engine's origin, the preload's bridge is what the page calls.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installNativeBuild } from '../../../scripts/native/record.mjs'
import { BRIDGE_CHANNELS } from '../../../shared/bridge'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { createEngine } from '../../../electron/engine/engine'

const HARNESS = resolve(REPO_ROOT, 'test/integration/shell/launch-shell.mjs')
const NODE_BUILD = resolve(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')
const ELECTRON_VERSION = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }).version

interface ShellRun {
  code: number | null
  stdout: string
  stderr: string
  /** The `@@shell <name> <json>` lines the stand-in and the probes printed. */
  said: Record<string, unknown>
}

let scratch: string

beforeAll(() => {
  if (!existsSync(resolve(REPO_ROOT, 'out/main/index.js'))) throw new Error('out/main/index.js is missing: run `npm run build` first')
  scratch = mkdtempSync(join(tmpdir(), 'hookloop-shell-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let folders = 0

/**
 * The app's folder as main sees it (app.getAppPath()): native/electron holds a better-sqlite3 the
 * stand-in's runtime loads (Node's build, recorded for the Electron the stand-in plays), as
 * `npm run native` leaves it for the real Electron.
 */
function appFolder(record: { electron?: string } = {}): string {
  const dir = join(scratch, `app-${++folders}`)
  mkdirSync(dir, { recursive: true })
  const target = { electron: record.electron ?? ELECTRON_VERSION, abi: process.versions.modules, platform: process.platform, arch: process.arch, moduleVersion: 'test' }
  installNativeBuild(NODE_BUILD, join(dir, 'native', 'electron'), target, 'a copy of the Node build (shell test)')
  return dir
}

function launch(args: string[], env: { appPath: string; dataDir?: string; probe?: boolean; extra?: NodeJS.ProcessEnv }): Promise<ShellRun> {
  const userData = join(scratch, `user-data-${++folders}`)
  const child = spawn(process.execPath, [HARNESS, ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOOKLOOP_STAND_IN_APP_PATH: env.appPath,
      HOOKLOOP_STAND_IN_USER_DATA: userData,
      HOOKLOOP_DATA: env.dataDir ?? join(scratch, `data-${folders}`),
      ...(env.probe ? { HOOKLOOP_SHELL_PROBE: '1' } : {}),
      ...env.extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString()
      const said: Record<string, unknown> = {}
      for (const line of stdout.split('\n')) {
        const match = /^@@shell (\S+) (.*)$/.exec(line)
        if (match) said[match[1]!] = JSON.parse(match[2]!)
      }
      resolvePromise({ code, stdout, stderr: Buffer.concat(err).toString(), said })
    })
  })
}

interface Probe {
  windows: { options: { webPreferences: Record<string, unknown> }; shown: boolean; url: string }[]
  preloadExists: boolean
  fork: { modulePath: string; options: Record<string, unknown>; messageTypes: string[] }
  start: { type: string; options: Record<string, unknown>; tokenLength: number }
  ready: { type: string; origin: string }
  rendererDirExists: boolean
  exposed: { key: string; members: { name: string; type: string }[] }[]
  pageBridge: string[]
  address: { socketOrigin: string; tokenIsTheEngines: boolean }
  ipc: Record<string, { ok: boolean; error?: string }>
  navigations: { url: string; prevented: boolean }[]
  urlAfterNavigation: string
  redirect: { foreign: { prevented: boolean }; own: { prevented: boolean } }
  webview: { prevented: boolean }
  windowOpen: { action: string } | null
  permission: boolean
  permissionCheck: boolean
  csp: { foreign: string[] | null; own: string[] | null }
  scenario: { state: string; error: string | null }
  engineLoaded: { beforeScenario: string[]; afterScenario: string[] }
  errorBoxes: unknown[]
}

// Each run starts an engine and Chromium; on a busy machine that takes a while.
const SHELL_BOUND = 180_000

type Forks = { killedByMain: boolean; leftRunning: boolean; exit: { code: number | null; signal: string | null } }[]

describe('the Electron shell under a stand-in electron module', () => {
  it('starts the engine, opens one locked-down window on its origin, answers only its own window, and stops the engine on quit', async () => {
    const appPath = appFolder()
    const run = await launch([], { appPath, probe: true })
    expect(run.said['probe-failed'], run.stderr).toBeUndefined()
    const probe = run.said.probe as Probe
    expect(probe, run.stdout + run.stderr).toBeDefined()

    // app.whenReady → the engine, as utilityProcess would start it: out/main/host.js, one `start`.
    expect(probe.fork.modulePath).toBe(resolve(REPO_ROOT, 'out/main/host.js'))
    expect(probe.fork.messageTypes).toEqual(['start'])
    expect(probe.start.tokenLength).toBeGreaterThanOrEqual(43)
    expect(probe.ready.type).toBe('ready')
    expect(probe.start.options.staticDir).toBe(resolve(REPO_ROOT, 'out/renderer'))
    expect(probe.rendererDirExists).toBe(true)
    // Electron's build of better-sqlite3, and only it, is what the engine loads (scenario runs too).
    const binding = join(appPath, 'native', 'electron', 'better_sqlite3.node')
    expect(probe.start.options.nativeBinding).toBe(binding)
    expect(probe.engineLoaded.beforeScenario).toEqual([binding])
    expect(probe.scenario).toMatchObject({ state: 'done', error: null })
    expect(probe.engineLoaded.afterScenario).toEqual([binding])
    // No keyring behind the stand-in's safeStorage: the warning goes to the engine for every UI.
    expect(probe.start.options.warnings).toEqual([expect.stringContaining('NOT encrypted')])

    // One window on the engine's origin, with a preload that exists and the SECURITY.md options.
    expect(probe.windows).toHaveLength(1)
    const [window] = probe.windows
    expect(window!.url).toBe(`${probe.ready.origin}/`)
    expect(window!.shown).toBe(true)
    expect(window!.options.webPreferences.preload).toBe(resolve(REPO_ROOT, 'out/preload/index.cjs'))
    expect(probe.preloadExists).toBe(true)
    expect(window!.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    })

    // The preload exposes exactly the bridge's named functions, and the page got them.
    const bridge = ['platform', ...Object.keys(BRIDGE_CHANNELS)]
    expect(probe.exposed.map((e) => e.key)).toEqual(['hookloop'])
    expect(probe.exposed[0]!.members.map((m) => m.name).sort()).toEqual([...bridge].sort())
    expect(probe.exposed[0]!.members.filter((m) => m.type !== 'function').map((m) => m.name)).toEqual(['platform'])
    expect(probe.pageBridge.sort()).toEqual([...bridge].sort())
    expect(probe.address).toEqual({ socketOrigin: probe.ready.origin.replace('http', 'ws'), tokenIsTheEngines: true })

    // The IPC sender check: our window's main frame only.
    expect(probe.ipc.fromWindow!.ok).toBe(true)
    for (const refused of ['fromSubframeOfOurOrigin', 'fromForeignSubframe', 'fromOtherWebContents']) {
      expect(probe.ipc[refused], refused).toEqual({ ok: false, error: expect.stringContaining('refused: not the Hookloop window') })
    }
    expect(run.stderr).toContain('hookloop: refused hookloop:engine-address from https://attacker.example/')

    // Navigation away, foreign redirects, webviews, new windows and permissions: all denied.
    expect(probe.navigations).toEqual([{ url: 'https://attacker.example/phish', prevented: true }])
    expect(probe.urlAfterNavigation).toBe(`${probe.ready.origin}/`)
    expect(probe.redirect).toEqual({ foreign: { prevented: true }, own: { prevented: false } })
    expect(probe.webview.prevented).toBe(true)
    expect(probe.windowOpen).toEqual({ action: 'deny' })
    expect(probe.permission).toBe(false)
    expect(probe.permissionCheck).toBe(false)
    // The CSP goes onto anything not from the engine (whose pages carry it already).
    const port = new URL(probe.ready.origin).port
    expect(probe.csp.foreign).toEqual([expect.stringContaining(`connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`)])
    expect(probe.csp.foreign![0]).toContain("default-src 'none'")
    expect(probe.csp.own).toBeNull()
    expect(probe.errorBoxes).toEqual([])

    // Quitting stopped the engine cleanly (main waited for it) before the app ended.
    expect(run.said.forks as Forks).toEqual([{ pid: expect.any(Number), killedByMain: true, leftRunning: false, exit: { code: 0, signal: null } }])
    expect(run.code).toBe(0)
  }, SHELL_BOUND)

  it('--smoke-test: engine started, store open, window connected, exit 0', async () => {
    const dataDir = join(scratch, 'smoke-data')
    const run = await launch(['--smoke-test'], { appPath: appFolder(), dataDir })
    expect(run.stdout, run.stderr).toMatch(/^hookloop: smoke test passed: engine at http:\/\/127\.0\.0\.1:\d+, store open in .*smoke-data, window connected$/m)
    expect(existsSync(join(dataDir, 'hookloop.db'))).toBe(true)
    expect((run.said.forks as Forks)[0]).toMatchObject({ killedByMain: true, leftRunning: false, exit: { code: 0 } })
    expect(run.code).toBe(0)
  }, SHELL_BOUND)

  it('the data key sealed with the keychain, or shared with the command line (HOOKLOOP_SHARE_DATA_KEY=1)', async () => {
    // A folder the command line made: a signing secret sealed with the key file beside it.
    const dataDir = join(scratch, 'shared-key-data')
    const engine = await createEngine({ dataDir, receiver: { host: '127.0.0.1', port: 0 } })
    await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })
    await engine.close()
    // `hookloop doctor` opens every endpoint's secrets to check its row.
    const doctor = () => runCli(['doctor', '--data', dataDir])

    // The app adopts the key: sealed with the keychain, the key file removed; the commands that
    // need it then say what sealed it and how to share it.
    const sealed = await launch(['--smoke-test'], { appPath: appFolder(), dataDir })
    expect(sealed.code, sealed.stderr).toBe(0)
    expect(existsSync(join(dataDir, 'hookloop.db.key.sealed'))).toBe(true)
    expect(existsSync(join(dataDir, 'hookloop.db.key'))).toBe(false)
    const refused = await doctor()
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('HOOKLOOP_SHARE_DATA_KEY=1')

    // Started once with HOOKLOOP_SHARE_DATA_KEY=1, the app leaves the same key in the key file too.
    const shared = await launch(['--smoke-test'], { appPath: appFolder(), dataDir, extra: { HOOKLOOP_SHARE_DATA_KEY: '1' } })
    expect(shared.code, shared.stderr).toBe(0)
    expect(existsSync(join(dataDir, 'hookloop.db.key'))).toBe(true)
    const opened = await doctor()
    expect(opened.stderr).toBe('')
    expect(opened.stdout).toContain('Nothing is set aside')
    expect(opened.code).toBe(0)
  }, SHELL_BOUND)

  it('--smoke-test: a store that cannot open fails with the reason and exit 1, no dialog', async () => {
    const notAFolder = join(scratch, 'data-is-a-file')
    writeFileSync(notAFolder, 'not a folder')
    const run = await launch(['--smoke-test'], { appPath: appFolder(), dataDir: notAFolder })
    expect(run.stderr).toMatch(/^hookloop: smoke test failed: Hookloop could not start its engine: .+/m)
    expect(run.said['error-box']).toBeUndefined()
    expect(run.code).toBe(1)
  }, SHELL_BOUND)

  it('better-sqlite3 recorded for another Electron is refused by name before the engine starts', async () => {
    const appPath = appFolder({ electron: '38.0.0' })
    const smoke = await launch(['--smoke-test'], { appPath })
    expect(smoke.stderr).toContain(`hookloop: smoke test failed: Hookloop cannot open its store: better-sqlite3 for Electron ${ELECTRON_VERSION}:`)
    expect(smoke.stderr).toContain(`was built for Electron 38.0.0 (${process.platform}-${process.arch}), not Electron ${ELECTRON_VERSION}`)
    expect(smoke.stderr).toContain('run `npm run native`')
    expect(smoke.said.forks).toEqual([])
    expect(smoke.code).toBe(1)

    // Opened normally, the same reason is a dialog, then the app quits.
    const opened = await launch([], { appPath })
    expect(opened.said['error-box']).toEqual({ title: 'Hookloop cannot open its store', content: expect.stringContaining('was built for Electron 38.0.0') })
    expect(opened.code).toBe(0)
  }, SHELL_BOUND)

  it('a damaged better-sqlite3 (not the file its record describes) is refused by name', async () => {
    const appPath = appFolder()
    const binding = join(appPath, 'native', 'electron', 'better_sqlite3.node')
    copyFileSync(binding, `${binding}.orig`)
    writeFileSync(binding, readFileSync(`${binding}.orig`).subarray(0, 4096))
    const run = await launch(['--smoke-test'], { appPath })
    expect(run.stderr).toContain('is not the file its build record describes (4096 bytes')
    expect(run.code).toBe(1)
  }, SHELL_BOUND)
})
