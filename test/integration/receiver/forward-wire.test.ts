// Forward mode sends what the provider sent: a real app (node:http) records the raw header lines
// that reached it, and they are compared with what the sender sent and with the leg the store and
// the inspector show. The case that matters most: a bodiless GET or HEAD that carried an explicit
// `content-length: 0`, which an HTTP client is allowed to (and undici does) leave out.
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { legView } from '../../../electron/engine/host/forward-views'
import { startHarness, type Harness } from './support'
import { startApp, type App, type SeenRequest } from '../../support/forward-apps'

/** Sends one request with exactly these header lines (node:http, one connection) and reads the status. */
function send(url: string, method: string, headers: [string, string][], body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: headers.flat(), agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const lower = (pairs: readonly [string, string][]): string[] => pairs.map(([n]) => n.toLowerCase())
const value = (pairs: readonly [string, string][], name: string): string | undefined => pairs.find(([n]) => n.toLowerCase() === name)?.[1]

describe('forward mode: the headers on the wire', () => {
  let h: Harness
  let app: App
  afterEach(async () => {
    await h?.stop()
    await app?.close()
  })

  async function forwardOne(method: string, headers: [string, string][], body?: string): Promise<{ seen: SeenRequest; legHeaders: [string, string][]; viewHeaders: [string, string][] }> {
    app = await startApp((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(method === 'HEAD' ? undefined : 'ok'))
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'app' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: `${app.url}/hooks` }] })
    expect(await send(`${h.receiver.url}/h/app`, method, headers, body)).toBe(200)
    const seen = await app.received(1)
    const [request] = h.receiver.requests.list()
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    if (!leg) throw new Error('no forward leg was stored')
    const view = legView(leg)
    return { seen, legHeaders: leg.request.headers, viewHeaders: view.request.headers.map(({ name, value: v }) => [name, v]) }
  }

  const sent = (extra: [string, string][]): [string, string][] => [['Host', 'hooks.example.com'], ['X-Event-Id', 'evt_1'], ['User-Agent', 'Provider/1.0'], ...extra]

  it('a GET with content-length: 0 reaches the app with content-length: 0, and the leg shows exactly the wire', async () => {
    const { seen, legHeaders, viewHeaders } = await forwardOne('GET', sent([['Content-Length', '0']]))
    expect(seen.method).toBe('GET')
    expect(value(seen.rawHeaders, 'content-length')).toBe('0')
    expect(legHeaders).toEqual(seen.rawHeaders)
    expect(viewHeaders).toEqual(seen.rawHeaders)
  })

  it('a HEAD with content-length: 0 reaches the app with content-length: 0, and the leg shows exactly the wire', async () => {
    const { seen, legHeaders, viewHeaders } = await forwardOne('HEAD', sent([['Content-Length', '0']]))
    expect(seen.method).toBe('HEAD')
    expect(value(seen.rawHeaders, 'content-length')).toBe('0')
    expect(legHeaders).toEqual(seen.rawHeaders)
    expect(viewHeaders).toEqual(seen.rawHeaders)
  })

  it('a DELETE with content-length: 0 keeps it too', async () => {
    const { seen, legHeaders } = await forwardOne('DELETE', sent([['Content-Length', '0']]))
    expect(value(seen.rawHeaders, 'content-length')).toBe('0')
    expect(legHeaders).toEqual(seen.rawHeaders)
  })

  it('a GET without content-length reaches the app without one, and the leg shows none', async () => {
    const { seen, legHeaders, viewHeaders } = await forwardOne('GET', sent([]))
    expect(lower(seen.rawHeaders)).not.toContain('content-length')
    expect(lower(seen.rawHeaders)).not.toContain('transfer-encoding')
    expect(legHeaders).toEqual(seen.rawHeaders)
    expect(viewHeaders).toEqual(seen.rawHeaders)
  })

  it('a HEAD without content-length reaches the app without one', async () => {
    const { seen, legHeaders } = await forwardOne('HEAD', sent([]))
    expect(lower(seen.rawHeaders)).not.toContain('content-length')
    expect(legHeaders).toEqual(seen.rawHeaders)
  })

  it('a POST with a body arrives unchanged: its bytes, its content-length, the sender\'s header names and order', async () => {
    const body = '{"id":"evt_1",  "type":"paid"}'
    const { seen, legHeaders, viewHeaders } = await forwardOne('POST', sent([['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]]), body)
    expect(seen.body.toString('utf8')).toBe(body)
    expect(value(seen.rawHeaders, 'content-length')).toBe(String(Buffer.byteLength(body)))
    // The sender's own headers keep their case and their order among themselves.
    expect(seen.rawHeaders.filter(([n]) => ['X-Event-Id', 'User-Agent', 'Content-Type'].includes(n)).map(([n]) => n)).toEqual(['X-Event-Id', 'User-Agent', 'Content-Type'])
    expect(legHeaders).toEqual(seen.rawHeaders)
    expect(viewHeaders).toEqual(seen.rawHeaders)
  })

  it('a chunked POST arrives with its bytes, framed by content-length, and the leg shows that framing', async () => {
    const body = '{"chunked":true}'
    const { seen, legHeaders } = await forwardOne('POST', sent([['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']]), body)
    expect(seen.body.toString('utf8')).toBe(body)
    expect(value(seen.rawHeaders, 'content-length')).toBe(String(Buffer.byteLength(body)))
    expect(lower(seen.rawHeaders)).not.toContain('transfer-encoding')
    expect(legHeaders).toEqual(seen.rawHeaders)
  })
})

describe('forward mode: a GET with content-length: 0 fails, is cut and relays like every leg', () => {
  let h: Harness
  const apps: App[] = []
  afterEach(async () => {
    await h?.stop()
    await Promise.all(apps.splice(0).map((a) => a.close()))
  })
  const getWithLength = (url: string) => answer(url, 'GET', [['Host', 'hooks.example.com'], ['Content-Length', '0']])

  /** Sends one request and reads the whole answer. */
  function answer(url: string, method: string, headers: [string, string][]): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers: headers.flat(), agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      })
      req.on('error', reject)
      req.end()
    })
  }
  async function forwardingTo(url: string, extra: { timeout_ms?: number } = {}): Promise<void> {
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'app' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url, ...extra }] })
  }
  const onlyLeg = () => {
    const [request] = h.receiver.requests.list()
    return h.receiver.forwards.list(request?.id ?? -1)
  }

  it("relays the app's status, headers and body to the sender", async () => {
    const app = await startApp((_req, res) => res.writeHead(203, { 'x-app': 'yes' }).end('from the app'))
    apps.push(app)
    await forwardingTo(`${app.url}/status`)
    expect(await getWithLength(`${h.receiver.url}/h/app`)).toEqual({ status: 203, body: 'from the app' })
    const [leg, ...more] = onlyLeg()
    expect(more).toEqual([])
    expect(leg).toMatchObject({ outcome: 'answered', response: { status: 203 } })
    expect(leg?.response.headers).toContainEqual(['x-app', 'yes'])
    expect(Buffer.from(leg?.response.body ?? []).toString()).toBe('from the app')
  })

  it('an app that is down: 502, the leg refused', async () => {
    const { downPort } = await import('../../support/forward-apps')
    await forwardingTo(`http://127.0.0.1:${await downPort()}/`)
    const got = await getWithLength(`${h.receiver.url}/h/app`)
    expect(got.status).toBe(502)
    expect(got.body).toMatch(/connection refused \(ECONNREFUSED\)/)
    expect(onlyLeg()[0]).toMatchObject({ outcome: 'refused', error: 'connection refused (ECONNREFUSED)' })
  })

  it('an app that closes without answering: 502, the leg reset in the same words as any other leg', async () => {
    const app = await startApp((_req, _res, raw) => raw.socket.destroy())
    apps.push(app)
    await forwardingTo(app.url)
    expect((await getWithLength(`${h.receiver.url}/h/app`)).status).toBe(502)
    expect(onlyLeg()[0]).toMatchObject({ outcome: 'reset', error: 'the app closed the connection (socket hang up)' })
  })

  it('an app slower than the target timeout: 504, the leg timed_out', async () => {
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const app = await startApp((_req, res) => void released.then(() => res.writeHead(200).end('late')))
    apps.push(app)
    await forwardingTo(app.url, { timeout_ms: 50 })
    expect((await getWithLength(`${h.receiver.url}/h/app`)).status).toBe(504)
    release()
    expect((await app.received(1)).rawHeaders).toContainEqual(['content-length', '0'])
    expect(onlyLeg()[0]).toMatchObject({ outcome: 'timed_out', error: 'no answer within 50 ms' })
  })
})
