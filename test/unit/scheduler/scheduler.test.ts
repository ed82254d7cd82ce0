import fc from 'fast-check'
import type { Database } from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVirtualClock, type VirtualClock } from '../../../electron/engine/clock'
import { createScheduler, type Scheduler } from '../../../electron/engine/scheduler'
import { createSqliteEngine, openDatabase, scheduledOnClock } from '../../../electron/engine/store'
import { createDeliveryStatements, createDeliveryStore, type DeliveryStatements, type DeliveryStore } from '../../../electron/engine/store/deliveries'

function seed(db: Database): void {
  db.prepare(`INSERT INTO subscriptions (id, name, url, scheme, policy_json, created_at, updated_at) VALUES ('s', 's', 'http://127.0.0.1:1/', 'standard-webhooks', '{}', 0, 0)`).run()
  db.prepare(`INSERT INTO events (id, event_type, payload, created_at) VALUES ('e', 't', x'7b7d', 0)`).run()
}

/** takeDue, reading on from the store (in the background) when the heap runs dry, until `max` or nothing more. */
async function take(scheduler: Scheduler, max: number) {
  const out = scheduler.takeDue(max)
  while (out.length < max && scheduler.refilling()) {
    await scheduler.refilled()
    out.push(...scheduler.takeDue(max - out.length))
  }
  return out
}

describe('scheduler over the store', () => {
  let db: Database
  let deliveries: DeliveryStatements
  // What the scheduler reads, awaited (as the sender has it); rows are written through `deliveries`.
  let store: DeliveryStore
  let clock: VirtualClock
  beforeEach(() => {
    db = openDatabase({ file: ':memory:' })
    seed(db)
    deliveries = createDeliveryStatements(db)
    store = createDeliveryStore(createSqliteEngine(db, { closeDatabase: false }))
    clock = createVirtualClock({ start: 0 })
  })
  afterEach(() => {
    clock.dispose()
    db.close()
  })

  const add = (at: number) => deliveries.insert({ event_id: 'e', subscription_id: 's', next_attempt_at: at, faults_json: null, created_at: 0, simulation_id: null, created_wall_at: 0 })

  it('hands out every delivery in (next_attempt_at, id) order whatever the horizon and batch size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 3_000 }),
        async (times, batch, horizonMs) => {
          db.exec('DELETE FROM deliveries')
          const ids = times.map((t) => ({ id: add(t), at: t }))
          const fake = { mode: 'virtual' as const, now: () => 0, setTimer: () => ({ cancel() {} }), sleep: async () => {} }
          let now = 0
          fake.now = () => now
          const scheduler = createScheduler({ clock: fake, deliveries: scheduledOnClock(store, null), onDue: () => {}, batch, horizonMs })
          scheduler.start()
          await scheduler.refilled()
          const got: number[] = []
          // Walk time forward in steps, taking what is due at each step.
          for (now = 0; now <= 5_000; now += 250) {
            for (;;) {
              const due = await take(scheduler, 3)
              for (const d of due) {
                expect(d.next_attempt_at).toBeLessThanOrEqual(now)
                got.push(d.id)
              }
              if (due.length < 3) break
            }
          }
          const expected = [...ids].sort((a, b) => a.at - b.at || a.id - b.id).map((x) => x.id)
          expect(got).toEqual(expected)
          expect(scheduler.memorySize()).toBe(0)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('calls onDue on the clock exactly when the earliest delivery is due, including ones scheduled later', async () => {
    const dueTimes: number[] = []
    const scheduler = createScheduler({
      clock,
      deliveries: scheduledOnClock(store, null),
      horizonMs: 1_000,
      batch: 2,
      onDue: () => {
        for (const d of scheduler.takeDue(10)) {
          dueTimes.push(clock.now())
          deliveries.reschedule(d.id, 'succeeded', null, clock.now())
        }
      },
    })
    add(5_000)
    add(120_000)
    scheduler.start()
    const late = add(60_000)
    scheduler.schedule(late, 60_000)
    const early = add(700)
    scheduler.schedule(early, 700)
    await clock.sleep(200_000)
    expect(dueTimes).toEqual([700, 5_000, 60_000, 120_000])
    expect(scheduler.nextDueAt()).toBeUndefined()
    scheduler.stop()
  })

  it('a delivery due beyond the timer range (40 days) still fires at exactly its time', async () => {
    const at = 40 * 86_400_000
    const dueTimes: number[] = []
    const scheduler = createScheduler({
      clock,
      deliveries: scheduledOnClock(store, null),
      onDue: () => {
        for (const d of scheduler.takeDue(10)) {
          dueTimes.push(clock.now())
          deliveries.reschedule(d.id, 'succeeded', null, clock.now())
        }
      },
    })
    add(at)
    scheduler.start()
    await clock.sleep(at + 1)
    expect(dueTimes).toEqual([at])
    scheduler.stop()
  })

  it('a new scheduler on the same store picks up everything still scheduled (restart)', async () => {
    for (let i = 0; i < 50; i++) add(i * 10)
    const fake = { mode: 'virtual' as const, now: () => 10_000, setTimer: () => ({ cancel() {} }), sleep: async () => {} }
    const first = createScheduler({ clock: fake, deliveries: scheduledOnClock(store, null), onDue: () => {}, batch: 7 })
    first.start()
    const taken = await take(first, 20)
    for (const d of taken) deliveries.reschedule(d.id, 'succeeded', null, 0)
    first.stop()
    const second = createScheduler({ clock: fake, deliveries: scheduledOnClock(store, null), onDue: () => {}, batch: 7 })
    second.start()
    const rest = await take(second, 1_000)
    expect(rest).toHaveLength(30)
    expect(new Set([...taken, ...rest].map((d) => d.id)).size).toBe(50)
  })
})
