// Schema 9 on a store written before it (a real SQLite file at schema 8): an endpoint made at the
// old 10 MiB default takes the new default, so a provider's 25 MB payload is no longer refused;
// an endpoint whose limit was chosen otherwise keeps it.
import { describe, expect, it } from 'vitest'
import { DEFAULT_BODY_LIMIT } from '../../../shared/receiver'
import { openDatabase, schemaVersion } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

describe('migration 9: the default body limit', () => {
  const temp = useTempDir()

  it('raises endpoints stored at the old 10 MiB default to the new default and leaves other limits alone', () => {
    const file = storeWrittenAt(temp.dir, 8, `
      INSERT INTO endpoints (id, slug, name, created_at) VALUES ('a', 'github', 'github', 1000);
      INSERT INTO endpoints (id, slug, name, body_limit, created_at) VALUES ('b', 'small', 'small', 1024, 1000);
    `)

    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(9)
      const limits = db.prepare('SELECT id, body_limit FROM endpoints ORDER BY id').all()
      expect(limits).toEqual([
        { id: 'a', body_limit: DEFAULT_BODY_LIMIT },
        { id: 'b', body_limit: 1024 },
      ])
    } finally {
      db.close()
    }
  })
})
