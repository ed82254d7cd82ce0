// Exports of a scenario run on a virtual clock (its clock starts on 2026-01-05, months before now):
// a HAR entry's startedDateTime stays the scenario's time (what a replay of the scenario expects),
// and is marked as a simulation's time with the wall time beside it; a cURL script says the same.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportSelection } from '../../../electron/engine/exports'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { openDatabase, DATA_FILE_NAME, storeOfDatabase } from '../../../electron/engine/store'
import type { Har } from '../../../shared/contract'
import { parseScenario } from '../../../shared/scenario'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const temp = makeTempDir('hookloop-exports-clocks-')
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  const parsed = parseScenario(readFileSync(join(REPO_ROOT, 'examples/provider-a-fail-first-3.json'), 'utf8'))
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  expect((await runScenario(parsed.scenario, { dataDir: temp.dir })).ok).toBe(true)
}, 60_000)
afterAll(() => temp.cleanup())

describe('exports of a simulation', () => {
  it('mark each simulated time as such, with the wall time beside it', async () => {
    const db = openDatabase({ file: join(temp.dir, DATA_FILE_NAME) })
    try {
      const requestIds = db.prepare('SELECT id FROM requests ORDER BY id').pluck().all() as number[]
      const deliveryIds = db.prepare('SELECT id FROM deliveries ORDER BY id').pluck().all() as number[]
      const simulation = db.prepare('SELECT id FROM simulations').pluck().get() as string
      const har = JSON.parse(await exportSelection(storeOfDatabase(db), { format: 'har', requestIds, deliveryIds, now: Date.now() })) as Har
      expect(har.log.entries.length).toBeGreaterThanOrEqual(4)
      for (const entry of har.log.entries) {
        expect(entry.startedDateTime.startsWith('2026-01-05T09:')).toBe(true)
        expect(entry._hookloop).toMatchObject({ simulation_id: simulation, wall_at: expect.stringMatching(new RegExp(`^${today}T`)) })
        expect(entry.comment).toContain(`time on simulation ${simulation}'s clock, not a wall date; at ${today}T`)
      }
      const script = await exportSelection(storeOfDatabase(db), { format: 'curl', requestIds: [], deliveryIds, now: Date.now() })
      const described = script.split('\n').filter((line) => line.startsWith('# attempt '))
      expect(described).toHaveLength(4)
      for (const line of described) expect(line).toContain(`not a wall date; at ${today}T`)
    } finally {
      db.close()
    }
  })
})
