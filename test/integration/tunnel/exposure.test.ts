import { connect } from 'node:net'
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { useCleanups, tunnelFixture } from './support/server'
import { listening, sendToPublicUrl, startOnline } from './support/tunnel'

const cleanup = useCleanups()

/** Raw bytes to the tunnel server's port (what a hostile client can send), the answer as text. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.setTimeout(5000, () => socket.destroy())
    socket.end(text)
  })
}

describe('tunnel exposure', () => {
  it('forwards to the receiver port alone: the control interface on another port is never reached', async () => {
    // Stand-in for the engine's control interface: a real HTTP server on another local port.
    const controlHits: string[] = []
    const control = await listening(
      createServer((req, res) => {
        controlHits.push(`${req.method} ${req.url} host=${req.headers.host}`)
        res.end('control')
      }),
      undefined,
    )
    cleanup(() => control.close())
    const { server, manager, receiver } = await tunnelFixture(cleanup)
    const url = await startOnline(manager)
    const publicHost = new URL(url).host
    const controlHost = `127.0.0.1:${control.port}`

    const tries: { path: string; headers?: Record<string, string>; method?: string }[] = [
      { path: '/' },
      { path: '/api/commands' },
      { path: `http://${controlHost}/`, method: 'GET' },
      { path: '/../../', method: 'GET' },
      { path: '/', headers: { 'x-forwarded-host': controlHost, forwarded: `host=${controlHost}` } },
      { path: '/', headers: { 'x-forwarded-port': String(control.port) } },
      { path: '/__hookloop_tunnel_health/guessed-secret', method: 'GET' },
      { path: '/', headers: { upgrade: 'websocket', connection: 'Upgrade' }, method: 'GET' },
    ]
    for (const t of tries) {
      const answer = await sendToPublicUrl(url, t.path, { method: t.method ?? 'POST', headers: t.headers, body: t.method === 'GET' ? undefined : '{}' }).catch((e: Error) => ({ status: -1, body: e.message, headers: {} }))
      expect(answer.body, `${t.method ?? 'POST'} ${t.path}`).not.toBe('control')
    }
    // Requests whose Host names the control port go to the tunnel server's own API, not through the tunnel.
    const direct = await sendToPublicUrl(url, '/', { method: 'GET', hostHeader: controlHost })
    expect(direct.body).not.toBe('control')
    expect(await raw(server.port, `CONNECT ${controlHost} HTTP/1.1\r\nHost: ${publicHost}\r\n\r\n`)).not.toContain('control')
    expect(await raw(server.port, `GET / HTTP/1.1\r\nHost: ${publicHost}\r\nHost: ${controlHost}\r\n\r\n`)).not.toContain('control')

    expect(controlHits).toEqual([])
    // What did arrive was carried to the receiver, including a guessed health path.
    expect(receiver.captured.map((c) => c.url)).toContain('/__hookloop_tunnel_health/guessed-secret')
    expect(receiver.captured.map((c) => c.url)).toContain(`http://${controlHost}/`)
  })
})
