// Named statements for pruning what the sender keeps: settled deliveries (succeeded or failed,
// nothing scheduled, no attempt in flight) with their attempts, and the events none of whose
// deliveries is left. A delivery still pending, retrying or in flight is never selected, and the
// delete checks it again in its own transaction (the sender may have resent it meanwhile).
import type { Database } from 'better-sqlite3'
import type { BatchLimits } from './history'

export interface SenderHistorySelection {
  /** Only deliveries made (and, on the wall clock, settled) before this wall time, ms. */
  before?: number
  /** Only deliveries up to this id (Clear history: what existed when it was asked). */
  maxId?: number
}

export interface SenderHistoryBatch {
  ids: number[]
  /** Bytes their attempts hold (answers and headers) and their events' payloads, roughly. */
  bytes: number
}

export interface SenderPruned {
  deliveries: number
  attempts: number
  events: number
}

export interface SenderHistoryStore {
  /** The next batch of the oldest settled deliveries: at most limits.rows, and stops once limits.bytes is reached (at least one). */
  nextBatch(selection: SenderHistorySelection, limits: BatchLimits): SenderHistoryBatch
  /** Deletes those still settled, their attempts and the events left without a delivery. */
  deleteIds(ids: readonly number[]): SenderPruned
  /** Deletes up to `limit` events stored before the wall time `before` that have no delivery (published to no subscription, or whose deliveries went). */
  deleteOrphanEvents(before: number, limit: number): number
  /** created_wall_at of the oldest settled delivery, null when there is none. */
  oldestSettledAt(): number | null
  settledCount(): number
  maxId(): number
}

const SETTLED = "status IN ('succeeded', 'failed') AND next_attempt_at IS NULL AND in_flight = 0"

interface CandidateRow {
  id: number
  weight: number
}

// An event's payload is counted with each of its deliveries (most events have one).
const CANDIDATE = `id,
  (SELECT coalesce(sum(coalesce(length(response_body), 0) + coalesce(length(request_headers_json), 0) + coalesce(length(response_headers_json), 0) + coalesce(length(error), 0) + 64), 0)
     FROM attempts WHERE delivery_id = deliveries.id)
  + coalesce((SELECT length(payload) FROM events WHERE events.id = deliveries.event_id), 0) AS weight`

export function createSenderHistoryStore(db: Database): SenderHistoryStore {
  // Ages are wall ages (docs/time.md): created_wall_at < before walks deliveries_by_wall_age. A
  // delivery on the wall clock also waits until it settled before then (updated_at); a simulated
  // one's updated_at is on its simulation's clock, not comparable, and it settled long ago in wall time.
  const byAge = db.prepare(
    `SELECT ${CANDIDATE} FROM deliveries INDEXED BY deliveries_by_wall_age WHERE created_wall_at < @before
       AND status IN ('succeeded', 'failed') AND (simulation_id IS NOT NULL OR updated_at < @before)
       AND next_attempt_at IS NULL AND in_flight = 0 AND id <= @maxId ORDER BY created_wall_at, id LIMIT @limit`,
  )
  const stillSettled = db.prepare(`SELECT id FROM deliveries WHERE id IN (SELECT value FROM json_each(?)) AND ${SETTLED}`).pluck()
  const clearRequestPointers = db.prepare(
    'UPDATE requests SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM attempts WHERE delivery_id IN (SELECT value FROM json_each(?)))',
  )
  const deleteAttempts = db.prepare('DELETE FROM attempts WHERE delivery_id IN (SELECT value FROM json_each(?))')
  const eventsOf = db.prepare('SELECT DISTINCT event_id FROM deliveries WHERE id IN (SELECT value FROM json_each(?))').pluck()
  const deleteDeliveries = db.prepare('DELETE FROM deliveries WHERE id IN (SELECT value FROM json_each(?))')
  const deleteLoneEvents = db.prepare(
    'DELETE FROM events WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM deliveries WHERE deliveries.event_id = events.id)',
  )
  const deleteOrphans = db.prepare(
    `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE stored_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries WHERE deliveries.event_id = events.id) ORDER BY stored_at LIMIT ?)`,
  )
  const oldest = db.prepare(`SELECT min(created_wall_at) FROM deliveries WHERE ${SETTLED}`).pluck()
  const count = db.prepare(`SELECT count(*) FROM deliveries WHERE ${SETTLED}`).pluck()
  const maxId = db.prepare('SELECT coalesce(max(id), 0) FROM deliveries').pluck()

  // IMMEDIATE: the check that they are still settled and the deletes see the same store.
  const remove = db.transaction((json: string): SenderPruned => {
    const ids = JSON.stringify(stillSettled.all(json))
    clearRequestPointers.run(ids)
    const attempts = deleteAttempts.run(ids).changes
    const events = JSON.stringify(eventsOf.all(ids))
    const deliveries = deleteDeliveries.run(ids).changes
    return { deliveries, attempts, events: deleteLoneEvents.run(events).changes }
  })

  return {
    nextBatch(selection, limits) {
      const rows = byAge.all({ before: selection.before ?? Number.MAX_SAFE_INTEGER, maxId: selection.maxId ?? Number.MAX_SAFE_INTEGER, limit: limits.rows }) as CandidateRow[]
      const batch: SenderHistoryBatch = { ids: [], bytes: 0 }
      for (const row of rows) {
        if (batch.ids.length > 0 && batch.bytes + row.weight > limits.bytes) break
        batch.ids.push(row.id)
        batch.bytes += row.weight
      }
      return batch
    },
    deleteIds: (ids) => (ids.length === 0 ? { deliveries: 0, attempts: 0, events: 0 } : remove.immediate(JSON.stringify(ids))),
    deleteOrphanEvents: (before, limit) => deleteOrphans.run(before, limit).changes,
    oldestSettledAt: () => (oldest.get() as number | null) ?? null,
    settledCount: () => count.get() as number,
    maxId: () => maxId.get() as number,
  }
}
