// Schema 24 on a store written before it (at schema 23), on a real SQLite file and on a real
// PostgreSQL: each event gets its place in commit order (events.commit_seq, store/feed-order.ts).
// A data folder's events keep the rowid the polling feed read until now; a team's, which the feed
// never served, are numbered in the order they were stored. An event published after the
// migration is numbered after them, and one copied in with its number keeps it.
import { describe, expect, it } from 'vitest'
import { createEventStore, createSqliteEngine, MIGRATIONS, migratePostgres, openDatabase, openPostgresEngine, postgresSchemaVersion, schemaVersion } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

// Inserted in this order (the rowid order), stored_at in another.
const ROWS_BEFORE = [
  `INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES ('e-b', 't', X'7B7D', 1, 30)`,
  `INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES ('e-a', 't', X'7B7D', 2, 10)`,
  `INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES ('e-c', 't', X'7B7D', 3, 20)`,
]
const NUMBERS = 'SELECT id, commit_seq FROM events ORDER BY commit_seq'
const published = { id: 'e-new', eventType: 't', payload: Buffer.from('{}'), createdAt: 4, storedAt: 40 }
const COPIED = `INSERT INTO events (id, event_type, payload, created_at, stored_at, commit_seq) VALUES ('e-copied', 't', X'7B7D', 5, 50, 2)`

describe('migration 24: events.commit_seq', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('numbers a data folder’s events by their rowid, and the next event after them', async () => {
    const file = storeWrittenAt(temp.dir, 23, ROWS_BEFORE.map((s) => `${s};`).join('\n'))
    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(24)
      expect(db.prepare(NUMBERS).all()).toEqual([
        { id: 'e-b', commit_seq: 1 },
        { id: 'e-a', commit_seq: 2 },
        { id: 'e-c', commit_seq: 3 },
      ])
      expect(await createEventStore(createSqliteEngine(db, { closeDatabase: false })).insertNew(published)).toBe(true)
      db.exec(COPIED)
      expect(db.prepare("SELECT commit_seq FROM events WHERE id IN ('e-new', 'e-copied') ORDER BY id").pluck().all()).toEqual([2, 4])
    } finally {
      db.close()
    }
  })

  it('numbers a team store’s events in the order they were stored, and the next event after them', async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 23))
      expect(await postgresSchemaVersion(engine)).toBe(23)
      for (const statement of ROWS_BEFORE) await engine.exec(statement.replace("X'7B7D'", "'\\x7b7d'::bytea"))
      await migratePostgres(engine)
      expect(await engine.all(NUMBERS)).toEqual([
        { id: 'e-a', commit_seq: 1 },
        { id: 'e-c', commit_seq: 2 },
        { id: 'e-b', commit_seq: 3 },
      ])
      expect(await engine.transaction((tx) => createEventStore(tx).insertNew(published))).toBe(true)
      await engine.exec(COPIED.replace("X'7B7D'", "'\\x7b7d'::bytea"))
      expect(await engine.all("SELECT commit_seq FROM events WHERE id IN ('e-new', 'e-copied') ORDER BY id")).toEqual([{ commit_seq: 2 }, { commit_seq: 4 }])
    } finally {
      await engine.close()
    }
  })
})
