// The receiver reads the newest row of a dedupe key on arrivals (store/requests.ts, keyGroup), and
// the counters' triggers probe a new request's group: each a search of that key's rows on
// requests_by_dedupe_key (case-blind from schema 32), never a walk of the endpoint's requests.
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../electron/engine/store'
import { LAST_OF_KEY_SQL } from '../../../electron/engine/store/requests'

describe("a dedupe key's newest row", () => {
  it('is found on requests_by_dedupe_key by endpoint and key', () => {
    const db = openDatabase({ file: ':memory:' })
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LAST_OF_KEY_SQL.sqlite}`).all('e', 'k', 'k', 0) as { detail: string }[]).map((r) => r.detail)
    db.close()
    expect(plan.some((d) => /SEARCH requests USING (COVERING )?INDEX requests_by_dedupe_key \(endpoint_id=\? AND dedupe_key=\?/.test(d))).toBe(true)
    expect(plan.some((d) => /SCAN requests|requests_by_endpoint/.test(d))).toBe(false)
  })

  it("is probed on requests_by_dedupe_key by the counters' insert trigger", () => {
    const db = openDatabase({ file: ':memory:' })
    const trigger = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'request_counts_insert'").pluck().get() as string
    // The trigger's group probe, its NEW values as parameters.
    const probe = /SELECT 1 FROM requests p WHERE [^)]*/.exec(trigger)?.[0].replace(/NEW\.\w+/g, '?') ?? ''
    expect(probe).toMatch(/dedupe_key COLLATE NOCASE = \?/)
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${probe}`).all('e', 'k', 'k', 1) as { detail: string }[]).map((r) => r.detail)
    db.close()
    expect(plan.some((d) => /SEARCH p USING (COVERING )?INDEX requests_by_dedupe_key \(endpoint_id=\? AND dedupe_key=\?/.test(d))).toBe(true)
  })
})
