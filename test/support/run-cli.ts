// Runs the built `hookloop` CLI as a real process, the way a user or CI does.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder holding package.json above this module: test/support/ as a test runs it, out/bench/<name>/ as a benchmark's bundle does. */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(resolve(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

export const REPO_ROOT = repoRoot()
export const CLI_PATH = resolve(REPO_ROOT, 'out/main/cli.js')

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface RunCliOptions {
  /** Written to the process's stdin, then stdin is closed (closed empty when absent). */
  stdin?: string | Uint8Array
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/** `node out/main/cli.js ...args` with cwd = repo root; resolves when the process exits. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  if (!existsSync(CLI_PATH)) {
    return Promise.reject(new Error(`${CLI_PATH} is missing: run npm run build first (or npx electron-vite build)`))
  }
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const ended = outputOf(child)
  // A CLI that exits before reading stdin closes the pipe; that is not the test's failure.
  child.stdin.on('error', () => {})
  child.stdin.end(options.stdin ?? '')
  return ended
}

/** Resolves with how a spawned process (stdout and stderr piped) ended and everything it printed. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      resolvePromise({ code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') })
    })
  })
}
