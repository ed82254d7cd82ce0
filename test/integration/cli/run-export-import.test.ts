// A support round trip through the built CLI: a scenario run kept in a data folder, exported as
// HAR, imported back as a scenario, and run again. Each exchange is in the file once (a loop
// attempt and the request it made are one exchange), the run's own export imports, `export --out`
// says what it wrote, and `import` counts expectations as `run` does.
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Har } from '../../../shared/contract'
import { runCli, REPO_ROOT } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const EXAMPLE = join(REPO_ROOT, 'examples/provider-a-fail-first-3.json')
const SECRET = (JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { endpoints: { secrets: string[] }[] }).endpoints[0]!.secrets[0]!

let temp: ReturnType<typeof makeTempDir>
let har: string
let exportStdout: string
beforeAll(async () => {
  temp = makeTempDir('hookloop-roundtrip-')
  const ran = await runCli(['run', EXAMPLE, '--data', join(temp.dir, 'run')])
  expect(ran.code, ran.stdout + ran.stderr).toBe(0)
  har = join(temp.dir, 'out', 'run.har')
  const exported = await runCli(['export', '--data', join(temp.dir, 'run'), '--format', 'har', '--all', '--out', har])
  expect(exported.code, exported.stderr).toBe(0)
  exportStdout = exported.stdout
})
afterAll(() => temp?.cleanup())

describe("a run's HAR export", () => {
  it('holds each exchange once: the loop attempt and the request it made are one entry with both sides', () => {
    const entries = (JSON.parse(readFileSync(har, 'utf8')) as Har).log.entries
    // Four attempts of one delivery, each captured by the run's own endpoint: four exchanges.
    expect(entries).toHaveLength(4)
    expect(entries.map((e) => e._hookloop)).toEqual(
      [1, 2, 3, 4].map((n) =>
        expect.objectContaining({
          source: 'request',
          endpoint: 'clinic',
          attempt: n,
          delivery_id: 1,
          event_id: '550e8400-e29b-41d4-a716-446655440000',
          outcome: n < 4 ? 'http_503' : 'http_200',
          attempt_outcome: n < 4 ? 'http_503' : 'http_200',
          duplicate_number: n,
          verify: { valid: true, reason: 'ok' },
          // The run's clock is a simulation's: each entry says so, with the wall time beside.
          simulation_id: expect.any(String),
          wall_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        }),
      ),
    )
    const { simulation_id: simulationId, wall_at: wallAt } = entries[0]!._hookloop!
    expect(entries[0]!.comment).toBe(`request 1 (delivery 1 attempt 1): http_503 (time on simulation ${simulationId}'s clock, not a wall date; at ${wallAt} on the wall)`)
  })

  it('export --out says what it wrote: the file, what it holds, its size', () => {
    const size = statSync(har).size
    expect(size).toBeGreaterThan(1000)
    expect(exportStdout).toMatch(new RegExp(`^wrote ${har.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(HAR 1\\.2\\): 4 requests, 1 delivery, \\d+(\\.\\d)? kB, secrets redacted\\n$`))
    const kb = Number(/, ([\d.]+) kB/.exec(exportStdout)![1])
    expect(Math.abs(kb * 1000 - size)).toBeLessThan(100)
  })

  it('imports back as a scenario that passes, and import counts its expectations as run does', async () => {
    const out = join(temp.dir, 'out', 'again.json')
    const made = await runCli(['import', har, '--as-scenario', out])
    expect(made.code, made.stderr).toBe(0)
    const counted = /^wrote .*: 1 event, 3 resends, (\d+) expectations$/m.exec(made.stdout)
    expect(counted, made.stdout).not.toBeNull()

    const ran = await runCli(['run', out, '--data', join(temp.dir, 'again'), '--secret', `HOOKLOOP_SECRET_CLINIC=${SECRET}`])
    expect(ran.code, ran.stdout + ran.stderr).toBe(0)
    // The resends arrive as dup #2 … #4 and answer 503, 503, 503, 200, as the run's own did.
    expect(ran.stdout).toContain('r1 → replay-clinic (resend #3): outcomes = ["http_200"]')
    expect(ran.stdout).toContain('endpoint clinic: request 4: duplicate = 4')
    const total = /PASS: (\d+) of (\d+) expectations hold/.exec(ran.stdout)
    expect(total?.[1]).toBe(counted![1])

    const json = await runCli(['import', har, '--as-scenario', out, '--force', '--json'])
    expect(JSON.parse(json.stdout)).toMatchObject({ events: 1, resends: 3, expectations: Number(counted![1]) })
  })
})
