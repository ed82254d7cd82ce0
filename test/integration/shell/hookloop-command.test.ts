// The `hookloop` command as the README runs it: `npx hookloop …` from the project, after the
// build has been rewritten (every `npm run build` writes out/main/cli.js without an execute bit,
// which is the state this file puts it in first), through `npm link` and `npm install -g .`, and
// the README's own command lines with the exit codes it documents. npx gets a cache folder of its
// own, as on a machine that never ran it here before.
import { spawn } from 'node:child_process'
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outputOf, REPO_ROOT, type CliResult } from '../../support/run-cli'

const CLI = resolve(REPO_ROOT, 'out/main/cli.js')
// npx loads the whole project tree on every call (seconds each on a busy machine).
const NPX_BOUND = 180_000
const README = readFileSync(resolve(REPO_ROOT, 'README.md'), 'utf8')

let scratch: string
let work: string

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const child = spawn('sh', ['-c', command], {
    cwd,
    env: { ...process.env, npm_config_cache: join(scratch, 'npm-cache'), npm_config_update_notifier: 'false', ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return outputOf(child)
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`)
  // What a second `npm run build` leaves: the CLI rewritten, not executable.
  chmodSync(CLI, 0o644)
  scratch = mkdtempSync(join(tmpdir(), 'hookloop-command-'))
  // Inside the project (test-results/ is ignored by git), so npx finds the project's command.
  mkdirSync(resolve(REPO_ROOT, 'test-results'), { recursive: true })
  work = mkdtempSync(resolve(REPO_ROOT, 'test-results', 'hookloop-command-'))
})
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

describe('the hookloop command', () => {
  it('is a committed, executable file', () => {
    const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }
    expect(pkg.bin).toEqual({ hookloop: 'bin/hookloop.js' })
    expect(statSync(resolve(REPO_ROOT, 'bin/hookloop.js')).mode & 0o111).not.toBe(0)
    expect(statSync(CLI).mode & 0o111).toBe(0)
  })

  it('npx hookloop runs after a rebuild', async () => {
    const help = await sh('npx hookloop --help', REPO_ROOT)
    expect(help.stderr).not.toContain('Permission denied')
    expect(help.stdout).toMatch(/^Usage: hookloop <command> \[options\]/)
    expect(help.code).toBe(0)
  })

  it('without a build: one line saying to run npm run build, exit 2', async () => {
    // A copy of the project's entry point in a package without out/.
    const pkg = join(scratch, 'unbuilt')
    mkdirSync(join(pkg, 'bin'), { recursive: true })
    copyFileSync(resolve(REPO_ROOT, 'bin/hookloop.js'), join(pkg, 'bin', 'hookloop.js'))
    chmodSync(join(pkg, 'bin', 'hookloop.js'), 0o755)
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'hookloop', version: '0.0.0', type: 'module', bin: { hookloop: 'bin/hookloop.js' } }))
    const run = await sh('npx hookloop --help', pkg)
    expect(run.stderr.trim().split('\n')).toEqual([`hookloop: the command line is not built (${join(pkg, 'out', 'main', 'cli.js')} is missing); run \`npm run build\` first`])
    expect(run.code).toBe(2)
  })

  it('npm link and npm install -g . put a hookloop that runs on the PATH', async () => {
    for (const [how, command] of [
      ['link', 'npm link --no-audit --no-fund'],
      ['global', 'npm install -g . --no-audit --no-fund'],
    ] as const) {
      const prefix = join(scratch, `prefix-${how}`)
      const install = await sh(command, REPO_ROOT, { npm_config_prefix: prefix })
      expect(install.code, install.stderr).toBe(0)
      const run = await sh(`"${join(prefix, 'bin', 'hookloop')}" --help`, scratch)
      expect(run.stdout, `${how}: ${run.stderr}`).toMatch(/^Usage: hookloop/)
      expect(run.code).toBe(0)
    }
  })

  // Through the linked command (the same bin/hookloop.js as npx runs; npx itself takes seconds
  // per call, so the lines above are the ones that go through it).
  it('no command 2, an unknown one 2 with one line, every command in the README table --help 0', async () => {
    const hookloop = `"${join(scratch, 'prefix-link', 'bin', 'hookloop')}"`
    expect((await sh(hookloop, scratch)).code).toBe(2)
    const unknown = await sh(`${hookloop} frobnicate`, scratch)
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^hookloop: unknown command "frobnicate"/)])
    expect(unknown.code).toBe(2)
    const table = README.slice(README.indexOf('| command | what it does |'))
    const commands = [...table.matchAll(/^\| `(\w+)`(?: \/ `(\w+)`)? \|/gm)].flatMap((m) => [m[1]!, ...(m[2] ? [m[2]] : [])])
    expect(commands).toEqual(expect.arrayContaining(['sign', 'verify', 'listen', 'run', 'check', 'conform', 'export', 'replay', 'serve']))
    for (const command of commands) {
      const run = await sh(`${hookloop} ${command} --help`, scratch)
      expect(run.code, `${command}: ${run.stderr}`).toBe(0)
    }
  })
})

describe("the README's npx hookloop lines", () => {
  it('the sign / verify worked example prints what the README shows, exit codes included', async () => {
    const start = README.indexOf('Worked example (after `npm run build`):')
    const block = README.slice(README.indexOf('```sh\n', start) + 6, README.indexOf('\n```', start + 50))
    // A transcript: `$ command` (continued by lines ending in \), then what it prints.
    const steps: { command: string; expected: string[] }[] = []
    let continuing = false
    for (const line of block.split('\n')) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] })
      else if (continuing) steps.at(-1)!.command += `\n${line}`
      else steps.at(-1)!.expected.push(line)
      continuing = line.endsWith('\\')
    }
    expect(steps.filter((s) => s.command.includes('npx hookloop'))).toHaveLength(3)
    for (const step of steps) {
      const run = await sh(step.command, work)
      expect(run.stdout.trimEnd(), `${step.command}\n${run.stderr}`).toBe(step.expected.join('\n').trimEnd())
    }
  }, NPX_BOUND)

  it('npx hookloop run FILE --report and a folder with --junit exit 0 on the examples', async () => {
    cpSync(resolve(REPO_ROOT, 'examples'), join(work, 'examples'), { recursive: true })
    cpSync(resolve(REPO_ROOT, 'examples'), join(work, 'scenarios'), { recursive: true })
    const single = README.match(/^npx hookloop run examples\/\S+ --report report\.json$/m)?.[0]
    const folder = README.match(/^npx hookloop run scenarios\/ --junit results\.xml$/m)?.[0]
    expect(single).toBeDefined()
    expect(folder).toBeDefined()
    const one = await sh(single!, work)
    expect(one.code, one.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(work, 'report.json'), 'utf8'))).toBeTypeOf('object')
    const all = await sh(folder!, work)
    expect(all.code, all.stderr).toBe(0)
    expect(readFileSync(join(work, 'results.xml'), 'utf8')).toContain('<testsuites')
  }, NPX_BOUND)
})
