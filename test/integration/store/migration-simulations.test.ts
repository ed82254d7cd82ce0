// Schema 7 on a store written before it (a real SQLite file at schema 6 with a delivery and an
// attempt): every delivery made then was on the wall clock, so it gets no simulation and its wall
// creation time is its created_at; attempts get no wall start (NULL: only one time is known).
import { describe, expect, it } from 'vitest'
import { openDatabase, schemaVersion } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

describe('migration 7: simulations', () => {
  const temp = useTempDir()

  it('backfills created_wall_at from created_at and leaves deliveries of a store from before on the wall clock', () => {
    const file = storeWrittenAt(temp.dir, 6, `
      INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 'shop', 'http://127.0.0.1:9/', 'stripe', '{}', 1000, 1000);
      INSERT INTO events (id, event_type, payload, created_at) VALUES ('550e8400-e29b-41d4-a716-446655440000', 'charge.succeeded', X'7B7D', 1000);
      INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at) VALUES (7, '550e8400-e29b-41d4-a716-446655440000', 's', 'failed', 1700000000000, 1700000060000);
      INSERT INTO attempts (id, delivery_id, n, started_at, outcome, decision) VALUES (1, 7, 1, 1700000000000, 'http_500', 'failed');
    `)

    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(7)
      expect(db.prepare('SELECT simulation_id, created_wall_at FROM deliveries WHERE id = 7').get()).toEqual({ simulation_id: null, created_wall_at: 1_700_000_000_000 })
      expect(db.prepare('SELECT started_wall_at FROM attempts WHERE id = 1').pluck().get()).toBeNull()
      expect(db.prepare('SELECT count(*) FROM simulations').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
