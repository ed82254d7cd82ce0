import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { instantClock, post, send, startHarness, type Harness } from './support'

describe('fault steps on real sockets', () => {
  let h: Harness
  afterEach(() => h?.stop())

  async function withRule(steps: unknown[], clock = instantClock()) {
    h = await startHarness({ clock: clock.clock })
    const endpoint = await h.receiver.endpoints.create({ slug: 's' })
    await h.receiver.rules.add(endpoint.id, { steps })
    return clock
  }

  it('reply: status, headers and body as configured, recorded with the response', async () => {
    await withRule([{ type: 'reply', status: 418, headers: { 'x-why': 'teapot' }, body: 'short and stout' }])
    const result = await send(h.receiver.port, post('/h/s', '{}'))
    expect(result.responses[0]?.status).toBe(418)
    expect(result.responses[0]?.headers['x-why']).toBe('teapot')
    expect(result.responses[0]?.body.toString()).toBe('short and stout')
    const [record] = h.receiver.requests.list()
    expect(record?.response.status).toBe(418)
    expect(Buffer.from(record!.response.body!).toString()).toBe('short and stout')
    expect(record?.fault?.outcome).toBe('replied')
    expect(record?.fault?.step).toEqual({ type: 'reply', status: 418, headers: { 'x-why': 'teapot' }, body: 'short and stout' })
  })

  it('delay waits on the injected clock (an 11 s delay is instant on a virtual clock), then replies', async () => {
    const clock = await withRule([{ type: 'delay', ms: 11_000 }, { type: 'reply', status: 200 }])
    const result = await send(h.receiver.port, post('/h/s', '{}'))
    expect(result.responses[0]?.status).toBe(200)
    expect(clock.sleeps).toEqual([11_000])
    const [record] = h.receiver.requests.list()
    expect(record?.response.ms).toBe(11_000)
  })

  it('redirect: 301/302 with Location and no body', async () => {
    await withRule([{ type: 'redirect', status: 302, location: 'https://example.invalid/elsewhere' }])
    const result = await send(h.receiver.port, post('/h/s', '{}'))
    expect(result.responses[0]?.status).toBe(302)
    expect(result.responses[0]?.headers.location).toBe('https://example.invalid/elsewhere')
    expect(h.receiver.requests.list()[0]?.response.status).toBe(302)
  })

  it('close: a clean FIN without a single byte of response', async () => {
    await withRule([{ type: 'close' }])
    const result = await send(h.receiver.port, post('/h/s', '{}'), { responses: 0 })
    expect(result.ended).toBe('fin')
    expect(result.raw.length).toBe(0)
    await h.waitFor('request.responded')
    expect(h.receiver.requests.list()[0]?.fault?.outcome).toBe('closed')
  })

  it('reset: the client sees a TCP RST (ECONNRESET)', async () => {
    await withRule([{ type: 'reset' }])
    const result = await send(h.receiver.port, post('/h/s', '{}'), { responses: 0 })
    expect(result.ended).toBe('reset')
    expect(result.errorCode).toBe('ECONNRESET')
    await h.waitFor('request.responded')
    expect(h.receiver.requests.list()[0]?.fault?.outcome).toBe('reset')
  })

  it('timeout with ms: holds on the clock, then closes without answering', async () => {
    const clock = await withRule([{ type: 'timeout', ms: 15_000 }])
    const result = await send(h.receiver.port, post('/h/s', '{}'), { responses: 0 })
    expect(result.ended).toBe('fin')
    expect(result.raw.length).toBe(0)
    expect(clock.sleeps).toEqual([15_000])
    await h.waitFor('request.responded')
    const [record] = h.receiver.requests.list()
    expect(record?.fault?.outcome).toBe('timed_out')
    expect(record?.response.status).toBeNull()
  })

  it('timeout forever: holds until the client goes away, and leaves no socket or timer behind', async () => {
    await withRule([{ type: 'timeout' }])
    const client = net.connect(h.receiver.port, '127.0.0.1')
    const received: Buffer[] = []
    client.on('data', (d: Buffer) => received.push(d))
    client.on('error', () => undefined)
    client.write(post('/h/s', '{}'))
    await h.waitFor('request.captured')
    expect(h.receiver.openConnections()).toBe(1)
    // The sender gives up (its own timeout): the hold ends with the connection.
    client.destroy()
    await h.waitFor('request.responded')
    expect(received).toHaveLength(0)
    expect(h.receiver.openConnections()).toBe(0)
    const [record] = h.receiver.requests.list()
    expect(record?.fault?.outcome).toBe('timed_out')
    expect(record?.response.status).toBeNull()
  })

  it('drip: the whole body arrives, sent in chunks paced by the clock', async () => {
    const clock = await withRule([{ type: 'drip', body: 'abcdefghij', chunk_bytes: 3, interval_ms: 500 }])
    const result = await send(h.receiver.port, post('/h/s', '{}'))
    expect(result.responses[0]?.status).toBe(200)
    expect(result.responses[0]?.body.toString()).toBe('abcdefghij')
    expect(clock.sleeps).toEqual([500, 500, 500])
  })

  it.each(['garbage', 'bad-status-line', 'bad-header', 'short-body'] as const)('malformed (%s): an HTTP client fails to read it', async (variant) => {
    await withRule([{ type: 'malformed', variant }])
    const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: h.receiver.port, path: '/h/s', method: 'POST', agent: false }, (res) => {
        res.on('data', () => undefined)
        res.on('error', resolve)
        res.on('aborted', () => resolve(Object.assign(new Error('aborted'), { code: 'ABORTED' })))
        res.on('end', () => reject(new Error(`read a complete response: ${res.statusCode}`)))
      })
      req.on('error', resolve)
      req.end('{}')
    })
    expect(error.code).toMatch(/^(HPE_|ECONNRESET|ABORTED)/)
    await h.waitFor('request.responded')
    expect(h.receiver.requests.list()[0]?.fault?.outcome).toBe('malformed')
  })
})
