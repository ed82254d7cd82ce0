// The hostile corpus, second part: what a stranger with the public URL can send to bend the
// receiver — answers Node would give unseen, dedupe keys that are huge, numeric or not UTF-8,
// JSON built to stall the parser, half-closed sockets, and more bodies than memory should hold.
// Each input is recorded (or refused) with its reason, and the next ordinary request is answered.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestRecord } from '../../../shared/receiver'
import { post, send, startHarness, type Harness, type RawResult, type SendOptions } from './support'

const LIMIT = 256 * 1024

interface Case {
  name: string
  bytes?: string | Buffer
  options?: SendOptions
  /** A second input sent right after the first (a repeat of a key, …). */
  then?: string | Buffer
  status: number | null
  rows: number
  check?: (rows: RequestRecord[], result: RawResult) => void
}

const body = (path: string, text: string | Buffer, headers: Record<string, string> = {}) => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text)
  const head = Object.entries({ host: 'x', 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')
  return Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`, 'latin1'), bytes])
}
const withBytes = (before: string, bytes: number[], after: string) => Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)])
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const wide = (n: number) => `[${Array.from({ length: n }, () => '[1,{"a":"b"}]').join(',')}]`

const CASES: Case[] = [
  // ---- answers Node used to give unseen
  {
    name: 'Expect: 200-ok is answered 417 by the receiver and recorded',
    bytes: body('/h/c', '{}', { expect: '200-ok' }),
    status: 417,
    rows: 1,
    check: ([r]) => {
      expect(r!.response.status).toBe(417)
      expect(r!.refusedReason).toMatch(/200-ok.*not supported/)
      expect(r!.fault?.outcome).toBe('refused')
    },
  },
  { name: 'Expect: an unknown expectation', bytes: body('/h/c', '{}', { expect: 'x-hookloop-nonsense' }), status: 417, rows: 1, check: ([r]) => expect(r!.refusedReason).toMatch(/not supported/) },
  {
    name: 'POST without Host: 400 with its row and the body size declared',
    bytes: 'POST /h/c HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}',
    status: 400,
    rows: 1,
    check: ([r]) => {
      expect(r!.refusedReason).toMatch(/Host header/)
      expect(r!.bodySize).toBe(2)
    },
  },
  { name: 'HTTP/1.0 without Host is fine', bytes: 'POST /h/c HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}', status: 200, rows: 1 },
  {
    name: 'CONNECT: recorded and answered 405',
    bytes: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    status: 405,
    rows: 1,
    check: ([r], result) => {
      expect(r!.method).toBe('CONNECT')
      expect(r!.path).toBe('example.com:443')
      expect(r!.refusedReason).toMatch(/not a proxy/)
      expect(result.responses[0]?.headers['allow']).toContain('POST')
    },
  },
  { name: 'CONNECT followed by tunnel bytes', bytes: 'CONNECT 10.0.0.1:22 HTTP/1.1\r\nHost: 10.0.0.1:22\r\n\r\nSSH-2.0-OpenSSH_9.6\r\n', status: 405, rows: 1 },
  { name: 'Upgrade: websocket is an ordinary request', bytes: 'GET /h/c HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n', status: 200, rows: 1 },
  { name: 'absolute-form target (proxy style): recorded, no endpoint', bytes: 'POST http://evil.example/h/c HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 2\r\n\r\n{}', status: 404, rows: 1 },
  { name: 'OPTIONS *', bytes: 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', status: 404, rows: 1, check: ([r]) => expect(r!.path).toBe('*') },
  // ---- half-closed clients
  {
    name: 'a client that half-closes after its request still gets the answer',
    bytes: body('/h/c', '{"event_id":"half-1"}'),
    options: { endAfterWrite: true },
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.fault).toBeNull(),
  },
  {
    name: 'a half-closed client on a hold is recorded as timed out, never as 200',
    bytes: body('/h/hold', '{}'),
    options: { endAfterWrite: true, responses: 0 },
    status: null,
    rows: 1,
    check: ([r]) => {
      expect(r!.fault?.outcome).toBe('timed_out')
      expect(r!.response.status).toBeNull()
    },
  },
  // ---- dedupe keys
  {
    name: '64-bit ids one apart are two keys (no float rounding)',
    bytes: body('/h/c', '{"event_id": 820982911946154508}'),
    then: body('/h/c', '{"event_id": 820982911946154509}'),
    status: 200,
    rows: 2,
    check: ([b, a]) => {
      expect([a!.dedupeKey, b!.dedupeKey]).toEqual(['820982911946154508', '820982911946154509'])
      expect([a!.duplicateNumber, b!.duplicateNumber]).toEqual([1, 1])
    },
  },
  { name: 'a number past float range stays as written', bytes: body('/h/c', '{"event_id": 1e400}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('1e400') },
  { name: 'a boolean key', bytes: body('/h/c', '{"event_id": true}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('true') },
  { name: 'a null key is no key', bytes: body('/h/c', '{"event_id": null}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBeNull() },
  { name: 'an object key is no key', bytes: body('/h/c', '{"event_id": {"id": 1}}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBeNull() },
  {
    name: 'a 100 KB key is kept as a digest marked too long; its repeat is dup #2',
    bytes: body('/h/c', `{"event_id":"${'k'.repeat(100_000)}"}`),
    then: body('/h/c', `{"event_id":"${'k'.repeat(100_000)}"}`),
    status: 200,
    rows: 2,
    check: ([b, a]) => {
      expect(a!.dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/)
      expect(a!.dedupeKeyMark).toEqual({ reason: 'too_long', bytes: 100_000 })
      expect(b!.duplicateNumber).toBe(2)
      expect(b!.duplicateOf).toBe(a!.id)
    },
  },
  { name: 'a key of exactly 512 bytes is kept as itself', bytes: body('/h/c', `{"event_id":"${'e'.repeat(512)}"}`), status: 200, rows: 1, check: ([r]) => expect([r!.dedupeKey?.length, r!.dedupeKeyMark]).toEqual([512, null]) },
  {
    name: 'two different invalid UTF-8 keys stay two keys',
    bytes: body('/h/c', withBytes('{"event_id":"', [0xc3, 0x28], '"}')),
    then: body('/h/c', withBytes('{"event_id":"', [0xe2, 0x28, 0xa1], '"}')),
    status: 200,
    rows: 2,
    check: ([b, a]) => {
      expect(a!.dedupeKeyMark?.reason).toBe('not_utf8')
      expect(a!.dedupeKey).not.toBe(b!.dedupeKey)
      expect(b!.duplicateNumber).toBe(1)
    },
  },
  {
    name: 'a key spelled with \\u escapes equals the same key in raw UTF-8',
    bytes: body('/h/c', '{"event_id":"caf\\u00e9-1"}'),
    then: body('/h/c', '{"event_id":"café-1"}'),
    status: 200,
    rows: 2,
    check: ([b, a]) => expect([a!.dedupeKey, b!.duplicateNumber]).toEqual(['café-1', 2]),
  },
  { name: 'a lone surrogate escape is not UTF-8: digest', bytes: body('/h/c', '{"event_id":"\\ud800x"}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKeyMark?.reason).toBe('not_utf8') },
  { name: 'a key with a newline and ESC is stored exactly', bytes: body('/h/c', '{"event_id":"a\\nb\\u001b[31m"}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('a\nb\u001b[31m') },
  { name: 'escaped quotes inside the key', bytes: body('/h/c', '{"event_id":"a\\"b\\\\"}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('a"b\\') },
  { name: 'the key after 1,000 other fields', bytes: body('/h/c', `{${Array.from({ length: 1000 }, (_, i) => `"f${i}":[${i},{"x":"y"}]`).join(',')},"event_id":"late"}`), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('late') },
  { name: 'the same field twice: the first one counts', bytes: body('/h/c', '{"event_id":"first","event_id":"second"}'), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBe('first') },
  { name: 'a byte-order mark before the JSON: not a JSON body, no key', bytes: body('/h/c', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"event_id":"bom"}')])), status: 200, rows: 1, check: ([r]) => expect(r!.dedupeKey).toBeNull() },
  { name: '200 KB of whitespace: past the bytes examined', bytes: body('/h/c', ' '.repeat(200_000)), status: 200, rows: 1, check: ([r]) => expect([r!.dedupeKey, r!.notInspected]).toEqual([null, 'the field was not within the first 131072 bytes examined']) },
  { name: '100 KB of whitespace: examined, not JSON', bytes: body('/h/c', ' '.repeat(100_000)), status: 200, rows: 1, check: ([r]) => expect([r!.dedupeKey, r!.notInspected]).toEqual([null, null]) },
  {
    name: 'template key over a 64-bit number and a string',
    bytes: body('/h/k', '{"message":{"id":12345678901234567890},"event":"message.sent"}'),
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.dedupeKey).toBe('message.sent_12345678901234567890'),
  },
  {
    name: 'a 600-byte header key: digest, marked too long',
    bytes: body('/h/hdr', '{}', { 'x-event-id': 'h'.repeat(600) }),
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.dedupeKeyMark).toEqual({ reason: 'too_long', bytes: 600 }),
  },
  {
    name: 'a header key with bytes that are not UTF-8: digest, marked',
    bytes: Buffer.concat([Buffer.from('POST /h/hdr HTTP/1.1\r\nHost: x\r\nX-Event-Id: ab'), Buffer.from([0xe9, 0xff]), Buffer.from('\r\nContent-Length: 0\r\n\r\n')]),
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.dedupeKeyMark?.reason).toBe('not_utf8'),
  },
  // ---- JSON built to stall the parser
  {
    name: 'a nested-array bomb: captured, answered, marked not inspected (too deep)',
    bytes: body('/h/c', `{"x":${nested(100_000)},"event_id":"after"}`),
    status: 200,
    rows: 1,
    check: ([r]) => {
      expect(r!.notInspected).toMatch(/deeper than/)
      expect(r!.dedupeKey).toBeNull()
      expect(r!.bodySize).toBe(200_025)
    },
  },
  {
    name: 'a nested-object bomb',
    bytes: body('/h/c', `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`),
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.notInspected).toMatch(/deeper than/),
  },
  {
    name: 'a wide bomb past the bytes examined: marked not inspected',
    bytes: body('/h/c', `{"x":${wide(15_000)},"event_id":"after"}`),
    status: 200,
    rows: 1,
    check: ([r]) => expect(r!.notInspected).toMatch(/first 131072 bytes/),
  },
  {
    name: 'an event-type rule over a bomb does not match; the default answer is given',
    bytes: body('/h/ev', `{"x":${nested(10_000)},"type":"order.paid"}`),
    status: 200,
    rows: 1,
    check: ([r]) => expect([r!.ruleId, r!.notInspected?.includes('deeper')]).toEqual([null, true]),
  },
  { name: 'an event-type rule on an ordinary body matches', bytes: body('/h/ev', '{"type":"order.paid"}'), status: 202, rows: 1 },
  // ---- query strings
  { name: 'a token in the query is recorded as sent', bytes: 'GET /h/c?token=abc%0d%0a&x=1 HTTP/1.1\r\nHost: x\r\n\r\n', status: 200, rows: 1, check: ([r]) => expect(r!.query).toBe('token=abc%0d%0a&x=1') },
]

describe('hostile and odd requests, part two', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ requestDeadlineMs: 5_000, inspectLimits: { maxBytes: 128 * 1024, maxDepth: 64, sliceBytes: 16 * 1024 } })
    await h.receiver.endpoints.create({ slug: 'c', body_limit: LIMIT, dedupe: 'pandoktorek-body' })
    await h.receiver.endpoints.create({ slug: 'k', dedupe: 'csku' })
    await h.receiver.endpoints.create({ slug: 'hdr', dedupe: { type: 'header', name: 'X-Event-Id' } })
    const ev = await h.receiver.endpoints.create({ slug: 'ev' })
    await h.receiver.rules.add(ev.id, { matchers: [{ type: 'event-type', path: 'type', value: 'order.paid' }], steps: [{ type: 'reply', status: 202 }] })
    const hold = await h.receiver.endpoints.create({ slug: 'hold' })
    await h.receiver.rules.add(hold.id, { steps: [{ type: 'timeout' }] })
  })
  afterAll(async () => {
    await h.stop()
  })

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = h.receiver.requests.count()
    const respondedBefore = h.events.filter((e) => e.type === 'request.responded').length
    const result = await send(h.receiver.port, c.bytes ?? '', c.options ?? {})
    if (c.then !== undefined) await send(h.receiver.port, c.then)
    const finals = result.responses.filter((r) => r.status >= 200)
    if (c.status === null) expect(finals).toHaveLength(0)
    else expect(finals[0]?.status).toBe(c.status)
    await h.waitFor('request.responded', () => h.events.filter((e) => e.type === 'request.responded').length >= respondedBefore + c.rows)
    expect(h.receiver.requests.count() - before).toBe(c.rows)
    c.check?.(h.receiver.requests.list({ limit: c.rows }), result)
    const next = await send(h.receiver.port, post('/h/c', '{"next":true}'))
    expect(next.responses[0]?.status).toBe(200)
  })
})

describe('the memory budget for bodies in flight', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ bodyBudgetBytes: 200_000 })
    await h.receiver.endpoints.create({ slug: 'b', body_limit: 1_000_000 })
  })
  afterAll(async () => {
    await h.stop()
  })

  /** Opens a request that declares `size` bytes and sends only its head: it holds its share. */
  async function holdOpen(size: number): Promise<net.Socket> {
    const socket = net.connect(h.receiver.port, '127.0.0.1')
    socket.on('error', () => undefined)
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(`POST /h/b HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`)
    // Until the receiver has read the head and taken the share (observed, not timed).
    while (h.receiver.bodyBudget().inUse < size) await new Promise((resolve) => setImmediate(resolve))
    return socket
  }

  it('one request larger than the whole budget is let in when nothing else is held', async () => {
    const result = await send(h.receiver.port, body('/h/b', 'z'.repeat(500_000)))
    expect(result.responses[0]?.status).toBe(200)
    expect(h.receiver.requests.list()[0]!.bodySize).toBe(500_000)
  })

  it('past the budget a declared body is refused 503 with Retry-After, recorded with the reason', async () => {
    const holder = await holdOpen(150_000)
    const before = h.receiver.requests.count()
    const result = await send(h.receiver.port, body('/h/b', 'y'.repeat(100_000)))
    expect(result.responses[0]?.status).toBe(503)
    expect(result.responses[0]?.headers['retry-after']).toBe('5')
    const refused = h.receiver.requests.list()[0]!
    expect(refused.refusedReason).toMatch(/memory budget of 200000 bytes/)
    expect(refused.fault?.outcome).toBe('refused')
    expect(refused.body.length).toBe(0)
    // The holder finishes; its share is given back and the next body fits again.
    holder.write('x'.repeat(150_000))
    await h.waitFor('request.responded', (e) => e.status === 200 && e.requestId === refused.id - 1)
    holder.destroy()
    expect((await send(h.receiver.port, body('/h/b', 'y'.repeat(100_000)))).responses[0]?.status).toBe(200)
    expect(h.receiver.requests.count() - before).toBe(3)
  })

  it('a small body (an ordinary webhook) is let in even while the budget is full', async () => {
    const holder = await holdOpen(190_000)
    const result = await send(h.receiver.port, body('/h/b', '{"event_id":"small"}'))
    expect(result.responses[0]?.status).toBe(200)
    holder.destroy()
  })

  it('a chunked body that outgrows the budget is drained and refused 503', async () => {
    const holder = await holdOpen(180_000)
    const chunk = `${(40_000).toString(16)}\r\n${'c'.repeat(40_000)}\r\n`
    const result = await send(h.receiver.port, '', { pieces: ['POST /h/b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', chunk, chunk, '0\r\n\r\n'] })
    expect(result.responses[0]?.status).toBe(503)
    const refused = h.receiver.requests.list()[0]!
    expect(refused.refusedReason).toMatch(/memory budget/)
    expect(refused.bodyTruncated).toBe(true)
    expect(refused.bodySize).toBe(80_000)
    holder.destroy()
    expect((await send(h.receiver.port, body('/h/b', '{}'))).responses[0]?.status).toBe(200)
  })

  it('Expect: 100-continue past the budget: 503 before the body, no 100', async () => {
    const holder = await holdOpen(180_000)
    const result = await send(h.receiver.port, 'POST /h/b HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n')
    expect(result.responses.map((r) => r.status)).toEqual([503])
    holder.destroy()
    expect((await send(h.receiver.port, body('/h/b', '{}'))).responses[0]?.status).toBe(200)
  })
})

it('part two has at least 35 inputs (with part one: more than 60)', () => {
  expect(CASES.length + 5).toBeGreaterThanOrEqual(35)
})
