// The timeline's reads on a real SQLite file, through the query plans SQLite picks for them: a
// page, a search by event id, a status filter and a group's requests each read an index in order
// (or probe one), never every request or delivery. Measured on a million requests in
// docs/BENCHMARKS.md (scale); this pins the plans, not a time.
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { TimelineFilter } from '../../../shared/contract'
import { openDatabase } from '../../../electron/engine/store'
import { createTimelineReads } from '../../../electron/engine/store/timeline-reads'
import { useTempDir } from '../../support/use-temp-dir'
import { createSqliteEngine } from '../../../electron/engine/store'

interface Ran {
  sql: string
  plan: string[]
}

/** Records every statement the reads run, with the plan SQLite gives it for the same parameters. */
function recording(db: Database): { db: Database; ran: Ran[] } {
  const ran: Ran[] = []
  const prepare = db.prepare.bind(db)
  const spy = new Proxy(db, {
    get(target, key) {
      if (key !== 'prepare') return Reflect.get(target, key, target) as unknown
      return (sql: string) => {
        const statement = prepare(sql)
        const explain = (params: unknown[]) => ran.push({ sql, plan: (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail) })
        const run = (method: 'get' | 'all') => (...params: unknown[]) => {
          explain(params)
          return (statement[method] as (...p: unknown[]) => unknown)(...params)
        }
        const wrapped = { get: run('get'), all: run('all'), pluck: () => ({ get: (...params: unknown[]) => (explain(params), statement.pluck().get(...params)) }) }
        return wrapped
      }
    },
  })
  return { db: spy, ran }
}

/**
 * Full passes over a table (no index). A walk of deliveries by rowid, newest first, that stops at
 * its LIMIT reads as the same SCAN and is not one (no sort: the rows come in the order asked).
 */
const TABLE_SCAN = /^SCAN (requests|deliveries|attempts|r|d|p|a)$/
const ROWID_WALK = /ORDER BY d\.id DESC LIMIT \?$/
/**
 * Sorts: grouping is fine only after a search's range (a handful of rows); ordering is fine after
 * an index narrowed the rows (a search, one status, one subscription), never after a walk of a
 * whole table or index.
 */
const BOUNDED = /[(\s]\w+>\? AND \w+<\?\)/ // a range, after the equalities that lead to it (an endpoint's keys)
function fullScans(ran: Ran[]): string[] {
  return ran
    .filter((r) => !(ROWID_WALK.test(r.sql) && !r.plan.some((line) => line.includes('TEMP B-TREE'))))
    .flatMap((r) => {
      const bounded = r.plan.some((line) => BOUNDED.test(line))
      const narrowed = r.plan.some((line) => line.startsWith('SEARCH '))
      const wrong = (line: string) =>
        TABLE_SCAN.test(line) || (line.startsWith('USE TEMP B-TREE FOR ORDER BY') ? !narrowed : line.startsWith('USE TEMP B-TREE') && !bounded)
      return r.plan.filter(wrong).map((line) => `${line}  ← ${r.sql.replace(/\s+/g, ' ').slice(0, 120)}`)
    })
}

function seed(db: Database): void {
  db.prepare(`INSERT INTO endpoints (id, slug, name, secrets_json, dedupe_json, created_at) VALUES ('ep-a', 'a', 'A', '[]', '{"type":"header","name":"webhook-id"}', 0), ('ep-b', 'b', 'B', '[]', NULL, 0)`).run()
  db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('sub', 'Sub', 'http://127.0.0.1:9/', 'standard-webhooks', '[]', '{}', 0, 0)`).run()
  const request = db.prepare(
    `INSERT INTO requests (endpoint_id, received_at, method, path, headers_json, body, body_size, dedupe_key, duplicate_number, response_status) VALUES (?, ?, 'POST', '/h/a', '[]', ?, 2, ?, 1, 200)`,
  )
  const event = db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES (?, 'order.paid', '{}', ?)`)
  const delivery = db.prepare(`INSERT INTO deliveries (event_id, subscription_id, status, attempts, created_at, updated_at) VALUES (?, 'sub', ?, 1, ?, ?)`)
  const attempt = db.prepare(`INSERT INTO attempts (delivery_id, n, started_at, outcome, status_code, decision) VALUES (?, 1, ?, 'http_200', 200, 'succeeded')`)
  db.transaction(() => {
    for (let i = 0; i < 400; i++) {
      const keyed = i % 4 !== 0
      request.run(keyed ? 'ep-a' : 'ep-b', 1_000 + i, Buffer.from('{}'), keyed ? `evt_${i % 150}` : null)
      const id = `evt_d${i}`
      event.run(id, i)
      const d = delivery.run(id, ['succeeded', 'failed', 'retrying'][i % 3], i, i)
      attempt.run(d.lastInsertRowid, i)
    }
  })()
}

