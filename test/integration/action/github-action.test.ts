import { spawn } from 'node:child_process'
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CLI_PATH, REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

// The Action's script run as GitHub's runner runs it: a workspace, the INPUT_* variables the
// composite step sets from its inputs, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, and the
// built `hookloop` as the command.
const SCRIPT = resolve(REPO_ROOT, 'scripts/github-action.mjs')
const FIXTURES = resolve(REPO_ROOT, 'test/fixtures/action')

interface ActionRun {
  code: number | null
  stdout: string
  summary: string
  outputs: string
  workspace: string
}

const temps: ReturnType<typeof makeTempDir>[] = []
afterEach(() => {
  for (const temp of temps.splice(0)) temp.cleanup()
})

async function runAction(folder: string, inputs: Record<string, string> = {}): Promise<ActionRun> {
  const temp = makeTempDir()
  temps.push(temp)
  const workspace = temp.dir
  cpSync(folder, join(workspace, 'webhooks'), { recursive: true })
  const summaryFile = join(workspace, 'step-summary.md')
  const outputFile = join(workspace, 'github-output')
  writeFileSync(summaryFile, '')
  writeFileSync(outputFile, '')
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'))
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: workspace,
    env: {
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      HOOKLOOP_BIN: `${process.execPath} ${resolve(REPO_ROOT, 'bin/hookloop.js')}`,
      INPUT_PATH: 'webhooks',
      INPUT_ARGS: '',
      INPUT_JUNIT: 'hookloop-junit.xml',
      INPUT_REPORT: 'hookloop-report.json',
      ...inputs,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const code = await new Promise<number | null>((done) => child.on('close', done))
  return { code, stdout, summary: readFileSync(summaryFile, 'utf8'), outputs: readFileSync(outputFile, 'utf8'), workspace }
}

describe('the GitHub Action script', () => {
  beforeAll(() => {
    if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run npm run build first`)
  })

  it('on a folder with a failing expectation: a summary naming it and its JSON path, JUnit XML, and a non-zero exit', async () => {
    const run = await runAction(join(FIXTURES, 'failing'))
    expect(run.code, run.stdout).toBe(1)
    expect(run.summary).toContain('## ✗ Hookloop: 2 scenarios, 1 passed, 1 failed, 0 invalid')
    expect(run.summary).toContain('### ✓ a-fail-first.json')
    expect(run.summary).toContain('### ✗ b-wrong-attempts.json')
    expect(run.summary).toContain('| ✗ | booking → sender: attempts | `expect.deliveries[0].attempts` | 2 | 3 |')
    expect(run.summary).toContain('- `expect.deliveries[0].attempts`: 3 attempts, expected 2')
    expect(run.summary).toContain('1 delivery · 3 attempts · 3 requests received · 2 duplicates flagged · 1/2 expectations hold')
    expect(run.outputs).toContain('exit-code=1\n')
    expect(run.stdout).toContain('::error title=Hookloop::an expectation failed')
    const junit = readFileSync(join(run.workspace, 'hookloop-junit.xml'), 'utf8')
    expect(junit).toMatch(/<failure[^>]*>/)
  })

  it('on a passing folder: ✓ for every expectation and exit 0', async () => {
    const run = await runAction(join(FIXTURES, 'passing'))
    expect(run.code, run.stdout).toBe(0)
    expect(run.summary).toContain('## ✓ Hookloop: 1 scenario, 1 passed, 0 failed, 0 invalid')
    expect(run.summary).toContain('| ✓ | booking → sender: status | `expect.deliveries[0].status` | succeeded | succeeded |')
    expect(run.summary).not.toContain('✗')
    expect(run.outputs).toMatch(/^junit=.*hookloop-junit\.xml\nreport=.*hookloop-report\.json\nexit-code=0\n$/)
  })

  it('passes INPUT_ARGS to hookloop run, quoted words kept together', async () => {
    const run = await runAction(join(FIXTURES, 'passing'), { INPUT_ARGS: '--secret "UNUSED_SECRET=two words"' })
    expect(run.code, run.stdout).toBe(0)
    expect(run.stdout).toContain('--secret UNUSED_SECRET=two words')
  })

  it('an invalid scenario: its problem in the summary and exit 2', async () => {
    const temp = makeTempDir()
    temps.push(temp)
    writeFileSync(join(temp.dir, 'broken.json'), JSON.stringify({ version: 1, name: 'broken', clock: { mode: 'virtual' }, events: [{ type: 'x' }] }))
    const run = await runAction(temp.dir)
    expect(run.code, run.stdout).toBe(2)
    expect(run.summary).toContain('### ✗ broken.json: not a valid scenario')
  })

  it('an empty path input is refused, naming the input', async () => {
    const run = await runAction(join(FIXTURES, 'passing'), { INPUT_PATH: '' })
    expect(run.code).toBe(2)
    expect(run.stdout).toContain('the "path" input is empty')
  })
})

describe('action.yml', () => {
  const action = readFileSync(resolve(REPO_ROOT, 'action.yml'), 'utf8')

  it('is a composite action whose run step hands every input the script reads to it as INPUT_*', () => {
    expect(action).toMatch(/^runs:\n {2}using: composite$/m)
    expect(action).toContain('run: node "$GITHUB_ACTION_PATH/scripts/github-action.mjs"')
    for (const name of ['path', 'args', 'junit', 'report']) {
      expect(action).toMatch(new RegExp(`^ {2}${name}:\\n {4}description:`, 'm'))
      expect(action).toContain(`INPUT_${name.toUpperCase()}: \${{ inputs.${name} }}`)
    }
  })
})
