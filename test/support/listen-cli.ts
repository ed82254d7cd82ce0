// Runs `hookloop listen` as a real process and lets a test wait on what it prints (run-cli.ts is for
// commands that exit on their own).
import { spawn } from 'node:child_process'
import { CLI_PATH, REPO_ROOT } from './run-cli'

export interface RunningListen {
  /** The receiver's port, read from the start-up line. */
  port: number
  /** Everything printed on stdout so far. */
  readonly stdout: string
  /** Resolves once stdout satisfies the predicate; rejects if the process ends first. */
  waitForOutput(predicate: (out: string) => boolean): Promise<void>
  exited: Promise<number | null>
  kill(signal?: NodeJS.Signals): void
}

/** `node out/main/cli.js listen --port 0 ...args`, resolved once it prints its start-up line ("Press Ctrl-C"). */
export async function startListen(args: string[]): Promise<RunningListen> {
  const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const waitForOutput = (predicate: (out: string) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (predicate(stdout)) {
          child.stdout.off('data', check)
          resolve()
        }
      }
      child.stdout.on('data', check)
      void exited.then(() => reject(new Error(`listen exited early: ${stdout}${stderr}`)))
      check()
    })
  await waitForOutput((out) => out.includes('Press Ctrl-C'))
  return {
    port: Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]),
    get stdout() {
      return stdout
    },
    waitForOutput,
    exited,
    kill: (signal = 'SIGINT') => child.kill(signal),
  }
}
