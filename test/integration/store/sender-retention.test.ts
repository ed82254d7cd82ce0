// Retention of what the sender keeps, on a real engine and a real SQLite file: settled deliveries
// older than the window go with their attempts and their events; a delivery still pending (or
// scheduled again between a batch's selection and its delete) is never pruned; a captured request loses its link to a pruned attempt,
// not its row.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { VirtualClock } from '../../../electron/engine/clock'
import type { Engine } from '../../../electron/engine/engine'
import { createSqliteEngine } from '../../../electron/engine/store'
import { createSenderHistoryStore } from '../../../electron/engine/store/sender-history'
import { closeEngine, virtualEngine, type TempDir } from '../../support/engine'

const DAY = 86_400_000

describe('retention of the sender history', () => {
  let temp: TempDir, clock: VirtualClock, engine: Engine
  beforeEach(async () => {
    ;({ temp, clock, engine } = await virtualEngine(undefined, 'same'))
    await engine.putEndpoint({ slug: 'a' })
  })
  afterEach(() => closeEngine(engine, clock, temp))

  const count = (table: string) => engine.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number
  const delivery = (id: number) => engine.db.prepare('SELECT status, next_attempt_at FROM deliveries WHERE id = ?').get(id) as { status: string; next_attempt_at: number | null } | undefined

  /** Waits (on real time, polling the store) until the delivery's first attempt is recorded. */
  async function attempted(id: number): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      const row = delivery(id)
      if (row && row.status !== 'pending') return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`delivery ${id} was never attempted`)
  }

  async function send(subscriptionId: string, payload: unknown): Promise<number> {
    const sent = await engine.sendEvent({ subscriptionIds: [subscriptionId], eventType: 'order.paid', payload })
    const id = sent.deliveryIds[0]!
    await attempted(id)
    await engine.quiesce()
    return id
  }

  it('prunes settled deliveries by age with their attempts and events, never one still pending, and Clear history says what it took', async () => {
    const loop = await engine.putSubscription({ name: 'loop', target: { endpoint: 'a' }, scheme: 'standard-webhooks', policy: 'csku' })
    // Paused: its delivery waits, pending, for the subscription to resume.
    const paused = await engine.putSubscription({ name: 'paused', target: { url: 'http://127.0.0.1:9/' }, scheme: 'standard-webhooks', policy: 'csku', paused: true })
    const old = await send(loop.id, { n: 1 })
    expect(delivery(old)?.status).toBe('succeeded')
    await clock.sleep(2 * DAY)
    const recent = await send(loop.id, { n: 2 })
    const pending = (await engine.sendEvent({ subscriptionIds: [paused.id], eventType: 'order.paid', payload: { n: 3 } })).deliveryIds[0]!
    expect(delivery(pending)?.status).toBe('pending')
    expect([count('events'), count('deliveries')]).toEqual([3, 3])

    const attemptsOf = (id: number) => engine.db.prepare('SELECT count(*) FROM attempts WHERE delivery_id = ?').pluck().get(id) as number
    const byAge = await engine.retention.prune({ olderThanMs: DAY })
    expect(byAge).toMatchObject({ deleted: 1, deliveries: 1, attempts: 1, events: 1 })
    expect(delivery(old)).toBeUndefined()
    expect(attemptsOf(old)).toBe(0)
    expect(delivery(recent)?.status).toBe('succeeded')
    expect([count('events'), count('deliveries')]).toEqual([2, 2])

    // Clear history: every request and every settled delivery; the pending one stays, with its event.
    const cleared = await engine.retention.prune({ all: true })
    expect(cleared).toMatchObject({ deleted: 1, deliveries: 1, attempts: 1, events: 1 })
    expect(delivery(pending)?.status).toBe('pending')
    expect([count('events'), count('deliveries'), count('requests')]).toEqual([1, 1, 0])
    expect(attemptsOf(recent)).toBe(0)
  })

  it('a pruned attempt leaves the request it made, unlinked; a delivery resent meanwhile is not deleted', async () => {
    const loop = await engine.putSubscription({ name: 'loop', target: { endpoint: 'a' }, scheme: 'standard-webhooks', policy: 'csku' })
    const id = await send(loop.id, { n: 1 })
    const attemptOf = () => engine.db.prepare('SELECT attempt_id FROM requests').pluck().all()
    expect(attemptOf()).toEqual([expect.any(Number)])
    const sql = createSqliteEngine(engine.db, { closeDatabase: false })
    const batch = await createSenderHistoryStore(sql).nextBatch({}, { rows: 10, bytes: 1_000_000 })
    const deleteIds = (ids: number[]) => sql.transaction((tx) => createSenderHistoryStore(tx).deleteIds(ids))
    expect(batch.ids).toEqual([id])
    // Between the batch's selection and its delete the delivery is scheduled again: it stays.
    engine.db.prepare("UPDATE deliveries SET status = 'retrying', next_attempt_at = ? WHERE id = ?").run(clock.now() + DAY, id)
    expect(await deleteIds(batch.ids)).toEqual({ deliveries: 0, attempts: 0, events: 0 })
    engine.db.prepare("UPDATE deliveries SET status = 'succeeded', next_attempt_at = NULL WHERE id = ?").run(id)
    expect(await deleteIds(batch.ids)).toEqual({ deliveries: 1, attempts: 1, events: 1 })
    expect(attemptOf()).toEqual([null])
    expect(count('requests')).toBe(1)
  })

  it('keeps the store under a size limit by pruning the oldest first, a settled delivery before a newer request', async () => {
    const loop = await engine.putSubscription({ name: 'loop', target: { endpoint: 'a' }, scheme: 'standard-webhooks', policy: 'csku' })
    const big = 'x'.repeat(400_000)
    const old = await send(loop.id, { big })
    await clock.sleep(DAY)
    const body = Buffer.alloc(300_000, 'r')
    for (let i = 0; i < 3; i++) {
      const response = await fetch(engine.receiver.endpointUrl('a'), { method: 'POST', body })
      await response.arrayBuffer()
    }
    await engine.quiesce()
    const used = (await engine.retention.size()).usedBytes
    // A limit just under what is used: the oldest thing goes, the delivery (made just before the
    // request its attempt made), and with its 400 kB payload that is enough.
    const result = await engine.retention.prune({ maxBytes: used - 200_000 })
    expect(delivery(old)).toBeUndefined()
    expect(result).toMatchObject({ deliveries: 1, events: 1, deleted: 0 })
    expect((await engine.retention.size()).usedBytes).toBeLessThanOrEqual(used - 200_000)
  })
})
