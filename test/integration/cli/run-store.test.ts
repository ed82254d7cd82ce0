// `hookloop run` on a team's PostgreSQL (--store postgres://…, or $HOOKLOOP_STORE), as CI runs it
// (the built CLI): a passing and a failing scenario say the same and exit the same as on a data
// folder; two runs of one scenario at once on one database both pass, each judging its own rows;
// every row of the store is the same after a run as before it, a dead process's claim included
// (the run's own rows are tagged while it runs, and removed when it ends); a store
// that does not answer is one line, its password never shown; a file with a fixed event id runs
// again and again, and is refused before it makes anything while the store holds that id. And --store DIR runs as --data DIR.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScenarioReport } from '../../../shared/scenario'
import { openStore, parseStoreLocation, type SqlEngine } from '../../../electron/engine/store'
import { seedTeamStore } from '../../support/team-store-seed'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'
import { EXAMPLES, runCli, type CliResult } from './support'

const postgres = usePostgres()
const temp = useTempDir('hookloop-run-store-')
const CSKU = join(EXAMPLES, 'provider-b-csku.json')

/** A CI job's environment: the team's data key, no store named unless given. */
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  HOOKLOOP_STORE: '',
  HOOKLOOP_DATA: '',
  HOOKLOOP_SECRET_KEY: '',
  HOOKLOOP_SECRET_KEY_FILE: join(temp.dir, 'team.key'),
  ...extra,
})

/** The summary without what differs from run to run on any store: event ids, ports, wall time, the run's tag, delivery ids. */
const summary = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<event id>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/ in \d+ ms\./g, ' in <wall> ms.')
    .replace(/-run-[0-9a-f]{8}/g, '')
    .replace(/delivery \d+/g, 'delivery <id>')

/** A scenario file in the temp folder: the example with `change` applied. */
function scenarioFile(name: string, change: (scenario: Record<string, unknown>) => void): string {
  const scenario = JSON.parse(readFileSync(CSKU, 'utf8')) as Record<string, unknown>
  change(scenario)
  const file = join(temp.dir, name)
  writeFileSync(file, JSON.stringify(scenario))
  return file
}

/** One scenario expectation made false: the delivery really succeeds. */
const failing = () =>
  scenarioFile('csku-fails.json', (scenario) => {
    ;(scenario.expect as { deliveries: { status: string }[] }).deliveries[0]!.status = 'failed'
  })

/** A new team database, migrated with the team's data key (as the team's first `serve` leaves it). */
async function teamDatabase(): Promise<string> {
  const url = await postgres.freshDatabase()
  const opened = await openStore(parseStoreLocation(url), { notice: () => undefined, postgresKey: { file: join(temp.dir, 'team.key') } })
  await opened.engine.close()
  return url
}

const runOn = (store: string[], file: string, extra: string[] = [], environment = env()): Promise<CliResult> => runCli(['run', file, ...store, ...extra], { env: environment })

