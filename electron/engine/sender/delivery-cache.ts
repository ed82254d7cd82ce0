import type { DeliveryFinish, DeliveryRow, DeliveryStore } from '../store'

// Every attempt starts by reading its delivery row, and with the attempt writes on the writer
// thread each of those reads found the main connection's page cache cleared by the thread's last
// commit (another connection changed the file): ≈ 7 % of the sender's main thread. The sender is
// the only writer of deliveries, so it keeps recently used rows in memory and applies its own
// writes to them: a committed start or finish updates the cached row, and any other write
// (reschedule, recovery) drops it so the next read comes from the store.

export interface CachedDeliveries extends DeliveryStore {
  /** A row this sender inserted and committed (insertedDelivery): the next get() needs no read. */
  remember(row: DeliveryRow): void
  /** The attempt start ({markStarted}) for `id` is committed. */
  started(id: number, now: number): void
  /** The attempt outcome ({markFinished}) is committed. */
  finished(finish: DeliveryFinish): void
  /** A write for `id` failed or is unknown: read it from the store next time. */
  forget(id: number): void
}

export function cacheDeliveries(store: DeliveryStore, maxRows = 50_000): CachedDeliveries {
  const rows = new Map<number, DeliveryRow>()
  const remember = (row: DeliveryRow) => {
    if (rows.size >= maxRows && !rows.has(row.id)) rows.delete(rows.keys().next().value as number)
    rows.set(row.id, row)
  }
  return {
    ...store,
    async get(id) {
      const hit = rows.get(id)
      if (hit) return hit
      const row = await store.get(id)
      if (row) remember(row)
      return row
    },
    remember,
    async reschedule(id, status, nextAttemptAt, now) {
      rows.delete(id)
      await store.reschedule(id, status, nextAttemptAt, now)
      rows.delete(id)
    },
    async recoverInFlight(id, owner, now) {
      rows.delete(id)
      const recovered = await store.recoverInFlight(id, owner, now)
      rows.delete(id)
      return recovered
    },
    async releaseClaim(id, owner, now) {
      rows.delete(id)
      const released = await store.releaseClaim(id, owner, now)
      rows.delete(id)
      return released
    },
    async claim(id, dueAt, owner, leaseUntil) {
      const claimed = await store.claim(id, dueAt, owner, leaseUntil)
      // Lost to another process: what this cache holds of the row is out of date.
      if (!claimed) rows.delete(id)
      return claimed
    },
    // A new row each time (spelt out: this runs twice per attempt), never a change to the old
    // one: whoever read it keeps what it read.
    started(id, now) {
      const row = rows.get(id)
      if (!row) return
      rows.set(id, {
        id,
        event_id: row.event_id,
        subscription_id: row.subscription_id,
        status: row.status,
        attempts: row.attempts + 1,
        last_status_code: row.last_status_code,
        last_attempt_at: now,
        next_attempt_at: null,
        in_flight: 1,
        interrupted: row.interrupted,
        faults_json: row.faults_json,
        created_at: row.created_at,
        consumer_event_id: row.consumer_event_id,
        updated_at: now,
      })
    },
    finished(f) {
      const row = rows.get(f.id)
      if (!row) return
      rows.set(f.id, {
        id: f.id,
        event_id: row.event_id,
        subscription_id: row.subscription_id,
        status: f.status,
        attempts: row.attempts,
        last_status_code: f.last_status_code,
        last_attempt_at: row.last_attempt_at,
        next_attempt_at: f.next_attempt_at,
        in_flight: 0,
        interrupted: row.interrupted,
        faults_json: row.faults_json,
        created_at: row.created_at,
        consumer_event_id: row.consumer_event_id,
        updated_at: f.updated_at,
      })
    },
    forget(id) {
      rows.delete(id)
    },
  }
}
