// A scenario run on a virtual clock is a simulation (docs/time.md): its store (here --data's
// folder, kept) records it as `scenario <name>`, and every delivery it made carries it, so a
// timeline reading that store puts them on the run's own clock.
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import { DATA_FILE_NAME } from '../../../electron/engine/store/data-file'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { useTempDir } from '../../support/use-temp-dir'
import { createSqliteEngine } from '../../../electron/engine/store'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

describe('a scenario run is a simulation', () => {
  const temp = useTempDir()

  it('records the run with its label and clock, and its deliveries read on that clock', async () => {
    const parsed = validateScenario({
      version: 1,
      name: 'checkout retries',
      clock: { mode: 'virtual', start: '2026-01-05T09:00:00Z' },
      endpoints: [{ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'pandoktorek', rules: [{ preset: 'fail-first', n: 1 }] }],
      subscriptions: [{ id: 'a', endpoint: 'shop', policy: 'pandoktorek', event_id_header: 'X-Pandoktorek-Event-Id' }],
      events: [{ id: 'order', type: 'order.paid', payload: { n: 1 } }],
      expect: { deliveries: [{ event: 'order', status: 'succeeded', attempts: 2 }] },
    })
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
    const before = Date.now()
    const report = await runScenario(parsed.scenario, { dataDir: temp.dir })
    const after = Date.now()
    expect(report.ok).toBe(true)

    const db = new BetterSqlite3(join(temp.dir, DATA_FILE_NAME), { readonly: true })
    try {
      const simulations = db.prepare('SELECT id, mode, scale, started_at, label FROM simulations').all() as { id: string; mode: string; scale: number; started_at: number; label: string }[]
      expect(simulations).toHaveLength(1)
      const run = simulations[0]!
      expect(run).toMatchObject({ mode: 'virtual', scale: 1, started_at: Date.parse('2026-01-05T09:00:00Z'), label: 'scenario checkout retries' })
      const ids = db.prepare('SELECT id FROM deliveries WHERE simulation_id = ?').pluck().all(run.id) as number[]
      expect(ids).toHaveLength(1)
      const row = await createTimelineViews(createSqliteEngine(db, { closeDatabase: false })).deliveryRow(ids[0]!)
      expect(row?.clock).toEqual({ kind: 'simulated', simulationId: run.id, mode: 'virtual', startedAt: run.started_at })
      // Scenario time from the fixed start; the wall time of each attempt beside it.
      expect(row?.marks.map((m) => m.at - run.started_at)).toEqual([0, 2 * 60_000])
      for (const mark of row?.marks ?? []) {
        expect(mark.wallAt).toBeGreaterThanOrEqual(before)
        expect(mark.wallAt).toBeLessThanOrEqual(after)
      }
    } finally {
      db.close()
    }
  })
})
