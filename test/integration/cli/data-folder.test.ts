// One data folder for every front door, as real processes from the build: with no --data,
// `listen`, `serve`, `export` and `prune` all open $HOOKLOOP_DATA; --data still wins over it.
// HOME points at a scratch folder so nothing here can touch the user data folder.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { CLI_PATH, REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

function scratch(): { data: string; env: NodeJS.ProcessEnv; home: string } {
  const temp = makeTempDir('hookloop-data-folder-')
  cleanups.push(temp.cleanup)
  const home = join(temp.dir, 'home')
  const data = join(temp.dir, 'chosen')
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, '.local', 'share'), HOOKLOOP_DATA: data }
  return { data, env, home }
}

/** `hookloop listen --port 0` with this environment; resolves with its port once it is ready. */
async function listenWith(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ port: number; stdout: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CLI_PATH, 'listen', '--port', '0', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
  cleanups.push(() => child.kill('SIGKILL'))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('Press Ctrl-C')) resolve()
    })
    void exited.then(() => reject(new Error(`listen exited: ${stdout}`)))
  })
  return {
    port: Number(/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]),
    stdout: () => stdout,
    stop: async () => {
      child.kill('SIGINT')
      await exited
    },
  }
}

function requestsIn(dir: string): number {
  const db = new Database(join(dir, 'hookloop.db'), { readonly: true })
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM requests').get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('the data folder of every command', () => {
  it('listen, export and prune open $HOOKLOOP_DATA when no --data is given', async () => {
    const { data, env, home } = scratch()
    const listen = await listenWith(env)
    expect(listen.stdout()).toContain(`(data: ${join(data, 'hookloop.db')})`)
    const sent = await fetch(`http://127.0.0.1:${listen.port}/h/default`, { method: 'POST', body: '{"id":"evt_env_1"}', headers: { 'content-type': 'application/json' } })
    expect(sent.status).toBe(200)
    await listen.stop()
    expect(requestsIn(data)).toBe(1)
    expect(existsSync(join(home, '.local', 'share', 'hookloop'))).toBe(false)

    const exported = await runCli(['export', '--format', 'curl', '--requests', '1'], { env })
    expect(exported.stderr).toBe('')
    expect(exported.code).toBe(0)
    expect(exported.stdout).toContain('evt_env_1')

    const pruned = await runCli(['prune', '--all', '--json'], { env })
    expect(pruned.code).toBe(0)
    expect((JSON.parse(pruned.stdout) as { deleted: number }).deleted).toBe(1)
    expect(requestsIn(data)).toBe(0)
  })

  it('serve opens $HOOKLOOP_DATA, and --data wins over it', async () => {
    const { data, env } = scratch()
    const child = spawn(process.execPath, [CLI_PATH, 'serve'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    cleanups.push(() => child.kill('SIGKILL'))
    const lines = createInterface({ input: child.stdout })
    const printed: string[] = []
    await new Promise<void>((resolve) =>
      lines.on('line', (line) => {
        printed.push(line)
        if (line.startsWith('Webhook receiver:')) resolve()
      }),
    )
    expect(printed[2]).toContain(`data: ${data}`)
    expect(existsSync(join(data, 'hookloop.db'))).toBe(true)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)

    const other = join(data, '..', 'flag')
    const listen = await listenWith(env, ['--data', other])
    expect(listen.stdout()).toContain(`(data: ${join(other, 'hookloop.db')})`)
    await listen.stop()
    const missing = await runCli(['export', '--format', 'har', '--requests', '1', '--data', join(data, '..', 'nowhere')], { env })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('(--data;')
  })

  it('says where the folder came from when it holds no store', async () => {
    const { env } = scratch()
    const result = await runCli(['prune', '--all'], { env })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/no Hookloop data in .*chosen \(\$HOOKLOOP_DATA;/)
  })
})
