// Retention and Clear history on a real engine: real HTTP captures into a real SQLite file,
// pruned by age on a virtual clock, by size, per endpoint and all at once; the dedupe numbering
// survives the deletion of a first arrival; freed pages go back to the file system.
import { statSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { VirtualClock } from '../../../electron/engine/clock'
import type { Engine } from '../../../electron/engine/engine'
import { DEFAULT_RETENTION } from '../../../shared/contract'
import { closeEngine, openEngine, virtualEngine, type TempDir } from '../../support/engine'

const DAY = 86_400_000

async function post(engine: Engine, slug: string, body: string | Buffer, key?: string): Promise<number> {
  const response = await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'x-key': key } : {}) }, body })
  await response.arrayBuffer()
  return response.status
}

describe('retention', () => {
  let temp: TempDir, clock: VirtualClock, engine: Engine
  beforeEach(async () => {
    ;({ temp, clock, engine } = await virtualEngine(undefined, 'same'))
    await engine.putEndpoint({ slug: 'a', dedupe: { type: 'header', name: 'x-key' }, dedupe_window_ms: 10 * DAY })
    await engine.putEndpoint({ slug: 'b' })
  })
  afterEach(() => closeEngine(engine, clock, temp))

  it('starts with the defaults and keeps settings across a restart; bad ones are refused by name', async () => {
    expect(await engine.retention.settings()).toEqual(DEFAULT_RETENTION)
    const saved = await engine.retention.set({ days: 7, maxMb: null })
    expect(saved).toMatchObject({ days: 7, maxMb: null })
    expect((await saved.applied).deleted).toBe(0)
    await expect(engine.retention.set({ days: 0, maxMb: null })).rejects.toThrow(/retention days must be a whole number from 1/)
    await engine.close()
    engine = await openEngine(temp.dir, clock, 'same')
    expect(await engine.retention.settings()).toEqual({ days: 7, maxMb: null })
  })

  it('prunes by age on the wall clock (a virtual one here, moved by the test), and a first arrival can go without breaking dedupe', async () => {
    expect(await post(engine, 'a', '{"n":1}', 'k1')).toBe(200)
    expect(await post(engine, 'b', '{"n":2}')).toBe(200)
    await clock.sleep(2 * DAY)
    expect(await post(engine, 'a', '{"n":3}', 'k1')).toBe(200)
    await engine.quiesce()
    const before = engine.receiver.requests.list({ limit: 10 })
    expect(before.map((r) => r.duplicateNumber)).toEqual([2, null, 1])

    const result = await engine.retention.prune({ olderThanMs: DAY })
    expect(result.deleted).toBe(2)
    const left = engine.receiver.requests.list({ limit: 10 })
    expect(left).toHaveLength(1)
    expect(left[0]!.duplicateNumber).toBe(2)
    expect(left[0]!.duplicateOf).toBeNull()

    // The first arrival of k1 is gone: the next k1 is numbered on and points at the survivor.
    expect(await post(engine, 'a', '{"n":4}', 'k1')).toBe(200)
    await engine.quiesce()
    const newest = engine.receiver.requests.list({ limit: 1 })[0]!
    expect(newest.duplicateNumber).toBe(3)
    expect(newest.duplicateOf).toBe(left[0]!.id)
  })

  it('clears one endpoint, then everything; capture goes on and numbering restarts', async () => {
    for (let i = 0; i < 5; i++) await post(engine, 'a', `{"n":${i}}`, 'same')
    for (let i = 0; i < 3; i++) await post(engine, 'b', `{"n":${i}}`)
    await engine.quiesce()
    const a = engine.receiver.endpoints.list().find((e) => e.slug === 'a')!
    const b = engine.receiver.endpoints.list().find((e) => e.slug === 'b')!

    const cleared = await engine.retention.prune({ endpointId: b.id })
    expect(cleared.deleted).toBe(3)
    expect(engine.receiver.requests.list({ limit: 20 }).every((r) => r.endpointId === a.id)).toBe(true)

    const all = await engine.retention.prune({ all: true })
    expect(all.deleted).toBe(5)
    expect(all.size.requests).toBe(0)
    expect(all.size.oldestAt).toBeNull()

    expect(await post(engine, 'a', '{"n":9}', 'same')).toBe(200)
    await engine.quiesce()
    const fresh = engine.receiver.requests.list({ limit: 5 })
    expect(fresh).toHaveLength(1)
    expect(fresh[0]!.duplicateNumber).toBe(1)
  })

  it('keeps the store under a size limit, oldest first, and gives the pages back to the file system', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1_000_000) })
    for (let i = 0; i < 8; i++) await post(engine, 'b', big)
    await engine.quiesce()
    await engine.retention.size()
    // The bodies in the file itself, not only in the WAL (checkpointed every 16 MiB: store/database.ts).
    engine.db.pragma('wal_checkpoint(TRUNCATE)')
    const grown = statSync(engine.dataFile).size
    const ids = engine.receiver.requests.list({ limit: 20 }).map((r) => r.id).sort((x, y) => x - y)
    expect(ids).toHaveLength(8)

    const result = await engine.retention.prune({ maxBytes: 3_500_000, giveBack: 'all' })
    expect(result.size.usedBytes).toBeLessThanOrEqual(3_500_000)
    expect(result.reclaimedPages).toBeGreaterThan(0)
    const kept = engine.receiver.requests.list({ limit: 20 }).map((r) => r.id).sort((x, y) => x - y)
    // The newest ones stay.
    expect(kept.length).toBeGreaterThanOrEqual(2)
    expect(kept).toEqual(ids.slice(ids.length - kept.length))
    expect(statSync(engine.dataFile).size).toBeLessThan(grown)
    // The WAL was checkpointed and truncated.
    expect(result.size.walBytes).toBe(0)
  })
})

describe('retention while a simulation runs ahead', () => {
  it('ages real captures on the wall clock: a request seconds old stays when the simulated clock has moved two days on', async () => {
    // The engine's clock is virtual (a simulation); real traffic and retention are on the real wall clock.
    const { temp, clock, engine } = await virtualEngine(Date.now())
    try {
      await engine.putEndpoint({ slug: 'live' })
      expect(await post(engine, 'live', '{"n":1}')).toBe(200)
      await clock.sleep(2 * DAY)
      await engine.quiesce()
      const result = await engine.retention.prune({ olderThanMs: DAY })
      expect(result.deleted).toBe(0)
      expect(engine.receiver.requests.list({ limit: 10 })).toHaveLength(1)
    } finally {
      await closeEngine(engine, clock, temp)
    }
  })
})
