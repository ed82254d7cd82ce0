// `hookloop requests` and `hookloop deliveries` over a folder a scenario run on a virtual clock
// filled (examples/provider-a-fail-first-3.json: its clock starts on 2026-01-05, months before
// now). `--since` reads the wall time a row was stored, so the run's rows are "the last hour";
// their own times are simulated, shown as time into the run beside the wall time, never as a date.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DeliveryListRow, RequestListRow } from '../../../electron/engine/store/list-reads'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { parseScenario } from '../../../shared/scenario'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

let temp: ReturnType<typeof makeTempDir>
let startedWall: number

beforeAll(async () => {
  temp = makeTempDir('hookloop-lists-simulated-')
  const parsed = parseScenario(readFileSync(join(REPO_ROOT, 'examples/provider-a-fail-first-3.json'), 'utf8'))
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  startedWall = Date.now()
  expect((await runScenario(parsed.scenario, { dataDir: temp.dir })).ok).toBe(true)
}, 60_000)
afterAll(() => temp.cleanup())

async function list<Row>(command: 'requests' | 'deliveries', ...args: string[]): Promise<Row[]> {
  const result = await runCli([command, '--data', temp.dir, '--json', ...args])
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return (JSON.parse(result.stdout) as Record<string, Row[]>)[command]!
}

describe('lists of a simulation’s rows', () => {
  it('--since finds a run stored in the last hour, though its own clock is months back', async () => {
    const requests = await list<RequestListRow>('requests', '--since', '1h')
    expect(requests).toHaveLength(4)
    for (const r of requests) {
      expect(r.receivedAt).toBeLessThan(Date.parse('2026-01-06T00:00:00Z'))
      expect(r.storedAt).toBeGreaterThanOrEqual(startedWall - 1000)
      expect(r.simulationId).not.toBeNull()
      expect(r.simulationStartedAt).toBe(Date.parse('2026-01-05T09:00:00Z'))
    }
    const deliveries = await list<DeliveryListRow>('deliveries', '--since', '1h')
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]!.simulationStartedAt).toBe(Date.parse('2026-01-05T09:00:00Z'))
  })

  it('prints the wall time a row was stored, and its simulated time as time into the run, never as a date', async () => {
    const table = await runCli(['requests', '--data', temp.dir])
    expect(table.code).toBe(0)
    const lines = table.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STORED\s+.*\s+CLOCK$/)
    // Newest stored first: the fourth attempt landed 14 min into the run (0, +2, +4, +8 min).
    expect(lines.slice(1).map((line) => /simulated ([+−][^(]+) \(simulation /.exec(line)?.[1]?.trim())).toEqual(['+14 m 00 s', '+6 m 00 s', '+2 m 00 s', '+0 m 00 s'])
    const today = new Date().toISOString().slice(0, 10)
    for (const line of lines.slice(1)) {
      expect(line).toContain(`${today}T`)
      expect(line).not.toContain('2026-01-05')
    }
    const deliveries = await runCli(['deliveries', '--data', temp.dir])
    const row = deliveries.stdout.trimEnd().split('\n')[1]!
    expect(row).toContain(`${today}T`)
    expect(row).toMatch(/simulated \+0 m 00 s \(simulation [0-9a-f-]+\)$/)
    expect(row).not.toContain('2026-01-05')
  })
})
