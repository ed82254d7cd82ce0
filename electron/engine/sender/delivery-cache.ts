import type { DeliveryFinish, DeliveryRow, DeliveryStatements } from '../store/deliveries'

// Every attempt starts by reading its delivery row, and with the attempt writes on the writer
// thread each of those reads found the main connection's page cache cleared by the thread's last
// commit (another connection changed the file): ≈ 7 % of the sender's main thread. The sender is
// the only writer of deliveries, so it keeps recently used rows in memory and applies its own
// writes to them: a committed start or finish updates the cached row, and any other write
// (reschedule, recovery) drops it so the next read comes from the store.

export interface CachedDeliveries extends DeliveryStatements {
  /** The attempt start ({markStarted}) for `id` is committed. */
  started(id: number, now: number): void
  /** The attempt outcome ({markFinished}) is committed. */
  finished(finish: DeliveryFinish): void
  /** A write for `id` failed or is unknown: read it from the store next time. */
  forget(id: number): void
}

export function cacheDeliveries(store: DeliveryStatements, maxRows = 50_000): CachedDeliveries {
  const rows = new Map<number, DeliveryRow>()
  const remember = (row: DeliveryRow) => {
    if (rows.size >= maxRows && !rows.has(row.id)) rows.delete(rows.keys().next().value as number)
    rows.set(row.id, row)
  }
  return {
    ...store,
    get(id) {
      const hit = rows.get(id)
      if (hit) return hit
      const row = store.get(id)
      if (row) remember(row)
      return row
    },
    reschedule(id, status, nextAttemptAt, now) {
      rows.delete(id)
      store.reschedule(id, status, nextAttemptAt, now)
    },
    recoverInFlight(id, now) {
      rows.delete(id)
      store.recoverInFlight(id, now)
    },
    started(id, now) {
      const row = rows.get(id)
      if (row) rows.set(id, { ...row, attempts: row.attempts + 1, in_flight: 1, next_attempt_at: null, last_attempt_at: now, updated_at: now })
    },
    finished(f) {
      const row = rows.get(f.id)
      if (row) rows.set(f.id, { ...row, status: f.status, last_status_code: f.last_status_code, next_attempt_at: f.next_attempt_at, in_flight: 0, updated_at: f.updated_at })
    },
    forget(id) {
      rows.delete(id)
    },
  }
}
