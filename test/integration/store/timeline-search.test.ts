// The timeline's search: a captured request is found by its event id (the dedupe key's start, any
// ASCII case), and one without a key by the text of its body; a delivery by Hookloop's id or the
// id its consumer saw. Requests arrive over real sockets into a real SQLite file.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { createTimelineReads } from '../../../electron/engine/store/timeline-reads'
import { makeTempDir } from '../../support/temp-dir'
import type { Database } from 'better-sqlite3'
import { createSqliteEngine } from '../../../electron/engine/store'

const temp = makeTempDir('hookloop-timeline-search-')
let engine: Awaited<ReturnType<typeof createEngine>>
let db: Database

async function post(slug: string, body: string): Promise<void> {
  const answer = await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  await answer.arrayBuffer()
}

beforeAll(async () => {
  engine = await createEngine({ dataDir: join(temp.dir, 'data'), receiver: { host: '127.0.0.1', port: 0 } })
  await engine.putEndpoint({ slug: 'keyed', dedupe: 'auto' })
  await engine.putEndpoint({ slug: 'plain' })
  await post('keyed', '{"event_id":"Evt_Order_1","event_type":"order.paid"}')
  await post('keyed', '{"event_id":"Evt_Order_1","event_type":"order.paid"}')
  await post('plain', '{"order":"ORD-77","note":"first"}')
  await post('plain', '{"order":"ord-78","note":"second"}')
  await engine.quiesce()
  db = engine.db
}, 30_000)
afterAll(async () => {
  await engine.close()
  temp.cleanup()
})

describe('timeline search', () => {
  it('finds a keyed group by its event id and a keyless request by its body text, in any case', async () => {
    const reads = createTimelineReads(createSqliteEngine(db, { closeDatabase: false }))
    const byId = await reads.refs({ search: 'evt_order' }, 10)
    expect(byId.total).toBe(1)
    expect(byId.refs.map((r) => r.gkey)).toEqual(['Evt_Order_1'])
    const byBody = await reads.refs({ search: 'ord-77' }, 10)
    expect(byBody.total).toBe(1)
    expect(byBody.refs).toHaveLength(1)
    expect(byBody.refs[0]?.gkey).toMatch(/^request:\d+$/)
    // Two keyless requests are two rows, each counted.
    expect((await reads.refs({ search: '"note"' }, 10)).total).toBe(2)
    // A keyed request's body is not searched: its event id is what finds it.
    expect((await reads.refs({ search: 'order.paid' }, 10)).total).toBe(0)
  })
})
