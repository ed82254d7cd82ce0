// Schema 19 on a store written before it (a real SQLite file at schema 17 with a request): the
// request has no verdict (it was never judged), a verdict written now sits beside it, and pruning
// the request takes its verdict with it.
import { describe, expect, it } from 'vitest'
import { encodeSchemaVerdict, INSERT_SCHEMA_VERDICT_SQL, openDatabase, schemaVersion } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

describe('migration 19: request_schema_verdicts', () => {
  const temp = useTempDir()

  it('a request from before has none; a verdict follows its request out', () => {
    const file = storeWrittenAt(temp.dir, 17, `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size) VALUES (1, 'ep', 1000, 'POST', '/h/gh', '[]', 0);`)
    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(19)
      expect(db.prepare('SELECT count(*) FROM request_schema_verdicts').pluck().get()).toBe(0)
      const row = encodeSchemaVerdict(1, { verdict: 'invalid', source: 'GitHub webhooks OpenAPI', version: 'api.github.com', schema: 'push', problems: [{ pointer: '/ref', expected: 'required', got: 'missing', schemaSays: 'The full git ref' }], reason: null }, 2000)
      const insert = db.prepare(INSERT_SCHEMA_VERDICT_SQL.sql)
      const bind = (r: Record<string, unknown>) => INSERT_SCHEMA_VERDICT_SQL.params.map((p) => r[p])
      insert.run(...bind(row as unknown as Record<string, unknown>))
      // A request that is not (or no longer) stored gets no verdict row.
      insert.run(...bind({ ...row, request_id: 2 }))
      expect(db.prepare('SELECT request_id, verdict, pointer FROM request_schema_verdicts').all()).toEqual([{ request_id: 1, verdict: 'invalid', pointer: '/ref' }])
      db.prepare('DELETE FROM requests WHERE id = 1').run()
      expect(db.prepare('SELECT count(*) FROM request_schema_verdicts').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
