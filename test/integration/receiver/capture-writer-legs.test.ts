// Forward legs go through the capture writer, on its thread when there is one: every leg is on
// disk with its request (read back through a connection of its own), blobs intact, the body sent
// stored once (the leg points at the request's), the answer past the body limit stored truncated
// and marked, while the sender got it whole.
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createForwardLegStore } from '../../../electron/engine/store/forward-legs'
import { startHarness, type Harness } from './support'
import { post, startApp, stopAll, type App } from '../../support/forward-apps'

describe('forward legs through the capture writer thread', () => {
  let h: Harness
  let app: App
  afterEach(() => stopAll(h, app))

  it('stores every leg with its request; an answer past the body limit is relayed whole and stored truncated', async () => {
    const big = Buffer.alloc(3000, 'y')
    app = await startApp((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/big' ? big : `saw ${req.body.toString()}`))
    h = await startHarness({ captureThread: true })
    await h.receiver.endpoints.create({ slug: 'app', body_limit: 1024, forward_to: app.url })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`${h.receiver.url}/h/app`, `{"n":${i}}`)))
    const whole = await post(`${h.receiver.url}/h/app/big`, '{}')
    expect(answers.map((a) => ('error' in a ? a.error : a.status))).toEqual(Array(20).fill(200))
    if ('error' in whole) throw new Error(whole.error)
    expect(whole.body.equals(big)).toBe(true)
    h.receiver.requests.flush()

    const db = new BetterSqlite3(h.file, { readonly: true })
    try {
      const rows = db.prepare('SELECT r.id, r.body, l.request_body, l.request_body_captured, l.response_body, l.response_body_size, l.response_body_truncated, l.outcome FROM requests r JOIN forward_legs l ON l.request_id = r.id ORDER BY r.id').all() as {
        id: number
        body: Buffer
        request_body: Buffer
        request_body_captured: number
        response_body: Buffer
        response_body_size: number
        response_body_truncated: number
        outcome: string
      }[]
      expect(rows).toHaveLength(21)
      expect(rows.every((r) => r.outcome === 'answered')).toBe(true)
      // The body sent is the one captured: the leg points at the request's row, no second copy.
      expect(rows.every((r) => r.request_body_captured === 1 && r.request_body.length === 0)).toBe(true)
      const legs = createForwardLegStore(db).listForMany(rows.map((r) => r.id))
      expect(rows.every((r) => r.body.length > 0 && r.body.equals(legs.get(r.id)?.[0]?.request.body ?? Buffer.alloc(0)))).toBe(true)
      expect(rows.slice(0, 20).map((r) => r.response_body.toString()).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `saw {"n":${i}}`).sort())
      const last = rows[20]
      expect([last?.response_body.length, last?.response_body_size, last?.response_body_truncated]).toEqual([1024, 3000, 1])
    } finally {
      db.close()
    }
  })
})
