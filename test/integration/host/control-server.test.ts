// The control interface refuses anything but our own page on loopback with the run's token —
// checked over real sockets.
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { CONTROL_PATH, type ServerFrame } from '../../../shared/contract'
import { startControlServer, type CommandHandlers, type ControlServer } from '../../../electron/engine/host/control-server'
import { createToken } from '../../../electron/engine/host/guard'
import { HostError } from '../../../electron/engine/host/host-error'
import { makeTempDir } from '../../support/temp-dir'

const servers: ControlServer[] = []
const cleanups: (() => void)[] = []
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close()
  while (cleanups.length > 0) cleanups.pop()?.()
})

function tempDir(): string {
  const { dir, cleanup } = makeTempDir()
  cleanups.push(cleanup)
  return dir
}

// Only the commands these tests call; the rest answer "unavailable" if reached.
const handlers = new Proxy({} as CommandHandlers, {
  get(_target, name) {
    if (name === 'clock.set') return (req: { mode: string; scale?: number }) => ({ mode: req.mode, scale: req.scale ?? 1, now: 42 })
    if (name === 'endpoint.delete') return () => { throw new HostError('not_found', 'no endpoint "x"') }
    return () => { throw new HostError('unavailable', `${String(name)} is not part of this test`) }
  },
})

async function start(staticDir?: string): Promise<{ server: ControlServer; token: string }> {
  const token = createToken()
  const server = await startControlServer({ port: 0, token, handlers, staticDir, flushMs: 5 })
  servers.push(server)
  return { server, token }
}

type Incoming = ServerFrame[] & { next(): Promise<ServerFrame> }

function connect(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket; incoming: Incoming } | { status: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    // Listen before 'open': the hello frame can arrive in the same read as the handshake.
    const incoming = frames(ws)
    ws.once('open', () => resolve({ ws, incoming }))
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 })
      res.resume()
    })
    ws.once('error', reject)
  })
}

function frames(ws: WebSocket): Incoming {
  const list = [] as unknown as Incoming
  const waiting: ((frame: ServerFrame) => void)[] = []
  let read = 0
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as ServerFrame
    list.push(frame)
    const w = waiting.shift()
    if (w) { read++; w(frame) }
  })
  list.next = () => (read < list.length ? Promise.resolve(list[read++] as ServerFrame) : new Promise((r) => waiting.push(r)))
  return list
}

function httpGet(port: number, path: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('control server', () => {
  it('admits our own page with the token, answers commands and validates them', async () => {
    const { server, token } = await start()
    const result = await connect(`ws://127.0.0.1:${server.port}${CONTROL_PATH}?token=${token}`, { origin: server.origin })
    if (!('ws' in result)) throw new Error(`refused with ${result.status}`)
    const incoming = result.incoming
    expect(await incoming.next()).toEqual({ t: 'hello', version: 1 })

    result.ws.send(JSON.stringify({ t: 'cmd', id: 1, name: 'clock.set', req: { mode: 'virtual' } }))
    expect(await incoming.next()).toEqual({ t: 'res', id: 1, ok: true, res: { mode: 'virtual', scale: 1, now: 42 } })

    result.ws.send(JSON.stringify({ t: 'cmd', id: 2, name: 'clock.set', req: { mode: 'sideways' } }))
    const bad = await incoming.next()
    expect(bad).toMatchObject({ t: 'res', id: 2, ok: false, error: { code: 'bad_request' } })
    expect(JSON.stringify(bad)).toContain('mode')

    result.ws.send(JSON.stringify({ t: 'cmd', id: 3, name: 'shell.exec', req: {} }))
    expect(await incoming.next()).toMatchObject({ id: 3, ok: false, error: { code: 'unknown_command' } })

    result.ws.send(JSON.stringify({ t: 'cmd', id: 4, name: 'endpoint.delete', req: { id: 'x' } }))
    expect(await incoming.next()).toEqual({ t: 'res', id: 4, ok: false, error: { code: 'not_found', message: 'no endpoint "x"' } })

    // Pushed events arrive batched and coalesced: two clock states become one.
    server.publish('clock.state', { mode: 'real', scale: 1, now: 1 })
    server.publish('clock.state', { mode: 'virtual', scale: 1, now: 2 })
    expect(await incoming.next()).toEqual({ t: 'events', batch: [{ name: 'clock.state', payload: { mode: 'virtual', scale: 1, now: 2 } }] })
    result.ws.close()
  })

  it('accepts localhost as well as 127.0.0.1', async () => {
    const { server, token } = await start()
    const port = server.port
    const result = await connect(`ws://127.0.0.1:${port}${CONTROL_PATH}?token=${token}`, { host: `localhost:${port}`, origin: `http://localhost:${port}` })
    expect('ws' in result).toBe(true)
    if ('ws' in result) result.ws.close()
  })

  it('refuses a wrong or missing token', async () => {
    const { server } = await start()
    const url = `ws://127.0.0.1:${server.port}${CONTROL_PATH}`
    expect(await connect(`${url}?token=not-the-token`, { origin: server.origin })).toEqual({ status: 401 })
    expect(await connect(url, { origin: server.origin })).toEqual({ status: 401 })
  })

  it('refuses a foreign Origin, even with the right token', async () => {
    const { server, token } = await start()
    const url = `ws://127.0.0.1:${server.port}${CONTROL_PATH}?token=${token}`
    expect(await connect(url, { origin: 'https://evil.example' })).toEqual({ status: 403 })
    expect(await connect(url, { origin: `http://127.0.0.1:${server.port + 1}` })).toEqual({ status: 403 })
    expect(await connect(url, {})).toEqual({ status: 403 })
  })

  it('refuses a foreign Host (DNS rebinding), on the socket and on pages', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>')
    const { server, token } = await start(dir)
    const url = `ws://127.0.0.1:${server.port}${CONTROL_PATH}?token=${token}`
    expect(await connect(url, { host: `evil.example:${server.port}`, origin: server.origin })).toEqual({ status: 421 })
    expect((await httpGet(server.port, '/', `evil.example:${server.port}`)).status).toBe(421)
  })

  it('serves the renderer with the CSP, and nothing outside its folder', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Hookloop</title>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
    const { server } = await start(dir)
    const host = `127.0.0.1:${server.port}`
    const page = await httpGet(server.port, '/', host)
    expect(page.status).toBe(200)
    expect(page.body).toContain('Hookloop')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect((await httpGet(server.port, '/assets/app.js', host)).headers['content-type']).toContain('javascript')
    expect((await httpGet(server.port, '/../../etc/passwd', host)).status).toBe(404)
    expect((await httpGet(server.port, '/%2e%2e/%2e%2e/etc/passwd', host)).status).toBe(404)
  })
})
