// The hostile corpus: odd or malicious requests sent as raw bytes. Each one is recorded or
// refused with the right status, and the receiver answers the next ordinary request.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { post, send, startHarness, type Harness, type RawResult, type SendOptions } from './support'

const LIMIT = 64 * 1024

interface Case {
  name: string
  bytes?: string | Buffer
  options?: SendOptions
  /** Final status expected (null = no response: the client went away first). */
  status: number | null
  /** Rows this case must add (0 = refused before a request could be read). */
  rows: number
  check?: (h: Harness, result: RawResult) => void | Promise<void>
}

const json = (body: string) => post('/h/c', body)
const head = (extra: string) => `POST /h/c HTTP/1.1\r\nHost: x\r\n${extra}`

const binary = Buffer.alloc(256)
for (let i = 0; i < 256; i++) binary[i] = i
const invalidUtf8 = Buffer.from([0x7b, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x90, 0x28, 0xbc, 0x7d])
const manyHeaders = Array.from({ length: 1000 }, (_, i) => `X-H-${i}: v${i}\r\n`).join('')

const CASES: Case[] = [
  { name: 'malformed JSON', bytes: json('{"event_id": "x", '), status: 200, rows: 1 },
  {
    name: 'invalid UTF-8 bytes kept exactly',
    bytes: Buffer.concat([Buffer.from(head(`Content-Length: ${invalidUtf8.length}\r\n\r\n`)), invalidUtf8]),
    status: 200,
    rows: 1,
    check: (h) => expect(Buffer.from(h.receiver.requests.list()[0]!.body)).toEqual(invalidUtf8),
  },
  {
    name: 'binary body (every byte value)',
    bytes: Buffer.concat([Buffer.from(head(`Content-Type: application/octet-stream\r\nContent-Length: 256\r\n\r\n`)), binary]),
    status: 200,
    rows: 1,
    check: (h) => expect(Buffer.from(h.receiver.requests.list()[0]!.body)).toEqual(binary),
  },
  { name: 'empty body', bytes: head('Content-Length: 0\r\n\r\n'), status: 200, rows: 1 },
  { name: 'GET without a body', bytes: 'GET /h/c?probe=1 HTTP/1.1\r\nHost: x\r\n\r\n', status: 200, rows: 1 },
  { name: 'HEAD request', bytes: 'HEAD /h/c HTTP/1.1\r\nHost: x\r\n\r\n', options: { noBody: true }, status: 200, rows: 1 },
  {
    name: 'declared body over the limit: 413 without reading it, still recorded',
    bytes: head(`Content-Length: ${LIMIT + 1}\r\n\r\n`),
    status: 413,
    rows: 1,
    check: (h) => {
      const r = h.receiver.requests.list()[0]!
      expect(r.bodySize).toBe(LIMIT + 1)
      expect(r.bodyTruncated).toBe(true)
      expect(r.response.status).toBe(413)
    },
  },
  {
    name: 'chunked body over the limit: drained, 413, first bytes recorded',
    options: {
      pieces: [head('Transfer-Encoding: chunked\r\n\r\n'), ...Array.from({ length: 3 }, () => `${(40 * 1024).toString(16)}\r\n${'z'.repeat(40 * 1024)}\r\n`), '0\r\n\r\n'],
    },
    status: 413,
    rows: 1,
    check: (h) => {
      const r = h.receiver.requests.list()[0]!
      expect(r.bodySize).toBe(120 * 1024)
      expect(r.bodyTruncated).toBe(true)
      expect(r.body.length).toBe(LIMIT)
    },
  },
  {
    name: '1,000 headers, all kept in order',
    bytes: head(`${manyHeaders}Content-Length: 2\r\n\r\n{}`),
    status: 200,
    rows: 1,
    check: (h) => {
      const headers = h.receiver.requests.list()[0]!.headers
      expect(headers.length).toBe(1002)
      expect(headers[500]).toEqual(['X-H-499', 'v499'])
    },
  },
  { name: 'request head over 64 KiB', bytes: head(`X-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`), status: 431, rows: 0 },
  {
    name: 'CRLF injection in the URL (encoded) is recorded as sent, nothing injected',
    bytes: 'GET /h/c?next=%0d%0aSet-Cookie:%20evil=1 HTTP/1.1\r\nHost: x\r\n\r\n',
    status: 200,
    rows: 1,
    check: (h, result) => {
      expect(result.responses[0]?.headers['set-cookie']).toBeUndefined()
      expect(h.receiver.requests.list()[0]!.query).toBe('next=%0d%0aSet-Cookie:%20evil=1')
    },
  },
  { name: 'bare CR inside a header value', bytes: head('X-Evil: a\rSet-Cookie: b\r\nContent-Length: 0\r\n\r\n'), status: 400, rows: 0 },
  { name: 'header name with a space', bytes: head('Bad Header: x\r\nContent-Length: 0\r\n\r\n'), status: 400, rows: 0 },
  { name: 'Content-Length and Transfer-Encoding together (smuggling)', bytes: head('Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'), status: 400, rows: 0 },
  { name: 'two different Content-Length values', bytes: head('Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x'), status: 400, rows: 0 },
  {
    name: 'chunked body assembled',
    bytes: head('Transfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n3\r\n12}\r\n0\r\n\r\n'),
    status: 200,
    rows: 1,
    check: (h) => expect(Buffer.from(h.receiver.requests.list()[0]!.body).toString()).toBe('{"a":12}'),
  },
  {
    name: 'invalid chunk size after a valid head: recorded, answered 400',
    bytes: head('Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n'),
    status: 400,
    rows: 1,
    check: (h) => expect(h.receiver.requests.list()[0]!.response.status).toBe(400),
  },
  {
    name: 'three pipelined requests in one write',
    bytes: json('{"n":1}') + json('{"n":2}') + json('{"n":3}'),
    options: { responses: 3 },
    status: 200,
    rows: 3,
    check: (h, result) => {
      expect(result.responses.map((r) => r.status)).toEqual([200, 200, 200])
      expect(h.receiver.requests.list({ limit: 3 }).map((r) => Buffer.from(r.body).toString())).toEqual(['{"n":3}', '{"n":2}', '{"n":1}'])
    },
  },
  {
    name: 'HTTP/1.0',
    bytes: 'POST /h/c HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}',
    status: 200,
    rows: 1,
    check: (h) => expect(h.receiver.requests.list()[0]!.httpVersion).toBe('1.0'),
  },
  {
    name: 'Expect: 100-continue gets 100, then the body, then 200',
    options: { pieces: [head('Expect: 100-continue\r\nContent-Length: 2\r\n\r\n'), '{}'], pauseMs: 20 },
    status: 200,
    rows: 1,
    check: (_h, result) => expect(result.responses.map((r) => r.status)).toEqual([100, 200]),
  },
  {
    name: 'Expect: 100-continue with a body over the limit: 413 and no 100',
    bytes: head(`Expect: 100-continue\r\nContent-Length: ${LIMIT * 4}\r\n\r\n`),
    status: 413,
    rows: 1,
    check: (_h, result) => expect(result.responses.map((r) => r.status)).toEqual([413]),
  },
  {
    name: 'client stops mid-body (FIN): the partial body is recorded, answered 400',
    bytes: head('Content-Length: 100\r\n\r\n{"event_id":"half'),
    options: { responses: 0, endAfterWrite: true },
    status: 400,
    rows: 1,
    check: (h) => {
      const r = h.receiver.requests.list()[0]!
      expect(Buffer.from(r.body).toString()).toBe('{"event_id":"half')
      expect(r.bodyTruncated).toBe(true)
      expect(r.fault?.outcome).toBe('refused')
    },
  },
  {
    name: 'client resets mid-body: the partial body is recorded',
    bytes: head('Content-Length: 100\r\n\r\n{"a"'),
    options: { resetAfterWrite: true },
    status: null,
    rows: 1,
    check: (h) => {
      const r = h.receiver.requests.list()[0]!
      expect(Buffer.from(r.body).toString()).toBe('{"a"')
      // Whether the RST or the parser's end-of-input is seen first depends on the kernel's timing.
      expect(['client_gone', 'refused']).toContain(r.fault?.outcome)
    },
  },
  { name: 'not HTTP at all', bytes: Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]), status: 400, rows: 0 },
  { name: 'unknown method', bytes: 'BREW /h/c HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, rows: 0 },
  { name: 'NUL byte in the request line', bytes: 'GET /h/c\u0000x HTTP/1.1\r\nHost: x\r\n\r\n', status: 400, rows: 0 },
  {
    // Answered by the receiver itself (not Node, unseen), so it has its row and its reason.
    name: 'HTTP/1.1 without Host',
    bytes: 'GET /h/c HTTP/1.1\r\n\r\n',
    status: 400,
    rows: 1,
    check: (h) => expect(h.receiver.requests.list()[0]!.refusedReason).toMatch(/needs a Host header/),
  },
  {
    name: 'an 8 KiB URL',
    bytes: `GET /h/c/${'p'.repeat(8192)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    status: 200,
    rows: 1,
    check: (h) => expect(h.receiver.requests.list()[0]!.path.length).toBe(8192 + 5),
  },
  { name: 'deeply nested JSON (dedupe by body field)', bytes: json('['.repeat(5000) + ']'.repeat(5000)), status: 200, rows: 1 },
  {
    name: 'form-encoded body with a key-less dedupe',
    bytes: head('Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\nevent_id='),
    status: 200,
    rows: 1,
    check: (h) => expect(h.receiver.requests.list()[0]!.dedupeKey).toBeNull(),
  },
]

describe('hostile and odd requests', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ requestDeadlineMs: 2_000 })
    await h.receiver.endpoints.create({ slug: 'c', body_limit: LIMIT, dedupe: 'pandoktorek-body' })
  })
  afterAll(async () => {
    await h.stop()
  })

  it('has at least 25 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25)
  })

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = h.receiver.requests.count()
    const respondedBefore = h.events.filter((e) => e.type === 'request.responded').length
    const result = await send(h.receiver.port, c.bytes ?? '', c.options ?? {})
    const finals = result.responses.filter((r) => r.status >= 200)
    if (c.status === null) expect(finals).toHaveLength(0)
    else expect(finals[0]?.status).toBe(c.status)
    if (c.rows > 0) {
      // Wait until every row of this case has its outcome (a client that left is noticed on close).
      await h.waitFor('request.responded', () => h.events.filter((e) => e.type === 'request.responded').length >= respondedBefore + c.rows)
    }
    expect(h.receiver.requests.count() - before).toBe(c.rows)
    await c.check?.(h, result)
    // …and the receiver keeps serving.
    const next = await send(h.receiver.port, json('{"next":true}'))
    expect(next.responses[0]?.status).toBe(200)
  })
})

describe('slow clients', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ requestDeadlineMs: 300 })
    await h.receiver.endpoints.create({ slug: 'c' })
  })
  afterAll(async () => {
    await h.stop()
  })

  it('slow-loris headers: refused with 408 once the deadline from the first byte passes', async () => {
    const pieces = Array.from({ length: 200 }, (_, i) => `X-Slow-${i}: 1\r\n`)
    const result = await send(h.receiver.port, '', { pieces: [head(''), ...pieces], pauseMs: 20, responses: 0 })
    expect(result.responses[0]?.status).toBe(408)
    expect(h.events.some((e) => e.type === 'connection.refused' && e.reason === 'slow_request')).toBe(true)
    expect((await send(h.receiver.port, json('{}'))).responses[0]?.status).toBe(200)
  })

  it('a body trickling past the deadline: 408, and the part received is recorded', async () => {
    const pieces = Array.from({ length: 200 }, () => 'x')
    const before = h.receiver.requests.count()
    const result = await send(h.receiver.port, '', { pieces: [head('Content-Length: 200\r\n\r\n'), ...pieces], pauseMs: 20, responses: 0 })
    expect(result.responses[0]?.status).toBe(408)
    expect(h.receiver.requests.count()).toBe(before + 1)
    const r = h.receiver.requests.list()[0]!
    expect(r.response.status).toBe(408)
    expect(r.bodyTruncated).toBe(true)
    expect(r.body.length).toBeGreaterThan(0)
    expect(r.body.length).toBeLessThan(200)
  })

  it('an idle connection (a tunnel client pre-opening sockets) is not cut off by the deadline', async () => {
    const idle = net.connect(h.receiver.port, '127.0.0.1')
    await new Promise((resolve) => idle.once('connect', resolve))
    // Wait well past the 300 ms deadline: idle time does not count, only a started request does.
    await new Promise((resolve) => setTimeout(resolve, 900))
    const data: Buffer[] = []
    const answered = new Promise<string>((resolve) => {
      idle.on('data', (chunk: Buffer) => {
        data.push(chunk)
        const text = Buffer.concat(data).toString()
        if (text.includes('\r\n\r\nOK')) resolve(text)
      })
      idle.on('close', () => resolve(Buffer.concat(data).toString()))
    })
    idle.write(json('{}'))
    expect(await answered).toMatch(/^HTTP\/1\.1 200 OK/)
    idle.destroy()
  })
})
