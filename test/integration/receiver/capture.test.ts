import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { linkFor, recordAttempt } from '../../support/attempt-rows'
import { COMMIT_MODES, post, send, startHarness, type Harness } from './support'

describe.each(COMMIT_MODES)('receiver capture on real sockets and a real SQLite file, commits %s', (_mode, captureThread) => {
  let h: Harness
  afterEach(() => h?.stop())

  it('records a request with raw bytes, headers in order with duplicates, and answers 200 by default', async () => {
    h = await startHarness({ captureThread })
    const endpoint = await h.receiver.endpoints.create({ slug: 'shop' })
    const body = '{"event_id":"e1", "spaced" : true}'
    // Sent by an attempt of this data folder: its link checks out (attempt-link.test.ts has the ones that do not).
    const attempt = recordAttempt(h.db)
    const link = linkFor(h.db, attempt, body)
    const raw = `POST /h/shop/sub?x=1&y=2 HTTP/1.1\r\nHost: localhost\r\nX-Dup: a\r\nContent-Type: application/json\r\nX-Dup: b\r\nX-Hookloop-Attempt: ${link}\r\nContent-Length: ${body.length}\r\n\r\n${body}`
    const result = await send(h.receiver.port, raw)
    expect(result.responses[0]?.status).toBe(200)
    const [record] = h.receiver.requests.list()
    expect(record).toBeDefined()
    expect(record?.endpointId).toBe(endpoint.id)
    expect(record?.path).toBe('/h/shop/sub')
    expect(record?.query).toBe('x=1&y=2')
    expect(Buffer.from(record!.body).toString()).toBe(body)
    expect(record?.headers).toEqual([
      ['Host', 'localhost'],
      ['X-Dup', 'a'],
      ['Content-Type', 'application/json'],
      ['X-Dup', 'b'],
      ['X-Hookloop-Attempt', link],
      ['Content-Length', String(body.length)],
    ])
    expect(record?.attemptId).toBe(attempt.id)
    expect(record?.response.status).toBe(200)
    expect(record?.remoteAddress).toMatch(/127\.0\.0\.1/)
  })

  it('records unknown paths as unmatched and answers 404', async () => {
    h = await startHarness({ captureThread })
    const result = await send(h.receiver.port, post('/nowhere', '{}'))
    expect(result.responses[0]?.status).toBe(404)
    const [record] = h.receiver.requests.list({ endpointId: null })
    expect(record?.endpointId).toBeNull()
    expect(record?.path).toBe('/nowhere')
    expect(record?.response.status).toBe(404)
  })

  it('a 2xx answer is committed before the response: another connection to the file sees the row', async () => {
    h = await startHarness({ captureThread })
    await h.receiver.endpoints.create({ slug: 'a' })
    const reader = new BetterSqlite3(h.file, { readonly: true })
    try {
      for (let i = 0; i < 5; i++) {
        const result = await send(h.receiver.port, post('/h/a', `{"n":${i}}`))
        expect(result.responses[0]?.status).toBe(200)
        // No flush from our side: the row must already be on disk.
        const count = reader.prepare('SELECT count(*) FROM requests').pluck().get()
        expect(count).toBe(i + 1)
      }
    } finally {
      reader.close()
    }
  })

  it('emits captured → responded in order for each request', async () => {
    h = await startHarness({ captureThread })
    await h.receiver.endpoints.create({ slug: 'a' })
    await send(h.receiver.port, post('/h/a', '{}'))
    await h.waitFor('request.responded')
    expect(h.events.map((e) => e.type)).toEqual(['request.captured', 'request.responded'])
  })
})
