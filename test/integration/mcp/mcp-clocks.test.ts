// hookloop mcp over a folder a scenario run on a virtual clock filled (its clock starts on
// 2026-01-05, months before now): an agent reads the run's times as time into the run, marked
// simulated, with the wall times beside them, never as dates (docs/time.md).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { parseScenario } from '../../../shared/scenario'
import { REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { startMcp, type McpSession } from './support'

const temp = makeTempDir('hookloop-mcp-clocks-')
let mcp: McpSession
const today = new Date().toISOString().slice(0, 10)

beforeAll(async () => {
  const parsed = parseScenario(readFileSync(join(REPO_ROOT, 'examples/provider-a-fail-first-3.json'), 'utf8'))
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  expect((await runScenario(parsed.scenario, { dataDir: temp.dir })).ok).toBe(true)
  mcp = await startMcp(['--data', temp.dir])
}, 60_000)
afterAll(async () => {
  await mcp?.close()
  temp.cleanup()
})

describe('times an agent reads of a simulation', () => {
  it('list_rows, show_delivery and show_request give simulated times as time into the run, the wall times beside them', async () => {
    const { rows } = await mcp.json<{ rows: Array<Record<string, unknown> & { kind: string; deliveryId?: number; marks: Array<{ at: string; wallAt?: string }> }> }>('list_rows', {})
    const row = rows.find((r) => r.kind === 'delivery')!
    expect(row).toMatchObject({ firstAt: '+0 m 00 s into the run (simulated)', lastAt: '+14 m 00 s into the run (simulated)', clock: { kind: 'simulated' } })
    expect(row.firstWallAt).toMatch(new RegExp(`^${today}T`))
    expect(row.marks.map((m) => m.at)).toEqual(['+0 m 00 s', '+2 m 00 s', '+6 m 00 s', '+14 m 00 s'].map((t) => `${t} into the run (simulated)`))
    for (const m of row.marks) expect(m.wallAt).toMatch(new RegExp(`^${today}T`))
    expect(JSON.stringify(row)).not.toContain('2026-01-05')

    const delivery = await mcp.json<{ attempts: Array<{ startedAt: string; startedWallAt: string; requestId: number }> }>('show_delivery', { id: row.deliveryId })
    expect(delivery.attempts[3]).toMatchObject({ startedAt: '+14 m 00 s into the run (simulated)', startedWallAt: expect.stringMatching(new RegExp(`^${today}T`)) })
    const request = await mcp.json<{ receivedAt: string; storedAt: string }>('show_request', { id: delivery.attempts[3]!.requestId })
    expect(request.receivedAt).toBe('+14 m 00 s into the run (simulated)')
    expect(request.storedAt).toMatch(new RegExp(`^${today}T`))
  })
})
