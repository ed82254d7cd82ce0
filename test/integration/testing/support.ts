// Where the built hookloop/testing lives, and a child process run against it the way a user's
// test runner runs: its own cwd, Node resolving 'hookloop/testing' through package.json's exports.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { REPO_ROOT } from '../../support/run-cli'

export const BUILT_ESM = resolve(REPO_ROOT, 'out/testing/index.mjs')
export const BUILT_CJS = resolve(REPO_ROOT, 'out/testing/index.cjs')

export function assertBuilt(): void {
  for (const file of [BUILT_ESM, BUILT_CJS]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build (or npm run build:testing) first`)
  }
}

export interface ChildResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `node ...args` in `cwd` with the runner's own variables removed (a vitest inside vitest would take them for its own). */
export function runNode(args: string[], cwd: string): Promise<ChildResult> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|JEST|NODE_OPTIONS$|NODE_TEST)/.test(name)))
  const child = spawn(process.execPath, args, { cwd, env: { ...env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((done, fail) => {
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}
