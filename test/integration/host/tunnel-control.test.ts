// Starting and stopping the public tunnel from a UI: tunnel.start rebuilds the engine with a
// tunnel through a (loopback) localtunnel server, endpoints get their public URL and a request
// through it is captured; tunnel.stop goes back to local only; a bad host is refused by name.
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createTunnelServer, type TunnelServer } from '../../support/tunnel-server'
import { useHostSessions } from './support/session'

let server: TunnelServer | null = null
afterEach(async () => {
  await server?.stop()
  server = null
})
// Registered after the tunnel server's hook, so it runs first: the host closes before its tunnel server.
const openSession = useHostSessions()

function postThrough(publicUrl: string, path: string): Promise<number> {
  const url = new URL(publicUrl)
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(url.port), path, method: 'POST', headers: { host: url.host, 'content-type': 'application/json' } })
    req.on('response', (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end('{"hello":"tunnel"}')
  })
}

describe('tunnel control', () => {
  it('start with a host and subdomain, a request arrives through it, stop goes back to local only', async () => {
    server = await createTunnelServer({ maxSockets: 2 })
    const { host, call } = await openSession()
    expect((await call('snapshot', {})).tunnel).toEqual({ state: 'disabled' })
    const endpoint = await call('endpoint.create', { name: 'inbox', scheme: null, secrets: [], dedupe: null })

    await expect(call('tunnel.start', { host: 'ftp://nowhere.example', subdomain: 'inbox' })).rejects.toThrow(/bad_request: tunnel\.start: host/)
    await call('tunnel.start', { host: server.url, subdomain: 'hookloop-inbox' })
    let publicUrl: string | null = null
    for (let i = 0; i < 200 && !publicUrl; i++) {
      const tunnel = (await call('snapshot', {})).tunnel
      if (tunnel.state === 'online') publicUrl = tunnel.url
      else await new Promise((r) => setTimeout(r, 50))
    }
    expect(publicUrl).toContain('hookloop-inbox')
    const endpoints = (await call('snapshot', {})).endpoints
    expect(endpoints.find((e) => e.id === endpoint.id)?.publicUrl).toBe(`${publicUrl}/h/inbox`)
    expect(await postThrough(publicUrl!, '/h/inbox')).toBe(200)
    host.engine.receiver.requests.flush()
    expect(host.engine.receiver.requests.list().some((r) => r.path === '/h/inbox')).toBe(true)

    expect(await call('tunnel.stop', {})).toEqual({ state: 'disabled' })
    expect((await call('snapshot', {})).endpoints.find((e) => e.id === endpoint.id)?.publicUrl).toBeNull()
  })
})
