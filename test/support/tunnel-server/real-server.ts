import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer, type LookupFunction } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TunnelServerControls } from './index'

// The real localtunnel server (github.com/localtunnel/server, kept in the project notes at
// ../shared/peers/localtunnel-server beside the project), run as a child process for tests and
// benchmarks. Its copy is installed once per lock-file hash in the temp folder (`npm ci
// --omit=dev`) and shared by every test file and run after that. It hands out URLs built from the
// Host it was asked on, so it is reached by name: `lt.test` and `<id>.lt.test` resolve to
// 127.0.0.1 through `realServerLookup` (the tunnel's `lookup`) or a Host header.

export const REAL_SERVER_DOMAIN = 'lt.test'

/** The project root: the nearest folder above this file with Hookloop's package.json. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'hookloop') return dir
    const up = dirname(dir)
    if (up === dir) return process.cwd()
    dir = up
  }
}

/** The server's source: HOOKLOOP_LOCALTUNNEL_SERVER, or ../shared/peers/localtunnel-server beside the project. */
export function realServerSource(): string {
  const fromEnv = process.env.HOOKLOOP_LOCALTUNNEL_SERVER
  const dir = fromEnv ? resolve(fromEnv) : resolve(projectRoot(), '..', 'shared', 'peers', 'localtunnel-server')
  if (!existsSync(join(dir, 'package-lock.json')) || !existsSync(join(dir, 'bin', 'server'))) {
    throw new Error(`the real localtunnel server is not at ${dir} (set HOOKLOOP_LOCALTUNNEL_SERVER to its folder)`)
  }
  return dir
}

function sourceHash(dir: string): string {
  const hash = createHash('sha256')
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === 'node_modules') continue
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else hash.update(name).update(readFileSync(path))
    }
  }
  walk(dir)
  return hash.digest('hex').slice(0, 16)
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * The installed copy's folder, installing it first if no earlier run did. Test workers and
 * benchmark processes may ask at once: one installs (holding a lock folder), the others wait.
 */
export function installRealServer(): string {
  const source = realServerSource()
  const target = join(tmpdir(), `hookloop-localtunnel-server-${sourceHash(source)}`)
  const ready = join(target, '.installed')
  const lock = `${target}.lock`
  const deadline = Date.now() + 300_000
  while (!existsSync(ready)) {
    try {
      mkdirSync(lock)
    } catch {
      // Someone else installs; a lock older than five minutes is left over from a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true })
      } catch {
        // gone meanwhile
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for another process to install the localtunnel server into ${target}`)
      sleepSync(250)
      continue
    }
    try {
      if (existsSync(ready)) break
      const work = `${target}.partial-${process.pid}`
      rmSync(work, { recursive: true, force: true })
      cpSync(source, work, { recursive: true, filter: (path) => !path.includes('node_modules') })
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
      const result = spawnSync(npm, ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: work, encoding: 'utf8', timeout: 240_000 })
      if (result.status !== 0) {
        throw new Error(`npm ci for the localtunnel server failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout || String(result.error)).slice(-2000)}`)
      }
      writeFileSync(join(work, '.installed'), new Date().toISOString())
      rmSync(target, { recursive: true, force: true })
      renameSync(work, target)
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
  return target
}

/** `lt.test` and every `<id>.lt.test` are 127.0.0.1; other names go to DNS. */
export const realServerLookup: LookupFunction = (hostname, options, callback) => {
  const name = hostname.toLowerCase()
  if (name === REAL_SERVER_DOMAIN || name.endsWith(`.${REAL_SERVER_DOMAIN}`)) {
    if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }])
    else callback(null, '127.0.0.1', 4)
    return
  }
  dnsLookup(hostname, options as LookupOptions, callback as (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void)
}

/** `url` is http://lt.test:<port> (reached with realServerLookup); `stop` is a SIGKILL. */
export interface RealTunnelServer extends TunnelServerControls {
  /** SIGSTOP: the process is frozen, its sockets stay open and nothing answers. */
  pause(): void
  /** SIGCONT after pause(). */
  resume(): void
  /** GET /api/tunnels/<id>/status: the server's count of the tunnel's sockets, or undefined (404). */
  tunnelSockets(id: string): Promise<number | undefined>
  /** Lines the server wrote to stdout/stderr (for failure messages). */
  readonly output: string[]
  /** The running process's id (for benchmarks that read its CPU time). */
  pid(): number | undefined
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const address = server.address()
  await new Promise<void>((r) => server.close(() => r()))
  if (!address || typeof address !== 'object') throw new Error('no free port')
  return address.port
}

function apiGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `${REAL_SERVER_DOMAIN}:${port}` }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolveGet({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.setTimeout(2000, () => req.destroy(new Error(`GET ${path} on the localtunnel server timed out`)))
    req.on('error', reject)
    req.end()
  })
}

// Servers still running when the test process exits (a crashed worker) are killed with it.
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Installs (once) and starts the real localtunnel server on a free loopback port. */
export async function startRealTunnelServer(options: { port?: number } = {}): Promise<RealTunnelServer> {
  const dir = installRealServer()
  const port = options.port ?? (await freePort())
  const output: string[] = []
  let child: ChildProcess | undefined

  async function start() {
    if (child) return
    const proc = spawn(process.execPath, ['-r', 'esm', 'bin/server', '--port', String(port), '--address', '127.0.0.1', '--domain', REAL_SERVER_DOMAIN], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child = proc
    running.add(proc)
    proc.once('exit', () => running.delete(proc))
    proc.stdout?.on('data', (c: Buffer) => output.push(c.toString('utf8')))
    proc.stderr?.on('data', (c: Buffer) => output.push(c.toString('utf8')))
    const exited = new Promise<never>((_, reject) => proc.once('exit', (code, signal) => reject(new Error(`the localtunnel server exited (${code ?? signal}): ${output.join('').slice(-1000)}`))))
    exited.catch(() => undefined)
    const deadline = Date.now() + 20_000
    for (;;) {
      try {
        const answer = await Promise.race([apiGet(port, '/api/status'), exited])
        if (answer.status === 200) return
      } catch (error) {
        if (proc.exitCode !== null || proc.signalCode !== null) throw error
      }
      if (Date.now() > deadline) throw new Error(`the localtunnel server did not answer on port ${port} within 20 s: ${output.join('').slice(-1000)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }

  async function stop() {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return
    const gone = new Promise<void>((r) => proc.once('exit', () => r()))
    proc.kill('SIGCONT')
    proc.kill('SIGKILL')
    await gone
  }

  await start()
  return {
    port,
    url: `http://${REAL_SERVER_DOMAIN}:${port}`,
    stop,
    start,
    async restart() {
      await stop()
      await start()
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async tunnelSockets(id) {
      const answer = await apiGet(port, `/api/tunnels/${encodeURIComponent(id)}/status`)
      if (answer.status === 404) return undefined
      if (answer.status !== 200) throw new Error(`status of tunnel ${id}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`)
      return (JSON.parse(answer.body) as { connected_sockets: number }).connected_sockets
    },
    output,
    pid: () => child?.pid,
  }
}
