import { afterEach, describe, expect, it } from 'vitest'
import { post, send, startHarness, type Harness } from './support'

async function statusOf(h: Harness, raw: string): Promise<number | undefined> {
  const result = await send(h.receiver.port, raw)
  return result.responses[0]?.status
}

describe('matchers, sequences and presets on real sockets', () => {
  let h: Harness
  afterEach(() => h?.stop())

  it('method, path (exact and prefix) and header matchers', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'm' })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'method', method: 'put' }], steps: [{ type: 'reply', status: 201 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/m/deep', prefix: true }], steps: [{ type: 'reply', status: 202 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'path', path: '/h/m/exact' }], steps: [{ type: 'reply', status: 203 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'header', name: 'X-Mode', value: 'fail' }], steps: [{ type: 'reply', status: 500 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'header', name: 'x-present' }], steps: [{ type: 'reply', status: 204 }] })
    expect(await statusOf(h, `PUT /h/m HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`)).toBe(201)
    expect(await statusOf(h, post('/h/m/deep/er', '{}'))).toBe(202)
    expect(await statusOf(h, post('/h/m/deep', '{}'))).toBe(202)
    expect(await statusOf(h, post('/h/m/deeper', '{}'))).toBe(200) // not under /h/m/deep: segment boundary
    expect(await statusOf(h, post('/h/m/exact', '{}'))).toBe(203)
    expect(await statusOf(h, post('/h/m/exact/no', '{}'))).toBe(200)
    expect(await statusOf(h, post('/h/m', '{}', { 'x-mode': 'fail' }))).toBe(500)
    expect(await statusOf(h, post('/h/m', '{}', { 'x-mode': 'ok' }))).toBe(200)
    expect(await statusOf(h, post('/h/m', '{}', { 'x-present': '' }))).toBe(204)
  })

  it('event-type matcher reads a JSON path of the body', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'e' })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'event-type', value: ['booking.cancelled', 'booking.moved'] }], steps: [{ type: 'reply', status: 410 }] })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'event-type', path: 'event', value: 'message.sent' }], steps: [{ type: 'reply', status: 503 }] })
    expect(await statusOf(h, post('/h/e', '{"event_type":"booking.cancelled"}'))).toBe(410)
    expect(await statusOf(h, post('/h/e', '{"event_type":"booking.created"}'))).toBe(200)
    expect(await statusOf(h, post('/h/e', '{"event":"message.sent","message":{"id":1}}'))).toBe(503)
    expect(await statusOf(h, post('/h/e', 'not json at all'))).toBe(200)
  })

  it('nth-arrival matcher answers by the arrival number of the dedupe key', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'n', dedupe: { type: 'json-path', path: 'event_id' } })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'nth-arrival', n: [2, 3] }], steps: [{ type: 'reply', status: 503 }] })
    const body = (id: string) => `{"event_id":"${id}"}`
    expect(await statusOf(h, post('/h/n', body('a')))).toBe(200)
    expect(await statusOf(h, post('/h/n', body('a')))).toBe(503)
    expect(await statusOf(h, post('/h/n', body('b')))).toBe(200)
    expect(await statusOf(h, post('/h/n', body('a')))).toBe(503)
    expect(await statusOf(h, post('/h/n', body('a')))).toBe(200)
    expect(await statusOf(h, post('/h/n', '{"no":"key"}'))).toBe(200)
  })

  it('every-nth matcher: every 3rd request', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'x' })
    await h.receiver.rules.add(e.id, { matchers: [{ type: 'every-nth', n: 3 }], steps: [{ type: 'reply', status: 429 }] })
    const statuses: (number | undefined)[] = []
    for (let i = 0; i < 7; i++) statuses.push(await statusOf(h, post('/h/x', '{}')))
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429, 200])
  })

  it('probability matcher is reproducible: the same seed gives the same answers', async () => {
    const run = async () => {
      const harness = await startHarness()
      const e = await harness.receiver.endpoints.create({ slug: 'p' })
      await harness.receiver.rules.add(e.id, { preset: 'chaos', seed: 42 })
      const statuses: (number | undefined)[] = []
      for (let i = 0; i < 40; i++) statuses.push(await statusOf(harness, post('/h/p', '{}')))
      await harness.stop()
      return statuses
    }
    const first = await run()
    const second = await run()
    expect(first).toEqual(second)
    const failures = first.filter((s) => s === 503).length
    expect(failures).toBeGreaterThan(0)
    expect(failures).toBeLessThan(40)
    h = await startHarness()
  })

  it('a sequence per key: "503, 503, timeout, then 200", each key on its own count', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'q', dedupe: 'pandoktorek' })
    await h.receiver.rules.add(e.id, {
      sequence: {
        items: [{ type: 'reply', status: 503 }, { type: 'reply', status: 503 }, { type: 'timeout', ms: 1 }, { type: 'reply', status: 200 }],
        then: 'repeat-last',
      },
    })
    const hdr = (id: string) => ({ 'X-Pandoktorek-Event-Id': id })
    const outcomes: string[] = []
    for (const id of ['k1', 'k1', 'k2', 'k1', 'k1', 'k1', 'k2']) {
      const result = await send(h.receiver.port, post('/h/q', '{}', hdr(id)), { responses: 1 })
      outcomes.push(`${id}:${result.responses[0]?.status ?? 'none'}`)
    }
    expect(outcomes).toEqual(['k1:503', 'k1:503', 'k2:503', 'k1:none', 'k1:200', 'k1:200', 'k2:503'])
  })

  it('a sequence that falls through lets later rules (or the default) answer', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'f', dedupe: { type: 'header', name: 'webhook-id' } })
    await h.receiver.rules.add(e.id, { sequence: { items: [{ type: 'reply', status: 500 }], then: 'fall-through' } })
    await h.receiver.rules.add(e.id, { steps: [{ type: 'reply', status: 202 }] })
    const hdr = { 'webhook-id': 'msg_1' }
    expect(await statusOf(h, post('/h/f', '{}', hdr))).toBe(500)
    expect(await statusOf(h, post('/h/f', '{}', hdr))).toBe(202)
  })

  it('presets: fail-first 2, always 410, slow on the clock', async () => {
    h = await startHarness()
    const a = await h.receiver.endpoints.create({ slug: 'ff', dedupe: 'pandoktorek-body' })
    await h.receiver.rules.add(a.id, { preset: 'fail-first', n: 2 })
    const b = await h.receiver.endpoints.create({ slug: 'gone' })
    await h.receiver.rules.add(b.id, { preset: 'always-410' })
    const body = '{"event_id":"11111111-2222-4333-8444-555555555555"}'
    expect([await statusOf(h, post('/h/ff', body)), await statusOf(h, post('/h/ff', body)), await statusOf(h, post('/h/ff', body))]).toEqual([503, 503, 200])
    expect(await statusOf(h, post('/h/gone', body))).toBe(410)
  })

  it('rules can be disabled, reordered and deleted; global rules apply after endpoint rules', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'r' })
    const r500 = await h.receiver.rules.add(e.id, { steps: [{ type: 'reply', status: 500 }] })
    const r201 = await h.receiver.rules.add(e.id, { steps: [{ type: 'reply', status: 201 }] })
    await h.receiver.rules.add(null, { steps: [{ type: 'reply', status: 299 }] })
    expect(await statusOf(h, post('/h/r', '{}'))).toBe(500)
    await h.receiver.rules.reorder(r201.id, 0)
    expect(h.receiver.rules.list(e.id).map((r) => r.id)).toEqual([r201.id, r500.id])
    expect(await statusOf(h, post('/h/r', '{}'))).toBe(201)
    await h.receiver.rules.enable(r201.id, false)
    expect(await statusOf(h, post('/h/r', '{}'))).toBe(500)
    await h.receiver.rules.delete(r500.id)
    expect(await statusOf(h, post('/h/r', '{}'))).toBe(299)
    expect(h.receiver.rules.list(e.id)[0]?.explain).toBe('Every request: reply 201 (disabled)')
  })

  it('refuses a bad rule with a clear error and keeps the old rules', async () => {
    h = await startHarness()
    const e = await h.receiver.endpoints.create({ slug: 'b' })
    await expect(h.receiver.rules.add(e.id, { steps: [{ type: 'reply', status: 200 }, { type: 'delay', ms: 5 }] })).rejects.toThrow(/steps\[0\]\.type: "reply" is a final step and must be the last one/)
    await expect(h.receiver.rules.add(e.id, { steps: [{ type: 'explode' }] })).rejects.toThrow(/steps\[0\]\.type: unknown type "explode"; expected one of: delay, reply/)
    expect(h.receiver.rules.list()).toHaveLength(0)
    expect(await statusOf(h, post('/h/b', '{}'))).toBe(200)
  })
})