describe('hookloop run --store postgres://…', () => {
  it('a passing and a failing scenario print and exit as on a data folder, JSON reports alike', async () => {
    const team = await teamDatabase()
    for (const [file, code] of [
      [CSKU, 0],
      [failing(), 1],
    ] as const) {
      const onFolder = await runOn([], file)
      const onTeam = await runOn(['--store', team], file)
      expect(onTeam.stderr).toBe(onFolder.stderr)
      expect([onFolder.code, onTeam.code]).toEqual([code, code])
      expect(summary(onTeam.stdout)).toBe(summary(onFolder.stdout))
      expect(onTeam.stdout).toContain(code === 0 ? 'PASS' : 'FAIL')

      const folderJson = JSON.parse((await runOn([], file, ['--json'])).stdout) as ScenarioReport
      const teamJson = JSON.parse((await runOn(['--store', team], file, ['--json'])).stdout) as ScenarioReport
      expect(teamJson.expectations).toEqual(folderJson.expectations)
      expect(teamJson.ok).toBe(code === 0)
      expect(teamJson.deliveries.map((d) => d.attempts.map((a) => [a.at_ms, a.outcome, a.signature, a.duplicate]))).toEqual(
        folderJson.deliveries.map((d) => d.attempts.map((a) => [a.at_ms, a.outcome, a.signature, a.duplicate])),
      )
      expect(teamJson.endpoints).toEqual(folderJson.endpoints)
    }
  })

  it('two runs of one scenario at once on one database both pass, each seeing only its own requests', async () => {
    const team = await teamDatabase()
    const [a, b] = await Promise.all([runOn(['--store', team], CSKU, ['--json']), runOn(['--store', team], CSKU, ['--json'])])
    expect([a.code, b.code]).toEqual([0, 0])
    const reports = [a, b].map((r) => JSON.parse(r.stdout) as ScenarioReport)
    for (const report of reports) {
      expect(report.ok).toBe(true)
      expect(report.endpoints).toEqual([{ slug: 'cs-inbox', requests: 3, duplicates_flagged: 2, signatures: { ok: 3 } }])
    }
    const requestIds = reports.map((r) => new Set(r.deliveries.flatMap((d) => d.attempts.map((at) => at.request_id))))
    expect([...requestIds[0]!].filter((id) => requestIds[1]!.has(id))).toEqual([])
    // Each run delivered to its own endpoint.
    const urls = reports.map((r) => r.deliveries[0]!.url)
    expect(urls[0]).not.toBe(urls[1])
  })

  it('leaves every row of the team’s store as it was, even where the scenario’s endpoint and subscription share the team’s names', async () => {
    const seed = await seedTeamStore(temp.dir, () => postgres.freshDatabase())
    try {
      // The seeded team has an endpoint and a subscription named "orders".
      const file = scenarioFile('orders.json', (scenario) => {
        ;(scenario.endpoints as { slug: string }[])[0]!.slug = 'orders'
        const subscription = (scenario.subscriptions as { id: string; endpoint: string }[])[0]!
        subscription.id = 'orders'
        subscription.endpoint = 'orders'
        ;(scenario.expect as { deliveries: { subscription?: string }[] }).deliveries[0]!.subscription = 'orders'
      })
      // A claim a dead team process left: the team's servers take it over, never a run.
      await seed.team.engine.run('UPDATE deliveries SET in_flight = 1, claimed_by = ?, lease_until = ? WHERE id = (SELECT MIN(id) FROM deliveries)', ['gone-host:999999:sender', 1])
      const before = await teamRows(seed.team.engine)
      const run = await runOn([], file, [], env({ HOOKLOOP_STORE: seed.teamUrl, HOOKLOOP_SECRET_KEY_FILE: seed.keyFile }))
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toContain('endpoint orders: 3 requests')
      // Once over, the run has removed what it made: every row is as it was, the counters too.
      expect(await teamRows(seed.team.engine)).toEqual(before)
    } finally {
      await seed.close()
    }
  })

  it('takes $HOOKLOOP_STORE when it is a postgres:// URL; --store names the store that does not answer in one line, password hidden', async () => {
    const team = await teamDatabase()
    const viaEnv = await runOn([], CSKU, ['--json'], env({ HOOKLOOP_STORE: team }))
    expect(viaEnv.stderr).toBe('')
    expect(viaEnv.code).toBe(0)
    // It ran on the team's store: its endpoint there carried the run's tag.
    expect((JSON.parse(viaEnv.stdout) as ScenarioReport).deliveries[0]!.url).toMatch(/\/h\/cs-inbox-run-[0-9a-f]{8}$/)

    const down = await runOn(['--store', 'postgres://hookloop:hunter2secret@127.0.0.1:1/team'], CSKU)
    expect(down.code).toBe(1)
    expect(down.stdout).toBe('')
    expect(down.stderr.trim().split('\n')).toHaveLength(1)
    expect(down.stderr).toMatch(/^hookloop: .*127\.0\.0\.1:1.*team/)
    expect(down.stderr).not.toContain('hunter2secret')
  })

  it('a file with a fixed event id runs again and again on one team store; while the store holds its id, a run is refused before it makes anything', async () => {
    const team = await teamDatabase()
    const byHand = join(EXAMPLES, 'provider-a-by-hand.json')
    // Each run removes its rows when it ends, its event among them.
    expect((await runOn(['--store', team], byHand)).code).toBe(0)
    expect((await runOn(['--store', team], byHand)).code).toBe(0)
    const engine = (await openStore(parseStoreLocation(team), { notice: () => undefined, withoutSecrets: true })).engine
    try {
      // Someone published an event with the file's id.
      await engine.run('INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES (?, ?, ?, ?, ?)', ['3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c', 'booking.created', Buffer.from('{}'), 1, 1])
      const before = await teamRows(engine)
      const refused = await runOn(['--store', team], byHand)
      expect(refused.code).toBe(1)
      expect(refused.stdout).toBe('')
      // After the file's own notice of the defaults it applied, one line.
      expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
        /^hookloop: the scenario could not run: event booking has the id 3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c, which postgres:\/\/hookloop@[^ ]+ holds already .*Run the file on a data folder of its own \(without --store\), or leave its event_id out/,
      )
      expect(await teamRows(engine)).toEqual(before)
    } finally {
      await engine.close()
    }
  })

  it('every example scenario, two at a time on one team store, gives the verdict it gives on a data folder', async () => {
    const team = await teamDatabase()
    const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.json'))
    expect(files.length).toBeGreaterThan(5)
    const verdict = (result: CliResult) => [result.code, result.stdout.trim().split('\n').at(-1)]
    // Two files at a time on each store: runs on the team's store at once, and no run's real-time
    // limit at stake on two cores.
    const onFolder: unknown[] = []
    const onTeam: unknown[] = []
    for (let i = 0; i < files.length; i += 2) {
      const pair = files.slice(i, i + 2)
      const [folder, teamRuns] = await Promise.all([
        Promise.all(pair.map(async (name) => verdict(await runOn([], join(EXAMPLES, name))))),
        Promise.all(pair.map(async (name) => verdict(await runOn(['--store', team], join(EXAMPLES, name))))),
      ])
      onFolder.push(...folder)
      onTeam.push(...teamRuns)
    }
    expect(Object.fromEntries(files.map((name, i) => [name, onTeam[i]]))).toEqual(Object.fromEntries(files.map((name, i) => [name, onFolder[i]])))
  }, 240_000)

  it('--store DIR runs as --data DIR', async () => {
    const withData = await runOn(['--data', join(temp.dir, 'by-data')], CSKU)
    const withStore = await runOn(['--store', join(temp.dir, 'by-store')], CSKU)
    expect([withData.code, withStore.code]).toEqual([0, 0])
    expect(summary(withStore.stdout)).toBe(summary(withData.stdout))
  })
})

const TABLES = ['endpoints', 'rules', 'subscriptions', 'requests', 'events', 'deliveries', 'attempts', 'forward_legs', 'request_schema_verdicts', 'request_counts', 'simulations', 'settings'] as const

/** Every row of the tables a run could touch, by table. */
async function teamRows(engine: SqlEngine): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {}
  for (const table of TABLES) {
    const rows = await engine.all<Record<string, unknown>>(`SELECT * FROM ${table}`)
    // settings are keyed by name, verdicts by request, counters by endpoint; every other table by id.
    const key = (row: Record<string, unknown>) => (table === 'settings' ? row.key : table === 'request_schema_verdicts' ? row.request_id : table === 'request_counts' ? row.endpoint_key : row.id)
    out[table] = rows.map((row) => ({ ...row, id: key(row) })).sort((a, b) => String(a.id).localeCompare(String(b.id)))
  }
  return out
}
