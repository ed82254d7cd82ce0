// Only the receiver is public: through the tunnel, neither the app's pages nor the control socket
// answer, even to a request that carries the right token and Origin.
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { CONTROL_PATH } from '../../../shared/contract'
import { createToken } from '../../../electron/engine/host/guard'
import { startHost, type Host } from '../../../electron/engine/host/run-host'
import { createTunnelServer, type TunnelServer } from '../../support/tunnel-server'
import { makeTempDir } from '../../support/temp-dir'

let host: Host | null = null
let server: TunnelServer | null = null
const cleanups: (() => void)[] = []
afterEach(async () => {
  await host?.close()
  await server?.stop()
  host = null
  server = null
  while (cleanups.length > 0) cleanups.pop()?.()
})

function throughTunnel(publicUrl: string, path: string, headers: Record<string, string>): Promise<{ status: number; upgraded: boolean; body: string }> {
  const url = new URL(publicUrl)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(url.port), path, headers: { host: url.host, ...headers } })
    req.on('upgrade', (_res, socket) => {
      socket.destroy()
      resolve({ status: 101, upgraded: true, body: '' })
    })
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, upgraded: false, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the tunnel boundary', () => {
  it('exposes the receiver only: no page, no control socket through the public URL', async () => {
    server = await createTunnelServer({ maxSockets: 2 })
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const token = createToken()
    host = await startHost({ dataDir: dir, port: 0, token, tunnel: { host: server.url, requestTimeoutMs: 2000 } })
    let publicUrl: string | undefined
    for (let i = 0; i < 200 && !publicUrl; i++) {
      publicUrl = host.engine.tunnel?.publicUrl()
      if (!publicUrl) await new Promise((r) => setTimeout(r, 50))
    }
    expect(publicUrl).toBeDefined()
    if (!publicUrl) return

    const page = await throughTunnel(publicUrl, '/', {})
    expect(page.status).toBe(404)
    expect(page.body).not.toContain('<div id="root">')

    const upgrade = await throughTunnel(publicUrl, `${CONTROL_PATH}?token=${token}`, {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-key': Buffer.from('0123456789abcdef').toString('base64'),
      'sec-websocket-version': '13',
      origin: host.control.origin,
    })
    expect(upgrade.upgraded).toBe(false)

    // Both went to the receiver, which recorded them as requests to no endpoint.
    host.engine.receiver.requests.flush()
    const paths = host.engine.receiver.requests.list().map((r) => r.path)
    expect(paths).toContain(CONTROL_PATH)
  })
})
