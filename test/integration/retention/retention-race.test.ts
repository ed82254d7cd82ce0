// Two retention passes at once on one store, each on a connection of its own as two processes
// would be. The first pass is held between two of its batches (its rest waits on the test, on a
// clock the test hands it) while the second one starts, so they overlap whatever the machine's speed.
// - a team's PostgreSQL: one pass at a time; the second is refused (RetentionBusyError), prunes
//   nothing, and the first finishes the work; once it is done a pass runs again;
// - a data folder: the file's write lock takes one batch at a time and each batch picks what is
//   left, so the two share the work: between them they delete exactly what one pass would, no
//   row twice.
import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRealClock } from '../../../electron/engine/clock'
import { createRetention, RetentionBusyError, type PrunePlan } from '../../../electron/engine/retention'
import { copyStore, openStore, parseStoreLocation, type OpenedStore, type SqlEngine } from '../../../electron/engine/store'
import { heldClock } from '../../support/held-clock'
import { usePostgres } from '../../support/use-postgres'
import { makeTempDir } from '../../support/temp-dir'
import { DAY, fillHistory } from '../../support/filled-history'

const postgres = usePostgres()
const quiet = { notice: () => undefined }
let temp: ReturnType<typeof makeTempDir>
let source: string
const opened: OpenedStore[] = []

beforeAll(async () => {
  temp = makeTempDir('hookloop-retention-race-')
  source = join(temp.dir, 'source')
  await fillHistory(source)
}, 120_000)
afterAll(async () => {
  for (const store of opened) await store.engine.close()
  temp?.cleanup()
})

async function open(location: string): Promise<SqlEngine> {
  const store = await openStore(parseStoreLocation(location), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
  opened.push(store)
  return store.engine
}

const plan: PrunePlan = { olderThanMs: 30 * DAY }
// One row a batch: the first pass has batches left when it is held.
const batch = { rows: 1, bytes: 1 }
const count = async (engine: SqlEngine, table: string) => Number((await engine.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n)
const counts = async (engine: SqlEngine) => ({
  requests: await count(engine, 'requests'),
  forwardLegs: await count(engine, 'forward_legs'),
  deliveries: await count(engine, 'deliveries'),
  attempts: await count(engine, 'attempts'),
  events: await count(engine, 'events'),
})

describe('two retention passes at once', () => {
  it('on PostgreSQL: the second is refused while the first runs, nothing is pruned twice, and the store ends as one pass leaves it', async () => {
    const url = await postgres.freshDatabase()
    const from = await openStore(parseStoreLocation(source), quiet)
    opened.push(from)
    const team = await open(url)
    await copyStore(from, opened[opened.length - 1]!)
    const before = await counts(team)
    const other = await open(url) // another process: its own pool on the same database

    const held = heldClock()
    const clock = createRealClock()
    const first = createRetention({ engine: team, clock, timers: held.timers, firstPassMs: 2 ** 31 - 1, batch })
    const second = createRetention({ engine: other, clock, timers: clock, firstPassMs: 2 ** 31 - 1, batch })
    try {
      const running = first.prune(plan)
      await held.resting // the first pass deleted its first batch and holds the store
      const refused = await second.prune(plan).then(
        () => null,
        (error: unknown) => error,
      )
      expect(refused).toBeInstanceOf(RetentionBusyError)
      expect((refused as Error).message).toMatch(/^a retention pass is already running on postgres:\/\/hookloop@127\.0\.0\.1:\d+\/hookloop_[0-9a-f]+ \(another process or `hookloop prune`\); nothing was pruned by this one/)
      held.release()
      const result = await running
      expect(result).toMatchObject({ deleted: 6, deliveries: 1, attempts: 1, events: 1 })
      expect(await counts(other)).toEqual({ ...before, requests: before.requests - 6, forwardLegs: before.forwardLegs - 1, deliveries: before.deliveries - 1, attempts: before.attempts - 1, events: before.events - 1 })
      // The lock went with the first pass: the other process's next pass runs (and finds nothing left).
      expect(await second.prune(plan)).toMatchObject({ deleted: 0, deliveries: 0, events: 0 })
    } finally {
      held.release()
      await first.stop()
      await second.stop()
    }
  })

  it('on a data folder: the two share the work batch by batch, never the same row, and delete what one pass would', async () => {
    const dir = join(temp.dir, 'folder')
    cpSync(source, dir, { recursive: true })
    const folder = await open(dir)
    const other = await open(dir) // another process: its own connection to the same file
    const before = await counts(folder)

    const held = heldClock()
    const clock = createRealClock()
    const first = createRetention({ engine: folder, clock, timers: held.timers, firstPassMs: 2 ** 31 - 1, batch })
    const second = createRetention({ engine: other, clock, timers: clock, firstPassMs: 2 ** 31 - 1, batch })
    try {
      const running = first.prune(plan)
      await held.resting
      const meanwhile = await second.prune(plan)
      held.release()
      const result = await running
      // The first had deleted one request when it was held; the second took every row left.
      expect(result.deleted).toBe(1)
      expect(meanwhile.deleted).toBe(5)
      const both = { deleted: result.deleted + meanwhile.deleted, deliveries: result.deliveries + meanwhile.deliveries, attempts: result.attempts + meanwhile.attempts, events: result.events + meanwhile.events }
      expect(both).toEqual({ deleted: 6, deliveries: 1, attempts: 1, events: 1 })
      expect(await counts(folder)).toEqual({ ...before, requests: before.requests - 6, forwardLegs: before.forwardLegs - 1, deliveries: before.deliveries - 1, attempts: before.attempts - 1, events: before.events - 1 })
    } finally {
      held.release()
      await first.stop()
      await second.stop()
    }
  })
})
