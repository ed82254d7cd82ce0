// Retention gives the same result on a team's PostgreSQL as on a data folder: a folder a real
// engine filled (retention/support.ts) is copied into a real PostgreSQL (store copy), the same
// pass runs on both, by age and by size, and what remains is compared table by table: the same
// rows removed, the same kept, the same links cleared (a duplicate whose first arrival went, a
// request whose attempt went, a forward leg whose request went), the request counters moved alike.
import { createHash } from 'node:crypto'
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createRetention, type PrunePlan } from '../../../electron/engine/retention'
import { copyStore, openStore, parseStoreLocation, type OpenedStore, type SqlEngine } from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { makeTempDir } from '../../support/temp-dir'
import { BIG, DAY, fillHistory, HISTORY_TABLES } from '../../support/filled-history'

const postgres = usePostgres()
const quiet = { notice: () => undefined }
let temp: ReturnType<typeof makeTempDir>
let source: string
const opened: OpenedStore[] = []

beforeAll(async () => {
  temp = makeTempDir('hookloop-retention-engines-')
  source = join(temp.dir, 'source')
  await fillHistory(source)
}, 120_000)
afterAll(async () => {
  for (const store of opened) await store.engine.close()
  temp?.cleanup()
})

/** A copy of the filled folder, and the same history in a fresh PostgreSQL database. */
async function bothEngines(name: string): Promise<{ folder: SqlEngine; team: SqlEngine }> {
  const dir = join(temp.dir, name)
  cpSync(source, dir, { recursive: true })
  const folder = await openStore(parseStoreLocation(dir), quiet)
  const team = await openStore(parseStoreLocation(await postgres.freshDatabase()), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
  opened.push(folder, team)
  await copyStore(folder, team)
  return { folder: folder.engine, team: team.engine }
}

/** Every row of the history's tables, bytes as their digest (a deep compare of megabytes byte by byte is slow). */
async function contents(engine: SqlEngine): Promise<Record<string, Record<string, unknown>[]>> {
  const digest = (value: unknown) => (Buffer.isBuffer(value) ? `${value.length} bytes, sha256 ${createHash('sha256').update(value).digest('hex')}` : value)
  const tables: Record<string, Record<string, unknown>[]> = {}
  for (const [table, order] of Object.entries(HISTORY_TABLES)) {
    const rows = await engine.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${order}`)
    // Not a request's commit_order: each team store numbers its own commits (a folder's stays empty).
    tables[table] = rows.map((row) => Object.fromEntries(Object.entries(row).flatMap(([column, value]) => (column === 'commit_order' ? [] : [[column, digest(value)]]))))
  }
  return tables
}

async function prune(engine: SqlEngine, plan: PrunePlan, batch?: { rows: number; bytes: number }) {
  const clock = createRealClock()
  const retention = createRetention({ engine, clock, timers: clock, firstPassMs: 2 ** 31 - 1, ...(batch ? { batch } : {}) })
  try {
    return await retention.prune(plan)
  } finally {
    await retention.stop()
  }
}

/**
 * What a pass did to the request counters (schema 12's triggers), per endpoint. Compared as a
 * change, not as totals: a store copy into PostgreSQL counts a duplicate group's received row
 * differently from the folder it copied (seen here: one fewer), before any retention runs.
 */
async function counters(engine: SqlEngine): Promise<Map<string, { requests: number; received: number }>> {
  const rows = await engine.all<{ endpoint_key: string; requests: number; received_rows: number }>('SELECT * FROM request_counts ORDER BY endpoint_key')
  return new Map(rows.map((r) => [r.endpoint_key, { requests: Number(r.requests), received: Number(r.received_rows) }]))
}
function moved(before: Map<string, { requests: number; received: number }>, after: Map<string, { requests: number; received: number }>) {
  return [...before].map(([key, b]) => ({ key, requests: (after.get(key)?.requests ?? 0) - b.requests, received: (after.get(key)?.received ?? 0) - b.received }))
}

const counted = (result: Awaited<ReturnType<typeof prune>>) => ({ deleted: result.deleted, deliveries: result.deliveries, attempts: result.attempts, events: result.events, bytes: result.bytes, batches: result.batches })

describe('retention on both engines', () => {
  it('by age: the same rows go and stay, and the links to them are cleared alike', async () => {
    const { folder, team } = await bothEngines('by-age')
    const before = await contents(folder)
    expect(await contents(team)).toEqual(before)

    const counts = { folder: await counters(folder), team: await counters(team) }
    const plan = { olderThanMs: 30 * DAY }
    const onFolder = await prune(folder, plan)
    const onTeam = await prune(team, plan)
    expect(moved(counts.team, await counters(team))).toEqual(moved(counts.folder, await counters(folder)))
    // The old half: 5 requests of its own and the one its loop attempt made, 1 settled delivery with its attempt and event.
    expect(counted(onFolder)).toMatchObject({ deleted: 6, deliveries: 1, attempts: 1, events: 1 })
    expect(counted(onTeam)).toEqual(counted(onFolder))
    expect(onTeam.size.requests).toBe(onFolder.size.requests)

    const after = await contents(folder)
    expect(await contents(team)).toEqual(after)
    // What stays: the new half and the delivery still pending, with its event.
    expect(after.requests).toHaveLength(before.requests!.length - 6)
    expect((after.deliveries as { status: string }[]).map((d) => d.status).sort()).toEqual(['pending', 'succeeded'])
    // The second k1 lost its pointer to the pruned first arrival; no survivor points at a pruned attempt; the pruned forward leg went with its request.
    const k1 = (after.requests as { dedupe_key: string | null; duplicate_of: number | null; duplicate_number: number | null }[]).filter((r) => r.dedupe_key === 'k1')
    expect(k1).toEqual([expect.objectContaining({ duplicate_of: null, duplicate_number: 2 })])
    const attempts = new Set((after.attempts as { id: number }[]).map((a) => a.id))
    expect((after.requests as { attempt_id: number | null }[]).every((r) => r.attempt_id === null || attempts.has(r.attempt_id))).toBe(true)
    const requests = new Set((after.requests as { id: number }[]).map((r) => r.id))
    expect(after.forward_legs).toHaveLength(1)
    expect((after.forward_legs as { request_id: number }[]).every((l) => requests.has(l.request_id))).toBe(true)
  })

  it('Clear history: every request and settled delivery there is, on both; the pending delivery and its event stay', async () => {
    const { folder, team } = await bothEngines('clear')
    const counts = { folder: await counters(folder), team: await counters(team) }
    const onFolder = await prune(folder, { all: true })
    const onTeam = await prune(team, { all: true })
    expect(moved(counts.team, await counters(team))).toEqual(moved(counts.folder, await counters(folder)))
    expect(counted(onTeam)).toEqual(counted(onFolder))
    expect(onTeam.size.requests).toBe(0)
    const after = await contents(folder)
    expect(await contents(team)).toEqual(after)
    expect({ requests: after.requests, legs: after.forward_legs, attempts: after.attempts }).toEqual({ requests: [], legs: [], attempts: [] })
    expect(after.deliveries).toEqual([expect.objectContaining({ status: 'pending' })])
    expect(after.events).toHaveLength(1)
  })

  it('unlinks two arrivals of one key from their pruned attempts together, and counts their group once, as received traffic', async () => {
    const { folder, team } = await bothEngines('unlink')
    const now = Date.now()
    for (const engine of [folder, team]) {
      // Both loop deliveries old, the requests their attempts made (one key) new: the pass prunes
      // the deliveries in one batch and keeps both requests, now received traffic.
      await engine.run('UPDATE deliveries SET created_wall_at = ?, updated_at = ? WHERE status = ?', [now - 40 * DAY, now - 40 * DAY, 'succeeded'])
      await engine.run('UPDATE requests SET stored_at = ? WHERE attempt_id IS NOT NULL', [now])
    }
    const counts = { folder: await counters(folder), team: await counters(team) }
    const onFolder = await prune(folder, { olderThanMs: 30 * DAY })
    const onTeam = await prune(team, { olderThanMs: 30 * DAY })
    expect(counted(onFolder)).toMatchObject({ deliveries: 2, attempts: 2 })
    expect(counted(onTeam)).toEqual(counted(onFolder))
    const moves = moved(counts.folder, await counters(folder))
    expect(moved(counts.team, await counters(team))).toEqual(moves)
    const after = await contents(folder)
    expect(await contents(team)).toEqual(after)
    const loop = (after.requests as { dedupe_key: string | null; attempt_id: number | null }[]).filter((r) => r.dedupe_key === 'evt_loop')
    expect(loop).toEqual([expect.objectContaining({ attempt_id: null }), expect.objectContaining({ attempt_id: null })])
  })

  it('by size: oldest first until the store is within the limit, stopping at the same row on both', async () => {
    const { folder, team } = await bothEngines('by-size')
    const used = { folder: (await prune(folder, {})).size.usedBytes, team: (await prune(team, {})).size.usedBytes }
    // Four random bodies of BIG bytes; what else either engine counts is far less than half of one.
    for (const bytes of Object.values(used)) {
      expect(bytes).toBeGreaterThan(4 * BIG)
      expect(bytes).toBeLessThan(4.5 * BIG)
    }
    // Room for one and a half bodies: both keep the newest body and whatever is newer than it.
    const plan = { maxBytes: Math.round(1.5 * BIG) }
    const batch = { rows: 500, bytes: 1 } // one row a batch: the limit is checked after each
    const counts = { folder: await counters(folder), team: await counters(team) }
    const onFolder = await prune(folder, plan, batch)
    const onTeam = await prune(team, plan, batch)
    expect(moved(counts.team, await counters(team))).toEqual(moved(counts.folder, await counters(folder)))
    expect(counted(onTeam)).toEqual(counted(onFolder))
    expect(onFolder.size.usedBytes).toBeLessThanOrEqual(plan.maxBytes)
    expect(onTeam.size.usedBytes).toBeLessThanOrEqual(plan.maxBytes)
    const after = await contents(folder)
    expect(await contents(team)).toEqual(after)
    const bodies = (after.requests as { body_size: number }[]).filter((r) => r.body_size === BIG)
    expect(bodies).toHaveLength(1)
  })
})
