// Schema 32 on a data folder written at schema 31: the dedupe keys move into one case-blind index
// (requests_by_dedupe_key COLLATE NOCASE; requests_by_key_nocase gone) and the counters' triggers
// are made again with the probe that walks it. The counters stay as they were and go on counting
// the same; a key's group, the dedupe probe and the search of event ids answer as before, a key's
// case its own. (PostgreSQL: nothing changes at 32.)
import { describe, expect, it } from 'vitest'
import { createRequestStore, openDatabase, readKeyGroup, schemaVersion, storeOfDatabase } from '../../../electron/engine/store'
import { requestListSql } from '../../../electron/engine/store/list-reads'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const ROW = (id: number, endpoint: string | null, key: string | null, at: number) =>
  `INSERT INTO requests (id, endpoint_id, received_at, stored_at, method, path, headers_json, body_size, dedupe_key, duplicate_number) VALUES (${id}, ${endpoint === null ? 'NULL' : `'${endpoint}'`}, ${at}, ${at}, 'POST', '/h/x', '[]', 0, ${key === null ? 'NULL' : `'${key}'`}, 1);`
const ROWS_BEFORE = [
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep', 'shop', 'Shop', 1);`,
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep2', 'crm', 'CRM', 1);`,
  ROW(1, 'ep', 'evt_Abc', 1000),
  ROW(2, 'ep', 'evt_abc', 1001),
  ROW(3, 'ep', 'evt_Abc', 1002),
  ROW(4, 'ep2', 'EVT_ABD', 1003),
  ROW(5, 'ep', null, 1004),
  ROW(6, null, 'evt_abz', 1005),
].join('\n')
const COUNTERS = 'SELECT endpoint_key, requests, received_rows FROM request_counts WHERE requests > 0 ORDER BY endpoint_key'

describe('migration 32: a data folder keeps its dedupe keys in one case-blind index', () => {
  const temp = useTempDir()

  it('rebuilds the index and the counters’ triggers; groups, counts and the search answer as before', async () => {
    const file = storeWrittenAt(temp.dir, 31, ROWS_BEFORE)
    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(32)
      const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'requests' AND sql IS NOT NULL").all() as Array<{ name: string; sql: string }>
      expect(indexes.map((i) => i.name)).not.toContain('requests_by_key_nocase')
      expect(indexes.find((i) => i.name === 'requests_by_dedupe_key')?.sql).toMatch(/dedupe_key COLLATE NOCASE/)
      // Three groups at ep (evt_Abc twice, evt_abc, a keyless one), one at ep2, one at none.
      const before = [
        { endpoint_key: '', requests: 1, received_rows: 1 },
        { endpoint_key: 'ep', requests: 4, received_rows: 3 },
        { endpoint_key: 'ep2', requests: 1, received_rows: 1 },
      ]
      expect(db.prepare(COUNTERS).all()).toEqual(before)

      // The new triggers count a key in another case as a group of its own, and the same key as one.
      db.exec(ROW(7, 'ep', 'EVT_ABC', 1006))
      db.exec(ROW(8, 'ep', 'evt_abc', 1007))
      expect(db.prepare(COUNTERS).all()).toEqual([before[0], { endpoint_key: 'ep', requests: 6, received_rows: 4 }, before[2]])
      db.exec('DELETE FROM requests WHERE id IN (2, 8)')
      expect(db.prepare(COUNTERS).all()).toEqual([before[0], { endpoint_key: 'ep', requests: 4, received_rows: 3 }, before[2]])

      // The dedupe probe: a key's newest row in its own case only.
      const store = storeOfDatabase(db)
      expect((await readKeyGroup(store.engine, 'ep', 'evt_Abc'))?.firstId).toBe(3)
      expect(await readKeyGroup(store.engine, 'ep', 'evt_abc')).toBeUndefined()
      expect(createRequestStore(db).keyGroup('ep', 'EVT_ABC')?.firstId).toBe(7)

      // The search of event ids: by their start in any case, at every endpoint and at none.
      const { sql, params } = requestListSql({ eventIdPrefix: 'EVT_AB' })
      const found = (db.prepare(sql).all(...params, 50) as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b)
      expect(found).toEqual([1, 3, 4, 6, 7])
    } finally {
      db.close()
    }
  })
})
