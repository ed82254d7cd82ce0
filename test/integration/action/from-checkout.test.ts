// The GitHub Action as `uses: OWNER/hookloop@REF` runs it by default: from a checkout of this
// repository (GitHub's runner checks the action out into github.action_path), built in that
// folder, with no Hookloop package on npm and no `hookloop` on PATH. The checkout is the
// repository's files copied to a fresh folder (no out/); its node_modules is this repository's,
// standing in for the `npm ci` of action.yml's build step (tests here install nothing), and npm
// is pointed at a registry that does not answer, so nothing can come from one.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const ACTION = readFileSync(resolve(REPO_ROOT, 'action.yml'), 'utf8')

let temp: ReturnType<typeof makeTempDir>
let checkout: string
beforeAll(() => {
  temp = makeTempDir('hookloop-action-')
  checkout = join(temp.dir, 'action')
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
  expect(files.status, files.stderr).toBe(0)
  for (const file of files.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(REPO_ROOT, file))) continue
    mkdirSync(dirname(join(checkout, file)), { recursive: true })
    cpSync(join(REPO_ROOT, file), join(checkout, file))
  }
  symlinkSync(resolve(REPO_ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir')
  const workspace = join(temp.dir, 'workspace')
  cpSync(resolve(REPO_ROOT, 'test/fixtures/action/passing'), join(workspace, 'webhooks'), { recursive: true })
})
afterAll(() => temp?.cleanup())

/** No registry answers, and PATH holds node and the system's tools only: no `hookloop` anywhere. */
function isolatedEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS' && !name.startsWith('npm_') && name !== 'HOOKLOOP_BIN'))
  return { ...env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' }
}

async function runEntry(): Promise<{ code: number | null; output: string; summary: string }> {
  const workspace = join(temp.dir, 'workspace')
  const summaryFile = join(workspace, 'step-summary.md')
  writeFileSync(summaryFile, '')
  // As action.yml's run step calls it, with its default inputs (version "repository").
  const child = spawn(process.execPath, [join(checkout, 'scripts/github-action.mjs')], {
    cwd: workspace,
    env: { ...isolatedEnv(), GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTION_PATH: checkout, INPUT_PATH: 'webhooks', INPUT_VERSION: 'repository', INPUT_PACKAGE: 'hookloop' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('close', done))
  return { code, output, summary: readFileSync(summaryFile, 'utf8') }
}

describe('the Action from a checkout of its repository, with no package on npm', () => {
  it('builds Hookloop in its own folder by default, never from npm', () => {
    expect(ACTION).toMatch(/^ {2}version:\n(?: {4}.*\n)*? {4}default: repository$/m)
    const build = ACTION.slice(ACTION.indexOf('- name: Build Hookloop'), ACTION.indexOf('- name: Install Hookloop from npm'))
    expect(build).toContain("if: inputs.version == 'repository' && inputs.package == 'hookloop'")
    expect(build).toContain('working-directory: ${{ github.action_path }}')
    expect(build).toContain('npx --no-install electron-vite build')
    expect(ACTION).toContain("if: inputs.version != 'none' && (inputs.version != 'repository' || inputs.package != 'hookloop')")
  })

  it('unbuilt, the entry says where Hookloop is missing rather than looking on npm or PATH', async () => {
    const run = await runEntry()
    expect(run.code).toBe(2)
    expect(run.output).toContain(`Hookloop is not built in ${checkout}`)
  })

  it("built by the build step's command, the entry runs the scenarios with the checkout's own hookloop", async () => {
    const built = spawnSync('npx', ['--no-install', 'electron-vite', 'build'], { cwd: checkout, env: { ...isolatedEnv(), ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, encoding: 'utf8' })
    expect(built.status, built.stdout + built.stderr).toBe(0)
    const run = await runEntry()
    expect(run.code, run.output).toBe(0)
    expect(run.output).toContain(`hookloop action: ${process.execPath} ${join(checkout, 'bin/hookloop.js')} run `)
    expect(run.summary).toContain('## ✓ Hookloop: 1 scenario, 1 passed, 0 failed, 0 invalid')
  })
})
