// `npx hookloop listen` stopped by npm's PID (what a script or a process manager does): npm ends
// the shell it started, and the node process under it — the receiver itself — stops too instead
// of running on with its port and data folder. Real npx, from the project, with a cache of its own.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../support/run-cli'

const scratch = mkdtempSync(join(tmpdir(), 'hookloop-npx-stop-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The pids of the processes whose command line holds `marker`. */
function pidsWith(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/** The program a pid runs (`node`, `sh`, `npm exec …`). */
const programOf = (pid: number) => execFileSync('ps', ['-o', 'comm=', '-p', String(pid)], { encoding: 'utf8' }).trim()

const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('npx hookloop listen, stopped by its PID', () => {
  it('takes the receiver process down with it', async () => {
    const data = join(scratch, 'data')
    const npx = spawn('npx', ['hookloop', 'listen', '--port', '0', '--data', data], {
      cwd: REPO_ROOT,
      env: { ...process.env, npm_config_cache: join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    npx.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise<void>((resolve, reject) => {
      npx.stdout.on('data', () => out.includes('Press Ctrl-C') && resolve())
      npx.once('exit', () => reject(new Error(`npx exited: ${out}`)))
    })
    // The node process that runs the receiver: a descendant of npx, not npx itself.
    const receiver = pidsWith(`listen --port 0 --data ${data}`).filter((pid) => programOf(pid) === 'node')
    expect(receiver).toHaveLength(1)
    const port = Number(/Hookloop receiver on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1])
    expect((await fetch(`http://127.0.0.1:${port}/h/default`, { method: 'POST', body: '{}' })).status).toBe(200)

    npx.kill('SIGTERM')
    // Bounded wait for the receiver to go (observed, not timed: the bound only ends a failing test).
    for (let i = 0; i < 400 && running(receiver[0]!); i++) await new Promise((r) => setTimeout(r, 50))
    const left = running(receiver[0]!)
    if (left) process.kill(receiver[0]!, 'SIGKILL')
    expect(left).toBe(false)
  }, 120_000)
})