describe('timeline reads use indexes, never a pass over every request or delivery', () => {
  const temp = useTempDir()
  let db: Database | null = null
  afterEach(() => db?.close())

  function open(): { reads: ReturnType<typeof createTimelineReads>; ran: Ran[] } {
    db = openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => {} })
    seed(db)
    const spied = recording(db)
    return { reads: createTimelineReads(createSqliteEngine(spied.db, { closeDatabase: false })), ran: spied.ran }
  }

  const pages: Array<[string, TimelineFilter]> = [
    ['every row', {}],
    ['search by event id', { search: 'EVT_1' }],
    ['filter by a delivery status', { status: ['failed'] }],
    ['received rows only', { status: ['received'] }],
    ['one endpoint', { endpointId: 'ep-a' }],
    ['one subscription', { subscriptionId: 'sub' }],
  ]
  it.each(pages)('a page of %s', async (_name, filter) => {
    const { reads, ran } = open()
    const page = await reads.refs(filter, 50)
    expect(page.refs.length).toBeGreaterThan(0)
    expect(ran.length).toBeGreaterThan(0)
    expect(fullScans(ran)).toEqual([])
  })

  it('walks receive-only requests newest first on the time index, probing each for an earlier arrival of its group', async () => {
    const { reads, ran } = open()
    await reads.refs({ status: ['received'] }, 50)
    const page = ran.find((r) => r.sql.includes('ORDER BY r.received_at DESC'))
    expect(page?.plan.join(' | ')).toMatch(/SCAN r USING INDEX requests_by_time/)
    expect(page?.plan.join(' | ')).toMatch(/SEARCH p USING (COVERING )?INDEX requests_by_dedupe_key \(endpoint_id=\? AND dedupe_key=\?/)
    expect(page?.plan.join(' | ')).not.toMatch(/TEMP B-TREE/)
  })

  it('searches event ids by their start on case-blind indexes, for deliveries and requests alike', async () => {
    const { reads, ran } = open()
    const found = await reads.refs({ search: 'EVT_D12' }, 50)
    expect(found.refs.map((r) => r.kind)).toEqual(expect.arrayContaining(['d']))
    const plans = ran.map((r) => r.plan.join(' | ')).join('\n')
    // Lower-case ids on the index every delivery has, the others on the NOCASE index of ids with a capital.
    expect(plans).toMatch(/deliveries_by_event \(event_id>\? AND event_id<\?\)/)
    expect(plans).toMatch(/deliveries_by_event_with_capitals \(event_id>\? AND event_id<\?\)/)
    // Requests' keys on the one case-blind index of keys (schema 32), endpoint by endpoint.
    expect(plans).toMatch(/requests_by_dedupe_key \(endpoint_id=\? AND dedupe_key>\? AND dedupe_key<\?\)/)
    expect(found.total).toBe(11) // evt_d12 and evt_d120 … evt_d129
  })

  it("finds a delivery by its consumer's id on that id's own index, and a keyless request's body within the newest requests by id", async () => {
    const { reads, ran } = open()
    db!.prepare(`UPDATE deliveries SET consumer_event_id = 'Evt_Consumer_' || id WHERE id % 50 = 0`).run()
    const found = await reads.refs({ search: 'EVT_CONSUMER_' }, 50)
    expect(found.total).toBe(8) // deliveries 50, 100 … 400
    expect(found.refs.every((r) => r.kind === 'd')).toBe(true)
    const plans = ran.map((r) => r.plan.join(' | ')).join('\n')
    expect(plans).toMatch(/deliveries_by_consumer_id_nocase \(consumer_event_id>\? AND consumer_event_id<\?\)/)
    expect(plans).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid>\?\)/)
    expect(fullScans(ran)).toEqual([])
  })

  it("reads one group's requests by its dedupe key, and a request without one by its id", async () => {
    const { reads, ran } = open()
    const [keyed = []] = await reads.requestsOfGroups([{ endpointId: 'ep-a', key: 'evt_7' }])
    expect(keyed.length).toBeGreaterThan(1)
    expect(keyed.every((r) => r.dedupe_key === 'evt_7')).toBe(true)
    const [alone = []] = await reads.requestsOfGroups([{ endpointId: 'ep-b', key: 'request:1' }])
    expect(alone.map((r) => r.id)).toEqual([1])
    const plans = ran.map((r) => r.plan.join(' | '))
    expect(plans[0]).toMatch(/SEARCH r USING INDEX requests_by_dedupe_key \(endpoint_id=\? AND dedupe_key=\?/)
    expect(plans[1]).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid=\?\)/)
  })
})
