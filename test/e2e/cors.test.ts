// A web page on another origin POSTs JSON to an endpoint whose rule fails every request, in real
// Chromium: the browser's preflight is answered by the receiver (204, recorded, no rule), the POST
// then reaches the rule (500), and the page can read that answer. Before, the rule answered the
// preflight 500 and the page got only a network error.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../../electron/engine/engine'
import { makeTempDir } from '../support/temp-dir'
import { openBrowser, type Browser } from './support/browser'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

async function pageServer(): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop admin</title><p>a page on another origin</p>'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('a page on another origin posting to an endpoint', () => {
  it('gets a preflight answer from the receiver, then the rule answers the POST and the page reads it', async () => {
    const temp = makeTempDir('hookloop-cors-')
    cleanups.push(temp.cleanup)
    const engine: Engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
    cleanups.push(() => engine.close())
    await engine.putEndpoint({ slug: 'shop', rules: [{ preset: 'always-500' }] })
    const origin = await pageServer()
    const browser: Browser = await openBrowser()
    cleanups.push(() => browser.close())
    await browser.page.goto(`${origin}/`)

    const endpoint = engine.receiver.endpointUrl('shop')
    const seen = await browser.page.evaluate(async (url) => {
      try {
        const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-event-id': 'evt_page_1' }, body: JSON.stringify({ id: 'evt_page_1' }) })
        return { status: answer.status, body: await answer.text() }
      } catch (error) {
        return { error: String(error) }
      }
    }, endpoint)
    expect(seen).toEqual({ status: 500, body: expect.any(String) as string })

    engine.receiver.requests.flush()
    const rows = engine.receiver.requests.list().map((r) => ({ method: r.method, status: r.response.status, rule: r.ruleId !== null, origin: r.headers.find(([name]) => name.toLowerCase() === 'origin')?.[1] }))
    expect(rows).toEqual(
      expect.arrayContaining([
        { method: 'OPTIONS', status: 204, rule: false, origin },
        { method: 'POST', status: 500, rule: true, origin },
      ]),
    )
    expect(rows).toHaveLength(2)
    const preflight = engine.receiver.requests.list().find((r) => r.method === 'OPTIONS')
    expect(Object.fromEntries(preflight?.response.headers ?? [])).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': expect.stringContaining('POST') as string,
      'access-control-allow-headers': expect.stringMatching(/content-type/i) as string,
      'access-control-max-age': '600',
    })
  })
})
