// The consumer's event id on deliveries, on a store written before it (a real SQLite file at schema
// 12): the deliveries stay, with no consumer id (found by Hookloop's id as before), and one written
// after it is found by either id through the new index.
import { describe, expect, it } from 'vitest'
import { createListReads, createSqliteEngine, openDatabase, schemaVersion } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

describe("migration: deliveries.consumer_event_id", () => {
  const temp = useTempDir()

  it('keeps older deliveries (no consumer id) and finds a new one by the id its consumer saw', async () => {
    const file = storeWrittenAt(temp.dir, 12, `
      INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 'shop', 'http://127.0.0.1:9/', 'stripe', '{}', 1000, 1000);
      INSERT INTO events (id, event_type, payload, created_at) VALUES ('550e8400-e29b-41d4-a716-446655440000', 'charge.succeeded', X'7B7D', 1000);
      INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at, created_wall_at) VALUES (7, '550e8400-e29b-41d4-a716-446655440000', 's', 'failed', 1000, 1000, 1000);
    `)
    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThan(12)
      expect(db.prepare('SELECT id, consumer_event_id FROM deliveries').all()).toEqual([{ id: 7, consumer_event_id: null }])
      db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('660e8400-e29b-41d4-a716-446655440000', 'charge.succeeded', X'7B7D', 2000)`).run()
      db.prepare(`INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at, created_wall_at, consumer_event_id) VALUES (8, '660e8400-e29b-41d4-a716-446655440000', 's', 'pending', 2000, 2000, 2000, 'evt_1AbC')`).run()
      const reads = createListReads(createSqliteEngine(db, { closeDatabase: false }))
      expect((await reads.deliveries({ limit: 10, eventIdPrefix: 'EVT_1a' })).map((d) => [d.id, d.consumerEventId])).toEqual([[8, 'evt_1AbC']])
      expect((await reads.deliveries({ limit: 10, eventIdPrefix: '550e' })).map((d) => [d.id, d.consumerEventId])).toEqual([[7, null]])
    } finally {
      db.close()
    }
  })
})
