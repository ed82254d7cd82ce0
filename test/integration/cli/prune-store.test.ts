// `hookloop prune --store` on a team's PostgreSQL, the built CLI as a user runs it: the same
// result as on the data folder the team store was copied from, HOOKLOOP_STORE too, no data key
// needed; one endpoint's clear and a saved retention; and a prune while another pass holds the
// team store says so and exits 1, pruning nothing.
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createRetention } from '../../../electron/engine/retention'
import { copyStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import type { PruneResult } from '../../../shared/contract'
import { DAY, fillHistory } from '../../support/filled-history'
import { heldClock } from '../../support/held-clock'
import { runCli } from '../../support/run-cli'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir('hookloop-prune-store-', 'all')
const quiet = { notice: () => undefined }
// A team member prunes without the data key: pruning reads no secret.
const noKey = { env: { ...process.env, HOOKLOOP_SECRET_KEY_FILE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_STORE: '' } }
let source: string

beforeAll(async () => {
  source = join(temp.dir, 'source')
  await fillHistory(source)
}, 120_000)

/** A copy of the filled folder, and a team database holding the same history. */
async function folderAndTeam(name: string): Promise<{ folder: string; team: string }> {
  const folder = join(temp.dir, name)
  cpSync(source, folder, { recursive: true })
  const team = await postgres.freshDatabase()
  const from = await openStore(parseStoreLocation(folder), quiet)
  const to = await openStore(parseStoreLocation(team), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
  try {
    await copyStore(from, to)
  } finally {
    await from.engine.close()
    await to.engine.close()
  }
  return { folder, team }
}

const what = (r: PruneResult) => ({ deleted: r.deleted, deliveries: r.deliveries, attempts: r.attempts, events: r.events, bytes: r.bytes, batches: r.batches, requests: r.size.requests })

describe('hookloop prune --store', () => {
  it('prunes a team store by age as the data folder it came from, and by size from HOOKLOOP_STORE', async () => {
    const { folder, team } = await folderAndTeam('age')
    const onFolder = await runCli(['prune', '--data', folder, '--older-than', '30d', '--json'])
    const onTeam = await runCli(['prune', '--store', team, '--older-than', '30d', '--json'], noKey)
    expect(onTeam.stderr).toBe('')
    expect(onTeam.code).toBe(0)
    expect(what(JSON.parse(onTeam.stdout) as PruneResult)).toEqual(what(JSON.parse(onFolder.stdout) as PruneResult))
    expect(JSON.parse(onTeam.stdout)).toMatchObject({ deleted: 6, deliveries: 1, attempts: 1, events: 1, size: { walBytes: 0 } })
    // The same requests and deliveries are left, as the lists read them.
    for (const list of ['requests', 'deliveries']) {
      const left = await runCli([list, '--store', team, '--json'], noKey)
      expect(JSON.parse(left.stdout)).toEqual(JSON.parse((await runCli([list, '--data', folder, '--json'])).stdout))
    }

    const sized = await runCli(['prune', '--max-mb', '0', '--json'], { env: { ...noKey.env, HOOKLOOP_STORE: team } })
    expect(sized.code).toBe(0)
    const emptied = JSON.parse(sized.stdout) as PruneResult
    // Everything settled went; the delivery still pending stays, with its event.
    expect(emptied.size.requests).toBe(0)
    expect(JSON.parse((await runCli(['deliveries', '--store', team, '--json'], noKey)).stdout).deliveries).toEqual([expect.objectContaining({ status: 'pending' })])
  })

  it("clears one endpoint's requests, saves a retention the next prune applies, and names an endpoint it does not have", async () => {
    const { team } = await folderAndTeam('endpoint')
    const cleared = await runCli(['prune', '--store', team, '--endpoint', 'keyed', '--all', '--json'], noKey)
    expect(cleared.code).toBe(0)
    expect(JSON.parse(cleared.stdout)).toMatchObject({ deleted: 4, deliveries: 0 })
    expect(JSON.parse((await runCli(['requests', '--store', team, '--endpoint', 'keyed', '--json'], noKey)).stdout).requests).toEqual([])

    const saved = await runCli(['prune', '--store', team, '--older-than', '7d', '--max-mb', '50', '--save'], noKey)
    expect(saved.code).toBe(0)
    expect(saved.stdout).toMatch(/^Pruned \d+ requests?, 1 settled delivery \(1 attempt\), 1 event \(.+\) in \d+ batch(es)?\. Store: .* \d+ requests? kept\.\n$/)
    const applied = await runCli(['prune', '--store', team, '--json'], noKey)
    expect(applied.code).toBe(0)
    expect((JSON.parse(applied.stdout) as PruneResult).size.retention).toEqual({ days: 7, maxMb: 50 })

    const unknown = await runCli(['prune', '--store', team, '--endpoint', 'nope', '--all'], noKey)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^hookloop: prune: no endpoint "nope" in postgres:\/\/hookloop@127\.0\.0\.1:\d+\/hookloop_[0-9a-f]+\n$/)
  })

  it('says a pass is already running on the team store, prunes nothing and exits 1', async () => {
    const { team } = await folderAndTeam('busy')
    // Another process's pass, held between two batches.
    const store = await openStore(parseStoreLocation(team), { ...quiet, withoutSecrets: true })
    const held = heldClock()
    const running = createRetention({ engine: store.engine, clock: createRealClock(), timers: held.timers, firstPassMs: 2 ** 31 - 1, batch: { rows: 1, bytes: 1 } })
    try {
      const pass = running.prune({ olderThanMs: 30 * DAY })
      await held.resting
      const busy = await runCli(['prune', '--store', team, '--all'], noKey)
      expect(busy.code).toBe(1)
      expect(busy.stdout).toBe('')
      expect(busy.stderr).toMatch(/^hookloop: prune: a retention pass is already running on postgres:\/\/hookloop@127\.0\.0\.1:\d+\/hookloop_[0-9a-f]+ \(another process or `hookloop prune`\); nothing was pruned by this one: try again when it is done\n$/)
      held.release()
      // The held pass did all its work; the refused --all took nothing (the new half is still there).
      expect(await pass).toMatchObject({ deleted: 6, deliveries: 1 })
      expect(JSON.parse((await runCli(['requests', '--store', team, '--json'], noKey)).stdout).requests.length).toBeGreaterThan(0)
    } finally {
      held.release()
      await running.stop()
      await store.engine.close()
    }
  })
})
