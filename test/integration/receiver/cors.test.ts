// The receiver's CORS answers over a real socket: a preflight never reaches the endpoint's rule and
// echoes only a plain list of header names; a request without Origin gets no CORS headers at all;
// a path with no endpoint is still a 404 (no preflight answer for what does not exist).
import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import { makeTempDir } from '../../support/temp-dir'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

function send(url: string, method: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function engineWithFailRule(): Promise<Engine> {
  const temp = makeTempDir('hookloop-cors-')
  cleanups.push(temp.cleanup)
  const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
  cleanups.push(() => engine.close())
  await engine.putEndpoint({ slug: 'shop', rules: [{ preset: 'always-500' }] })
  return engine
}

describe('CORS at the receiver', () => {
  it('answers a preflight itself, echoing only plain header names', async () => {
    const engine = await engineWithFailRule()
    const url = engine.receiver.endpointUrl('shop')
    const plain = await send(url, 'OPTIONS', { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-event-id' })
    expect(plain.status).toBe(204)
    expect(plain.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, x-event-id', 'access-control-max-age': '600' })
    const odd = await send(url, 'OPTIONS', { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-a, "quoted"; x=1' })
    expect(odd.status).toBe(204)
    expect(odd.headers['access-control-allow-headers']).toBeUndefined()
    // An OPTIONS that is not a browser's preflight is an ordinary request: the rule answers it.
    expect((await send(url, 'OPTIONS', {})).status).toBe(500)
    // A path with no endpoint: the receiver's 404, preflight or not.
    expect((await send(`${engine.receiver.url}/h/nowhere`, 'OPTIONS', { origin: 'https://shop.example', 'access-control-request-method': 'POST' })).status).toBe(404)
    engine.receiver.requests.flush()
    const rows = engine.receiver.requests.list().map((r) => [r.method, r.path, r.response.status, r.ruleId === null])
    expect(rows).toEqual(
      expect.arrayContaining([
        ['OPTIONS', '/h/shop', 204, true],
        ['OPTIONS', '/h/shop', 204, true],
        ['OPTIONS', '/h/shop', 500, false],
        ['OPTIONS', '/h/nowhere', 404, true],
      ]),
    )
  })

  it('lets a page read the answer to its request, and adds nothing for a sender that is not a page', async () => {
    const engine = await engineWithFailRule()
    const url = engine.receiver.endpointUrl('shop')
    const fromPage = await send(url, 'POST', { origin: 'https://shop.example', 'content-type': 'application/json' })
    expect(fromPage.status).toBe(500)
    expect(fromPage.headers['access-control-allow-origin']).toBe('*')
    const fromServer = await send(url, 'POST', { 'content-type': 'application/json' })
    expect(fromServer.status).toBe(500)
    expect(fromServer.headers['access-control-allow-origin']).toBeUndefined()
  })
})
