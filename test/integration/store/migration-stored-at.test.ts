// Schema 14 on a store written before it (a real SQLite file at schema 12): each request and event
// gets the wall time it was stored. Real traffic was stamped on the wall clock; a request of the
// loop was stored when its attempt started on the wall; an event with its first delivery.
import { describe, expect, it } from 'vitest'
import { openDatabase, schemaVersion } from '../../../electron/engine/store'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const JAN = Date.UTC(2026, 0, 5, 9) // a simulation's clock
const DEC = Date.UTC(2026, 11, 4, 13) // the wall

describe('migration 14: stored_at', () => {
  const temp = useTempDir()

  it('backfills stored_at from the wall times a store already holds', () => {
    const file = storeWrittenAt(temp.dir, 12, `
      INSERT INTO simulations (id, mode, scale, started_at, started_wall_at, label) VALUES ('sim', 'virtual', 1, ${JAN}, ${DEC}, 'scenario x');
      INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 'shop', '', 'stripe', '{}', 1, 1);
      INSERT INTO events (id, event_type, payload, created_at) VALUES ('e-sim', 'booking.created', X'7B7D', ${JAN});
      INSERT INTO events (id, event_type, payload, created_at) VALUES ('e-lone', 'booking.created', X'7B7D', ${DEC - 5});
      INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at, simulation_id, created_wall_at) VALUES (1, 'e-sim', 's', 'succeeded', ${JAN}, ${JAN}, 'sim', ${DEC + 10});
      INSERT INTO attempts (id, delivery_id, n, started_at, started_wall_at, outcome, decision) VALUES (5, 1, 1, ${JAN}, ${DEC + 20}, 'http_200', 'succeeded');
      INSERT INTO requests (id, received_at, method, path, headers_json, body_size, attempt_id) VALUES (1, ${JAN}, 'POST', '/e/clinic', '[]', 0, 5);
      INSERT INTO requests (id, received_at, method, path, headers_json, body_size) VALUES (2, ${DEC + 30}, 'POST', '/e/clinic', '[]', 0);
    `)

    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(14)
      expect(db.prepare('SELECT id, stored_at FROM requests ORDER BY id').all()).toEqual([
        { id: 1, stored_at: DEC + 20 },
        { id: 2, stored_at: DEC + 30 },
      ])
      expect(db.prepare('SELECT id, stored_at FROM events ORDER BY id').all()).toEqual([
        { id: 'e-lone', stored_at: DEC - 5 },
        { id: 'e-sim', stored_at: DEC + 10 },
      ])
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('requests', 'events')").pluck().all()
      expect(indexes).toEqual(expect.arrayContaining(['requests_by_stored_at', 'events_by_stored_at']))
    } finally {
      db.close()
    }
  })
})
