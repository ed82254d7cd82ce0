// Batch claims of due deliveries (store/delivery-claims.ts) on a real SQLite file and a real
// PostgreSQL: four claimers on four connections at once drain every due delivery, each taken by
// exactly one of them; deliveries of a running simulation and those with an attempt in flight are
// left alone. `claimEach` (the sender's claims, several in one statement): four claimers asking
// for the same deliveries at once, each in its own order, take each exactly once, and never one
// that moved or has an attempt in flight.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claimDue, claimEach, MAX_CLAIMS_PER_STATEMENT, createSqliteEngine, openDatabase, openPostgresEngine, openStore, parseStoreLocation, type SqlEngine, type StoreKind } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const DUE = 2000
const SIMULATED = 150
const IN_FLIGHT = 50

async function seed(engine: SqlEngine): Promise<void> {
  await engine.run(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'standard-webhooks', '[]', '{}', 0, 0)`)
  await engine.run(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e', 't', ?, 0)`, [Buffer.from('{}')])
  await engine.run(`INSERT INTO simulations (id, mode, scale, started_at, started_wall_at, label, owner) VALUES ('sim', 'virtual', 1, 0, 0, 'run', 'elsewhere:1:x')`)
  await engine.transaction(async (tx) => {
    for (let i = 0; i < DUE + SIMULATED + IN_FLIGHT; i++) {
      const simulated = i >= DUE && i < DUE + SIMULATED
      const inFlight = i >= DUE + SIMULATED
      await tx.run(
        `INSERT INTO deliveries (event_id, subscription_id, status, next_attempt_at, in_flight, created_at, updated_at, created_wall_at, simulation_id) VALUES ('e', 's', 'pending', ?, ?, 0, 0, 0, ?)`,
        [inFlight ? null : 1000 + (i % 97), inFlight ? 1 : 0, simulated ? 'sim' : null],
      )
    }
  })
}

async function claimers(kind: StoreKind, n: number): Promise<SqlEngine[]> {
  if (kind === 'sqlite') {
    const file = join(temp.dir, 'hookloop.db')
    const first = createSqliteEngine(openDatabase({ file, notice: () => undefined }))
    await seed(first)
    return [first, ...Array.from({ length: n - 1 }, () => createSqliteEngine(openDatabase({ file, notice: () => undefined })))]
  }
  const url = await postgres.freshDatabase()
  const store = await openStore(parseStoreLocation(url), { notice: () => undefined, withoutSecrets: true })
  await seed(store.engine)
  return [store.engine, ...(await Promise.all(Array.from({ length: n - 1 }, () => openPostgresEngine({ url }))))]
}

describe.each(['sqlite', 'postgres'] as const)('claiming due deliveries in batches on %s', (kind) => {
  it('four claimers at once take every due delivery exactly once, and leave a running simulation and attempts in flight alone', async () => {
    const engines = await claimers(kind, 4)
    try {
      const taken = await Promise.all(
        engines.map(async (engine, k) => {
          const mine: number[] = []
          for (;;) {
            const ids = await claimDue(engine, { owner: `claimer-${k}`, now: 10_000, leaseUntil: Date.now() + 60_000, clock: null, limit: 25 })
            if (ids.length === 0) return mine
            mine.push(...ids)
          }
        }),
      )
      const all = taken.flat()
      expect(all).toHaveLength(DUE)
      expect(new Set(all).size).toBe(DUE)
      expect(taken.filter((mine) => mine.length > 0).length).toBeGreaterThan(1)
      const owners = await engines[0]!.all<{ claimed_by: string; n: number }>('SELECT claimed_by, count(*) AS n FROM deliveries WHERE claimed_by IS NOT NULL GROUP BY claimed_by ORDER BY claimed_by')
      expect(owners).toEqual(taken.map((mine, k) => ({ claimed_by: `claimer-${k}`, n: mine.length })).filter((o) => o.n > 0))
      expect(await engines[0]!.get('SELECT count(*) AS n FROM deliveries WHERE simulation_id = ? AND next_attempt_at IS NOT NULL AND in_flight = 0', ['sim'])).toEqual({ n: SIMULATED })
      // The simulation's own engine takes its deliveries.
      expect(await claimDue(engines[1]!, { owner: 'sim-engine', now: 10_000, leaseUntil: Date.now() + 60_000, clock: 'sim', limit: 1000 })).toHaveLength(SIMULATED)
      expect(await engines[0]!.get('SELECT count(*) AS n FROM deliveries WHERE in_flight = 1 AND claimed_by IS NULL')).toEqual({ n: IN_FLIGHT })
    } finally {
      for (const engine of engines) await engine.close()
    }
  })
})

