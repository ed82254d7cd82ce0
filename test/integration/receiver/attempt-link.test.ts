// The receiver files a request under one of our attempts only when its x-hookloop-attempt value
// was made under this data folder's link key, by that attempt, for these very bytes. Anything else
// — a bare attempt number, another folder's link, a link copied onto another body — is a header
// like the rest, and the request is received traffic.
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { linkFor, recordAttempt } from '../../support/attempt-rows'
import { makeTempDir } from '../../support/temp-dir'
import { post, send, startHarness, type Harness } from './support'

describe('attempt links at the receiver', () => {
  let h: Harness | undefined
  let other: { db: Database; cleanup(): void } | undefined
  afterEach(async () => {
    await h?.stop()
    other?.db.close()
    other?.cleanup()
    h = undefined
    other = undefined
  })

  it('links only a value made under this folder\'s key by that attempt for this body', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'l' })
    const attempt = recordAttempt(h.db)
    const temp = makeTempDir('hookloop-other-folder-')
    other = { db: openDatabase({ file: join(temp.dir, 'hookloop.db') }), cleanup: temp.cleanup }
    const body = JSON.stringify({ id: 'evt_own' })
    const cases: [string, string, string, number | null][] = [
      ['its own link', linkFor(h.db, attempt, body), body, attempt.id],
      ['a bare attempt number', String(attempt.id), body, null],
      ["another data folder's link for the same attempt, delivery and event", linkFor(other.db, attempt, body), body, null],
      ['its own link on another body', linkFor(h.db, attempt, body), JSON.stringify({ id: 'evt_stranger' }), null],
      ['a link for an attempt id this store does not have', linkFor(h.db, { ...attempt, id: attempt.id + 1 }, body), body, null],
      ['a link made for another event under the same attempt id', linkFor(h.db, { ...attempt, eventId: 'evt_reused' }, body), body, null],
      ['a link with its MAC cut short', linkFor(h.db, attempt, body).slice(0, -1), body, null],
    ]
    for (const [, value, sent] of cases) {
      const result = await send(h.receiver.port, post('/h/l', sent, { 'x-hookloop-attempt': value }))
      expect(result.responses[0]?.status).toBe(200)
    }
    h.receiver.requests.flush()
    const records = h.receiver.requests.list().sort((a, b) => a.id - b.id)
    expect(records.map((r, i) => [cases[i]?.[0], r.attemptId])).toEqual(cases.map(([name, , , linked]) => [name, linked]))
    // Each carried its header as captured, whatever became of the link.
    expect(records.map((r) => r.headers.find(([name]) => name === 'x-hookloop-attempt')?.[1])).toEqual(cases.map(([, value]) => value))
  })
})
