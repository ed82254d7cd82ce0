// The reads behind /readyz and the due-queue metrics (store/health-reads.ts) on a real SQLite file
// and a real PostgreSQL: the probe statement answers, and the queue counts the wall clock's
// deliveries due by now — not a running simulation's, not one with an attempt in flight, not one
// due later — with the earliest due time among them.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createHealthReads, createSqliteEngine, openDatabase, openStore, parseStoreLocation, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()

async function seed(engine: SqlEngine): Promise<void> {
  await engine.run(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'standard-webhooks', '[]', '{}', 0, 0)`)
  await engine.run(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e', 't', ?, 0)`, [Buffer.from('{}')])
  await engine.run(`INSERT INTO simulations (id, mode, scale, started_at, started_wall_at, label, owner) VALUES ('sim', 'virtual', 1, 0, 0, 'run', 'elsewhere:1:x')`)
  const rows: [number | null, number, string | null][] = [
    [4_000, 0, null], // due, the oldest
    [7_000, 0, null], // due
    [9_000, 0, null], // due
    [2_000, 0, 'sim'], // a running simulation's: its own clock
    [null, 1, null], // an attempt in flight
    [50_000, 0, null], // due later
  ]
  for (const [at, inFlight, simulation] of rows) {
    await engine.run(
      `INSERT INTO deliveries (event_id, subscription_id, status, next_attempt_at, in_flight, created_at, updated_at, created_wall_at, simulation_id) VALUES ('e', 's', 'pending', ?, ?, 0, 0, 0, ?)`,
      [at, inFlight, simulation],
    )
  }
}

async function storeOf(kind: StoreKind): Promise<SqlEngine> {
  if (kind === 'sqlite') return createSqliteEngine(openDatabase({ file: join(temp.dir, 'hookloop.db'), notice: () => undefined }))
  const store = await openStore(parseStoreLocation(await postgres.freshDatabase()), { notice: () => undefined, withoutSecrets: true })
  return store.engine
}

describe.each(['sqlite', 'postgres'] as const)('the health reads on %s', (kind) => {
  it('answer the probe and count the wall clock’s due deliveries with the oldest due time', async () => {
    const engine = await storeOf(kind)
    try {
      const health = createHealthReads(engine)
      await health.ping()
      expect(await health.dueQueue(10_000)).toEqual({ due: 0, oldestDueAt: null })
      await seed(engine)
      expect(await health.dueQueue(10_000)).toEqual({ due: 3, oldestDueAt: 4_000 })
      expect(await health.dueQueue(5_000)).toEqual({ due: 1, oldestDueAt: 4_000 })
      expect(await health.dueQueue(1_000)).toEqual({ due: 0, oldestDueAt: null })
    } finally {
      await engine.close()
    }
  })

  it('the probe fails once the store is gone', async () => {
    const engine = await storeOf(kind)
    const health = createHealthReads(engine)
    await engine.close()
    await expect(health.ping()).rejects.toThrow()
  })
})