describe.each(['sqlite', 'postgres'] as const)('claiming named deliveries several in one statement (claimEach) on %s', (kind) => {
  it('four claimers asking for the same deliveries at once, in different orders, take each exactly once; a moved row or one in flight is taken by none', async () => {
    const engines = await claimers(kind, 4)
    try {
      const due = await engines[0]!.all<{ id: number; next_attempt_at: number }>('SELECT id, next_attempt_at FROM deliveries WHERE simulation_id IS NULL AND in_flight = 0 ORDER BY id')
      const inFlight = await engines[0]!.all<{ id: number }>('SELECT id FROM deliveries WHERE in_flight = 1 ORDER BY id LIMIT 20')
      // A claimer whose scheduler read an older due time than the row now has: not claimed.
      const moved = new Set(due.filter((_, i) => i % 10 === 3).map((d) => d.id))
      const entries = [
        ...due.map((d) => ({ id: d.id, dueAt: moved.has(d.id) ? d.next_attempt_at - 1 : d.next_attempt_at, leaseUntil: 1_000_000 + d.id })),
        ...inFlight.map((d) => ({ id: d.id, dueAt: 1000, leaseUntil: 1 })),
      ]
      const orders = engines.map((_, k) => [...entries].sort((a, b) => ((a.id * (k + 3)) % 101) - ((b.id * (k + 3)) % 101) || a.id - b.id))
      const taken = await Promise.all(
        engines.map(async (engine, k) => {
          const mine: number[] = []
          const order = orders[k]!
          for (let i = 0; i < order.length; i += MAX_CLAIMS_PER_STATEMENT) mine.push(...(await claimEach(engine, `claimer-${k}`, order.slice(i, i + MAX_CLAIMS_PER_STATEMENT))))
          return mine
        }),
      )
      const all = taken.flat()
      expect(all).toHaveLength(due.length - moved.size)
      expect(new Set(all).size).toBe(all.length)
      for (const id of all) expect(moved.has(id)).toBe(false)
      expect(taken.filter((mine) => mine.length > 0).length).toBeGreaterThan(1)
      // Each row is its claimer's, with its own lease, and unscheduled.
      const rows = await engines[0]!.all<{ id: number; claimed_by: string; lease_until: number; next_attempt_at: number | null }>(
        'SELECT id, claimed_by, lease_until, next_attempt_at FROM deliveries WHERE claimed_by IS NOT NULL ORDER BY id',
      )
      const ownerOf = new Map(taken.flatMap((mine, k) => mine.map((id) => [id, `claimer-${k}`] as const)))
      expect(rows).toEqual([...ownerOf.keys()].sort((a, b) => a - b).map((id) => ({ id, claimed_by: ownerOf.get(id), lease_until: 1_000_000 + id, next_attempt_at: null })))
      // The moved rows are still due, for whoever reads their current due time.
      const [first] = [...moved]
      const current = await engines[0]!.get<{ next_attempt_at: number }>('SELECT next_attempt_at FROM deliveries WHERE id = ?', [first])
      expect([...(await claimEach(engines[1]!, 'late', [{ id: first!, dueAt: current!.next_attempt_at, leaseUntil: 5 }]))]).toEqual([first])
      await expect(claimEach(engines[1]!, 'twice', [{ id: 1, dueAt: 1, leaseUntil: 1 }, { id: 1, dueAt: 1, leaseUntil: 1 }])).rejects.toThrow(/twice/)
    } finally {
      for (const engine of engines) await engine.close()
    }
  })
})
