// A scenario run's rows in a data folder survive the next engine started on that folder. The run
// is stamped on its virtual clock (examples/provider-a-fail-first-3.json starts on 2026-01-05),
// months before now: ages are judged by when a row was stored (wall time), never by a
// simulation's clock (docs/time.md).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { parseScenario } from '../../../shared/scenario'
import { useTempDir } from '../../support/use-temp-dir'

const REPO_ROOT = join(__dirname, '../../..')

describe('retention after a scenario run', () => {
  const temp = useTempDir()

  it('keeps every row of a run on a virtual clock months in the past when the folder is opened again', async () => {
    const parsed = parseScenario(readFileSync(join(REPO_ROOT, 'examples/provider-a-fail-first-3.json'), 'utf8'))
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    const report = await runScenario(parsed.scenario, { dataDir: temp.dir })
    expect(report.ok).toBe(true)

    // The next start on the folder, as `hookloop listen` or `serve` does: the real clock, the
    // default retention (30 days), applied at once.
    const engine = await createEngine({ dataDir: temp.dir, receiver: { host: '127.0.0.1', port: 0 } })
    try {
      const count = (table: string) => engine.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number
      const before = { requests: count('requests'), deliveries: count('deliveries'), attempts: count('attempts'), events: count('events') }
      expect(before).toEqual({ requests: 4, deliveries: 1, attempts: 4, events: 1 })
      // The run's requests are on its clock, long before the 30 days the retention keeps.
      const oldest = engine.db.prepare('SELECT min(received_at) FROM requests').pluck().get() as number
      expect(oldest).toBeLessThan(Date.now() - 31 * 86_400_000)

      const pruned = await engine.retention.apply()
      expect(pruned).toMatchObject({ deleted: 0, deliveries: 0, attempts: 0, events: 0 })
      expect({ requests: count('requests'), deliveries: count('deliveries'), attempts: count('attempts'), events: count('events') }).toEqual(before)
      // The size view's "oldest" is the oldest row's wall time, not a simulated date.
      expect((await engine.retention.size()).oldestAt).toBeGreaterThan(Date.now() - 86_400_000)
    } finally {
      await engine.close()
    }
  })
})
