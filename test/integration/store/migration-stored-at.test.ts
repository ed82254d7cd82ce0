// Schema 14 on a store written before it (at schema 12), on a real SQLite file and on a real
// PostgreSQL: each request and event gets the wall time it was stored. Real traffic was stamped on
// the wall clock; a request of the loop was stored when its attempt started on the wall; an event
// with its first delivery. The request counters (schema 12) are not moved by the backfill.
import { describe, expect, it } from 'vitest'
import { MIGRATIONS, migratePostgres, openDatabase, openPostgresEngine, postgresSchemaVersion, schemaVersion } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { storeWrittenAt } from './support'

const JAN = Date.UTC(2026, 0, 5, 9) // a simulation's clock
const DEC = Date.UTC(2026, 11, 4, 13) // the wall

// One statement a line: the PostgreSQL engine runs them one by one.
const ROWS_BEFORE = [
  `INSERT INTO endpoints (id, slug, name, created_at) VALUES ('ep', 'clinic', 'Clinic', 1)`,
  `INSERT INTO simulations (id, mode, scale, started_at, started_wall_at, label) VALUES ('sim', 'virtual', 1, ${JAN}, ${DEC}, 'scenario x')`,
  `INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 'shop', '', 'stripe', '{}', 1, 1)`,
  `INSERT INTO events (id, event_type, payload, created_at) VALUES ('e-sim', 'booking.created', X'7B7D', ${JAN})`,
  `INSERT INTO events (id, event_type, payload, created_at) VALUES ('e-lone', 'booking.created', X'7B7D', ${DEC - 5})`,
  `INSERT INTO deliveries (id, event_id, subscription_id, status, created_at, updated_at, simulation_id, created_wall_at) VALUES (1, 'e-sim', 's', 'succeeded', ${JAN}, ${JAN}, 'sim', ${DEC + 10})`,
  `INSERT INTO attempts (id, delivery_id, n, started_at, started_wall_at, outcome, decision) VALUES (5, 1, 1, ${JAN}, ${DEC + 20}, 'http_200', 'succeeded')`,
  `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size, attempt_id) VALUES (1, 'ep', ${JAN}, 'POST', '/e/clinic', '[]', 0, 5)`,
  `INSERT INTO requests (id, endpoint_id, received_at, method, path, headers_json, body_size) VALUES (2, 'ep', ${DEC + 30}, 'POST', '/e/clinic', '[]', 0)`,
]

const STORED_REQUESTS = [
  { id: 1, stored_at: DEC + 20 },
  { id: 2, stored_at: DEC + 30 },
]
const STORED_EVENTS = [
  { id: 'e-lone', stored_at: DEC - 5 },
  { id: 'e-sim', stored_at: DEC + 10 },
]
const COUNTERS = 'SELECT endpoint_key, requests, received_rows FROM request_counts WHERE requests > 0 ORDER BY endpoint_key'
const EXPECTED_COUNTERS = [{ endpoint_key: 'ep', requests: 2, received_rows: 1 }]

describe('migration 14: stored_at', () => {
  const temp = useTempDir()
  const postgres = usePostgres()

  it('backfills stored_at from the wall times a SQLite store already holds', () => {
    const file = storeWrittenAt(temp.dir, 12, ROWS_BEFORE.map((s) => `${s};`).join('\n'))

    const db = openDatabase({ file })
    try {
      expect(schemaVersion(db)).toBeGreaterThanOrEqual(14)
      expect(db.prepare('SELECT id, stored_at FROM requests ORDER BY id').all()).toEqual(STORED_REQUESTS)
      expect(db.prepare('SELECT id, stored_at FROM events ORDER BY id').all()).toEqual(STORED_EVENTS)
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('requests', 'events')").pluck().all()
      expect(indexes).toEqual(expect.arrayContaining(['requests_by_stored_at', 'events_by_stored_at']))
      expect(db.prepare(COUNTERS).all()).toEqual(EXPECTED_COUNTERS)
    } finally {
      db.close()
    }
  })

  it('backfills the same on a PostgreSQL store at schema 12', async () => {
    const engine = await openPostgresEngine({ url: await postgres.freshDatabase() })
    try {
      await migratePostgres(engine, MIGRATIONS.filter((m) => m.version <= 12))
      expect(await postgresSchemaVersion(engine)).toBe(12)
      for (const statement of ROWS_BEFORE) await engine.exec(statement.replace("X'7B7D'", "'\\x7b7d'::bytea"))
      expect(await engine.all(COUNTERS)).toEqual(EXPECTED_COUNTERS)

      await migratePostgres(engine)
      expect(await postgresSchemaVersion(engine)).toBeGreaterThanOrEqual(14)
      expect(await engine.all('SELECT id, stored_at FROM requests ORDER BY id')).toEqual(STORED_REQUESTS)
      expect(await engine.all('SELECT id, stored_at FROM events ORDER BY id')).toEqual(STORED_EVENTS)
      const indexes = await engine.all("SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('requests', 'events')")
      expect(indexes.map((i) => (i as { name: string }).name)).toEqual(expect.arrayContaining(['requests_by_stored_at', 'events_by_stored_at']))
      expect(await engine.all(COUNTERS)).toEqual(EXPECTED_COUNTERS)
    } finally {
      await engine.close()
    }
  })
})
