// When a commit fails (disk full, locked file …) nothing captured is dropped: the request is
// answered 503 (so a sender retries), the rows stay queued, and they land once the store works.
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { COMMIT_MODES, post, send, startHarness, type Harness } from './support'

describe.each(COMMIT_MODES)('store failures, capture %s', (_name, captureThread) => {
  let h: Harness
  afterEach(() => h?.stop())

  it('answers 503 while commits fail, keeps the rows, and stores them once the store recovers', async () => {
    h = await startHarness({ captureThread })
    await h.receiver.endpoints.create({ slug: 'f' })
    const other = new BetterSqlite3(h.file)
    try {
      other.exec(`CREATE TRIGGER test_fail BEFORE INSERT ON requests BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END;`)
      const result = await send(h.receiver.port, post('/h/f', '{"n":1}'))
      expect(result.responses[0]?.status).toBe(503)
      expect(result.responses[0]?.headers['retry-after']).toBe('5')
      const failure = await h.waitFor('store.error')
      expect(failure.message).toContain('simulated disk failure')
      expect(h.receiver.openConnections()).toBeGreaterThanOrEqual(0)
      other.exec('DROP TRIGGER test_fail')
    } finally {
      other.close()
    }
    // The queued rows commit (the read flushes first), with the 503 that was really sent.
    const [record] = h.receiver.requests.list()
    expect(Buffer.from(record!.body).toString()).toBe('{"n":1}')
    expect(record?.response.status).toBe(503)
    expect(record?.fault?.outcome).toBe('store_failed')
    // …and the receiver answers normally again.
    expect((await send(h.receiver.port, post('/h/f', '{"n":2}'))).responses[0]?.status).toBe(200)
    expect(h.receiver.requests.count()).toBe(2)
  })
})
