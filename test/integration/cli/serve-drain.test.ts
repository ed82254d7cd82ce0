// `hookloop serve` run as a server is run (the built CLI, a real process): SIGTERM drains it — a
// slow client's request in flight gets its answer after the signal, /readyz says 503 meanwhile, a new
// connection is refused, and the process exits 0 with the request's row stored. `--host` beyond
// loopback is refused (exit 2, one line) without --accounts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createEngine } from '../../../electron/engine/engine'
import { makeTempDir } from '../../support/temp-dir'
import { runCli } from './support'
import { freePort } from '../../support/loopback'

const CLI = resolve('out/main/cli.js')
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.()
})

/** Polls until `check` holds (a state reached, never a time measured). */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`never happened: ${what}`)
}

function serveProcess(args: string[]): { child: ChildProcess; exited: Promise<number | null>; firstLine: Promise<string>; stderr: () => string } {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  cleanups.push(() => child.kill('SIGKILL'))
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const firstLine = new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done))
  return { child, exited, firstLine, stderr: () => stderr }
}

describe('hookloop serve, drained on SIGTERM', () => {
  it('answers the request in flight, says 503 on /readyz, refuses new connections, and exits 0 with the row stored', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const setup = await createEngine({ dataDir: dir, clock: createRealClock(), receiver: { port: 0 } })
    await setup.putEndpoint({ slug: 'orders' })
    await setup.close()

    const [port, receiverPort] = [await freePort(), await freePort()]
    const serve = serveProcess(['--port', String(port), '--receiver-port', String(receiverPort), '--data', dir])
    await serve.firstLine
    const app = `http://127.0.0.1:${port}`
    expect((await fetch(`${app}/readyz`)).status).toBe(200)

    // A slow client: its request's head is read (the receiver says 100 Continue), its body comes
    // only after the signal, so the request is in flight for as long as the test wants.
    const body = '{"order":7}'
    const socket = connect(receiverPort, '127.0.0.1')
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    socket.write(`POST /h/orders HTTP/1.1\r\nHost: 127.0.0.1:${receiverPort}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`)
    await until('the receiver read the head', async () => received.startsWith('HTTP/1.1 100 Continue'))

    serve.child.kill('SIGTERM')
    await until('/readyz says 503', async () => (await fetch(`${app}/readyz`)).status === 503)
    expect(await (await fetch(`${app}/readyz`)).json()).toEqual({ status: 'not ready', reason: 'draining: the server is stopping' })
    // No new connection: the receiver's port is closed.
    await expect(fetch(`http://127.0.0.1:${receiverPort}/h/orders`, { method: 'POST', body: 'too late' })).rejects.toThrow()

    socket.write(body)
    await closed // the drain ends the connection once it is answered
    expect(received).toMatch(/\r\n\r\nHTTP\/1\.1 200 OK\r\n/)
    expect(await serve.exited).toBe(0)
    expect(serve.stderr()).toContain('hookloop: draining: no new connections; answering the requests in flight')

    const listed = await runCli(['requests', '--data', dir, '--json'])
    expect(listed.code).toBe(0)
    const rows = (JSON.parse(listed.stdout) as { requests: { method: string; path: string; responseStatus: number | null }[] }).requests
    expect(rows.map((r) => ({ method: r.method, path: r.path, status: r.responseStatus }))).toEqual([{ method: 'POST', path: '/h/orders', status: 200 }])
  })

  it('stops at once, exit 1, on a second signal during the drain', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const setup = await createEngine({ dataDir: dir, clock: createRealClock(), receiver: { port: 0 } })
    await setup.putEndpoint({ slug: 'held', rules: [{ steps: [{ type: 'delay', ms: 60_000 }, { type: 'reply', status: 200 }] }] })
    await setup.close()
    const [port, receiverPort] = [await freePort(), await freePort()]
    const serve = serveProcess(['--port', String(port), '--receiver-port', String(receiverPort), '--data', dir])
    await serve.firstLine
    const app = `http://127.0.0.1:${port}`
    const held = fetch(`http://127.0.0.1:${receiverPort}/h/held`, { method: 'POST', body: 'x' }).catch((error: unknown) => error)
    await until('the held request is captured', async () => (await (await fetch(`${app}/metrics`)).text()).includes('hookloop_requests_captured_total 1'))
    serve.child.kill('SIGTERM')
    await until('/readyz says 503', async () => (await fetch(`${app}/readyz`)).status === 503)
    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(1)
    expect(serve.stderr()).toContain('hookloop: stopped at once (a second signal during the drain)')
    expect(await held).toBeInstanceOf(Error)
  })
})

describe('hookloop serve --host', () => {
  const refusal =
    'refused without accounts: the run\'s token is the app\'s only lock, so it listens on loopback only (127.0.0.1, ::1, localhost); add --accounts (people sign in), or put an authenticating reverse proxy in front of it (docs/team.md, "Running it")'

  it('refuses an address beyond loopback with one line and exit 2, from the option or HOOKLOOP_HOST', () => {
    for (const [args, env] of [
      [['--host', '0.0.0.0'], {}],
      [[], { HOOKLOOP_HOST: '192.168.1.20' }],
    ] as const) {
      const run = spawnSync(process.execPath, [CLI, 'serve', ...args], { encoding: 'utf8', env: { ...process.env, ...env } })
      expect(run.status).toBe(2)
      const said = args.length > 0 ? `--host ${args[1]}` : `$HOOKLOOP_HOST ${env.HOOKLOOP_HOST}`
      expect(run.stderr.trim().split('\n')).toEqual([`hookloop: serve: ${said} ${refusal}`])
      expect(run.stdout).toBe('')
    }
  })

  it('takes localhost and listens on 127.0.0.1', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const port = await freePort()
    const serve = serveProcess(['--host', 'localhost', '--port', String(port), '--data', dir])
    expect(await serve.firstLine).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#token=`))
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200)
    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
  })
})
