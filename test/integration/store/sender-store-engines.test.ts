// The sender's tables awaited through SqlEngine (store/events.ts, deliveries.ts, attempts.ts) and
// what the sender needs of the store besides (store/sender-store.ts: attempt ids, the link key,
// the attempt path's writer), on a real SQLite file and a real PostgreSQL: the same calls give
// the same rows on both.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ATTEMPT_WRITE_SQL,
  DELIVERY_WRITE_SQL,
  attemptLinkKey,
  createAttemptIds,
  createAttemptStore,
  createAttemptWriter,
  createDeliveryStore,
  createEventStore,
  createSqliteEngine,
  openDatabase,
  openPostgresEngine,
  openStore,
  parseStoreLocation,
  type SqlEngine,
  type StoreKind,
} from '../../../electron/engine/store'
import { usePostgres } from '../../support/use-postgres'
import { useTempDir } from '../../support/use-temp-dir'

const postgres = usePostgres()
const temp = useTempDir()
const quiet = { notice: () => undefined }

/** Two connections to one fresh store of `kind`, as two processes would hold. */
async function twoConnections(kind: StoreKind): Promise<[SqlEngine, SqlEngine]> {
  if (kind === 'sqlite') {
    const file = join(temp.dir, `${Math.random().toString(36).slice(2)}.db`)
    return [createSqliteEngine(openDatabase({ file, ...quiet })), createSqliteEngine(openDatabase({ file, ...quiet }))]
  }
  const url = await postgres.freshDatabase()
  const store = await openStore(parseStoreLocation(url), { ...quiet, withoutSecrets: true })
  return [store.engine, await openPostgresEngine({ url })]
}

async function seedSubscription(engine: SqlEngine): Promise<void> {
  await engine.run(`INSERT INTO subscriptions (id, name, url, scheme, secrets_json, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:9/', 'standard-webhooks', '[]', '{}', 0, 0)`)
}

const ATTEMPT_PATH_SQL = { ...ATTEMPT_WRITE_SQL, ...DELIVERY_WRITE_SQL }

describe.each(['sqlite', 'postgres'] as const)('the sender store on %s', (kind) => {
  it('stores events once, schedules, claims, lists and recovers deliveries, and reads attempts written by the attempt writer', async () => {
    const [engine, other] = await twoConnections(kind)
    try {
      await seedSubscription(engine)
      const events = createEventStore(engine)
      const deliveries = createDeliveryStore(engine)
      const attempts = createAttemptStore(engine)
      const event = { id: 'evt_1', eventType: 'booking.created', payload: Buffer.from('{"n":1}'), createdAt: 1_000, storedAt: 1_000 }
      expect(await events.insertNew(event)).toBe(true)
      expect(await events.insertNew(event)).toBe(false)
      expect(await events.get('evt_1')).toEqual(event)
      expect(await events.get('evt_none')).toBeUndefined()

      const made = { event_id: 'evt_1', subscription_id: 's', faults_json: null, created_at: 1_000, simulation_id: null, created_wall_at: 1_000 }
      const first = await deliveries.insert({ ...made, next_attempt_at: 2_000 })
      const second = await deliveries.insert({ ...made, next_attempt_at: 2_000 })
      const waiting = await deliveries.insert({ ...made, next_attempt_at: null })
      expect(second).toBe(first + 1)
      expect(await deliveries.get(first)).toMatchObject({ id: first, status: 'pending', attempts: 0, next_attempt_at: 2_000, in_flight: 0, consumer_event_id: null })
      expect(await deliveries.due(Number.MIN_SAFE_INTEGER, 0, 5_000, 10, null)).toEqual([
        { id: first, next_attempt_at: 2_000 },
        { id: second, next_attempt_at: 2_000 },
      ])
      expect(await deliveries.due(2_000, first, 5_000, 10, null)).toEqual([{ id: second, next_attempt_at: 2_000 }])
      expect(await deliveries.nextAfter(2_000, second, null)).toBeUndefined()
      expect(await deliveries.waitingForResume('s')).toEqual([waiting])

      // Two connections claim one delivery at once: one wins.
      const lease = Date.now() + 60_000
      const wins = await Promise.all([deliveries.claim(first, 2_000, 'a', lease), createDeliveryStore(other).claim(first, 2_000, 'b', lease)])
      expect(wins.filter(Boolean)).toHaveLength(1)
      expect(await deliveries.claimsInFlight()).toEqual([{ id: first, claimed_by: wins[0] ? 'a' : 'b', lease_until: lease }])

      // The attempt path's writer commits an attempt's start on this engine; the store reads it back.
      const ids = createAttemptIds(engine)
      const otherIds = createAttemptIds(other)
      const taken = [await ids.next(), await otherIds.next(), await ids.next()]
      expect(new Set(taken).size).toBe(3)
      const writer = createAttemptWriter(engine, ATTEMPT_PATH_SQL)
      const attempt = { id: taken[0], delivery_id: first, n: 1, started_at: 2_000, started_wall_at: 2_000, url: 'http://127.0.0.1:9/', request_headers_json: '{}', fault_json: null }
      await writer.write([
        ['markStarted', { id: first, now: 2_000 }],
        ['insertStarted', attempt],
      ])
      writer.close()
      expect(await attempts.unfinished(first)).toMatchObject({ id: taken[0], n: 1, outcome: 'in_flight', decision: 'pending' })

      // The holder died: the delivery is taken over, its attempt marked interrupted, retried now.
      const holder = wins[0] ? 'a' : 'b'
      expect(await deliveries.recoverInFlight(first, 'someone else', 3_000)).toBe(false)
      expect(await deliveries.recoverInFlight(first, holder, 3_000)).toBe(true)
      await attempts.markInterrupted(taken[0] as number, 3_000)
      expect(await attempts.byDelivery(first)).toEqual([expect.objectContaining({ id: taken[0], outcome: 'interrupted', decision: 'retry', next_attempt_at: 3_000 })])
      expect(await deliveries.get(first)).toMatchObject({ status: 'retrying', attempts: 1, interrupted: 1, in_flight: 0, next_attempt_at: 3_000 })
      expect(await deliveries.claimsInFlight()).toEqual([])

      await deliveries.reschedule(second, 'retrying', 4_000, 3_000)
      expect(await deliveries.list({ subscription_id: 's', status: 'retrying', limit: 10 })).toEqual([
        expect.objectContaining({ id: second, next_attempt_at: 4_000 }),
        expect.objectContaining({ id: first }),
      ])
      expect((await deliveries.byEvent('evt_1')).map((row) => row.id)).toEqual([first, second, waiting])
      expect(await deliveries.progress()).toEqual({ made: 3, settled: 0 })
      expect(await deliveries.isSettled(first)).toBe(false)

      // One link key per store, whichever connection asks first.
      const keys = await Promise.all([attemptLinkKey(engine), attemptLinkKey(other)])
      expect(keys[0]).toHaveLength(32)
      expect(keys[1].equals(keys[0])).toBe(true)
    } finally {
      await other.close()
      await engine.close()
    }
  })
})
