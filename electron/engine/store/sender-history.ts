// Named statements for pruning what the sender keeps: settled deliveries (succeeded or failed,
// nothing scheduled, no attempt in flight) with their attempts, and the events none of whose
// deliveries is left. A delivery still pending, retrying or in flight is never selected, and the
// delete checks it again in the batch's transaction (the sender may have resent it meanwhile).
// On either store engine (SqlEngine); a batch's selection and delete run in one transaction (the
// caller's: engine.transaction, and this store made over its `tx`).
import { jsonList } from './engine-spelling'
import type { BatchLimits } from './history'
import type { SqlEngine } from './sql-engine'
import { mergeStreams, subscriptionIds, wallAgeOrder } from './wall-age-reads'

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
  nextBatch(selection: SenderHistorySelection, limits: BatchLimits): Promise<SenderHistoryBatch>
  /** Deletes those still settled, their attempts and the events left without a delivery. Inside a transaction. */
  deleteIds(ids: readonly number[]): Promise<SenderPruned>
  /** Deletes up to `limit` events stored before the wall time `before` that have no delivery (published to no subscription, or whose deliveries went). */
  deleteOrphanEvents(before: number, limit: number): Promise<number>
  /** created_wall_at of the oldest settled delivery, null when there is none. */
  oldestSettledAt(): Promise<number | null>
  settledCount(): Promise<number>
  maxId(): Promise<number>
}

const SETTLED = "status IN ('succeeded', 'failed') AND next_attempt_at IS NULL AND in_flight = 0"

interface AgedRow {
  id: number
  at: number
}

// An event's payload is counted with each of its deliveries (most events have one).
const CANDIDATE = `id,
  (SELECT coalesce(sum(coalesce(length(response_body), 0) + coalesce(length(request_headers_json), 0) + coalesce(length(response_headers_json), 0) + coalesce(length(error), 0) + 64), 0)
     FROM attempts WHERE delivery_id = deliveries.id)
  + coalesce((SELECT length(payload) FROM events WHERE events.id = deliveries.event_id), 0) AS weight`

// Ages are wall ages (docs/time.md): created_wall_at < before, one subscription at a time on
// deliveries_by_subscription_wall, oldest first, and merged (wall-age-reads.ts). A delivery on
// the wall clock also waits until it settled before then (updated_at); a simulated one's
// updated_at is on its simulation's clock, not comparable, and it settled long ago in wall time.
// The weights are read after the merge, for the batch's rows only (each stream reads up to the
// limit, most of which the merge leaves out).
/** Exported for the plan checks (EXPLAIN QUERY PLAN), as OLDEST_SETTLED_SQL. */
export const SETTLED_BY_AGE_SQL = `SELECT id, created_wall_at AS at FROM deliveries INDEXED BY deliveries_by_subscription_wall
  WHERE subscription_id = ? AND created_wall_at < ?
  AND status IN ('succeeded', 'failed') AND (simulation_id IS NOT NULL OR updated_at < ?)
  AND next_attempt_at IS NULL AND in_flight = 0 AND id <= ? ORDER BY created_wall_at, id LIMIT ?`
const DELETE_ORPHANS = `DELETE FROM events WHERE id IN (SELECT id FROM events WHERE stored_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries WHERE deliveries.event_id = events.id) ORDER BY stored_at LIMIT ?)`
// A subscription's oldest settled delivery: its walk on deliveries_by_subscription_wall stops at the first.
export const OLDEST_SETTLED_SQL = `SELECT created_wall_at AS at FROM deliveries INDEXED BY deliveries_by_subscription_wall
  WHERE subscription_id = ? AND created_wall_at IS NOT NULL AND ${SETTLED} ORDER BY created_wall_at LIMIT 1`
const COUNT = `SELECT count(*) AS n FROM deliveries WHERE ${SETTLED}`
const MAX_ID = 'SELECT coalesce(max(id), 0) AS id FROM deliveries'

export function createSenderHistoryStore(engine: SqlEngine): SenderHistoryStore {
  const bigintIds = `(${jsonList(engine.kind, 'id')})`
  // The deliveries still settled, locked on PostgreSQL until the batch commits: a sender that
  // resends one meanwhile waits, then finds it gone (SQLite's IMMEDIATE transaction holds the
  // whole file already; it has no FOR UPDATE).
  const stillSettled = `SELECT id FROM deliveries WHERE id IN ${bigintIds} AND ${SETTLED}${engine.kind === 'postgres' ? ' FOR UPDATE' : ''}`
  // The requests our attempts made, unlinked from them: received traffic from then on (the counters'
  // triggers see each unlinked arrival join its group in turn, on both engines: count-definitions.ts).
  const unlinkRequests = `UPDATE requests SET attempt_id = NULL WHERE attempt_id IN (SELECT id FROM attempts WHERE delivery_id IN ${bigintIds})`
  const deleteAttempts = `DELETE FROM attempts WHERE delivery_id IN ${bigintIds}`
  const eventsOf = `SELECT DISTINCT event_id FROM deliveries WHERE id IN ${bigintIds}`
  const deleteDeliveries = `DELETE FROM deliveries WHERE id IN ${bigintIds}`
  const weightsOf = `SELECT ${CANDIDATE} FROM deliveries WHERE id IN ${bigintIds}`
  const deleteLoneEvents = `DELETE FROM events WHERE id IN (${jsonList(engine.kind, 'text')}) AND NOT EXISTS (SELECT 1 FROM deliveries WHERE deliveries.event_id = events.id)`

  return {
    async nextBatch(selection, limits) {
      const before = selection.before ?? Number.MAX_SAFE_INTEGER
      const streams: AgedRow[][] = []
      for (const subscriptionId of await subscriptionIds(engine)) {
        streams.push(await engine.all<AgedRow>(SETTLED_BY_AGE_SQL, [subscriptionId, before, before, selection.maxId ?? Number.MAX_SAFE_INTEGER, limits.rows]))
      }
      const rows = mergeStreams(streams, wallAgeOrder(engine.kind, 'oldest'), limits.rows)
      const batch: SenderHistoryBatch = { ids: [], bytes: 0 }
      if (rows.length === 0) return batch
      const weights = new Map((await engine.all<{ id: number; weight: number }>(weightsOf, [JSON.stringify(rows.map((row) => row.id))])).map((row) => [row.id, row.weight]))
      for (const row of rows) {
        const weight = weights.get(row.id) ?? 0
        if (batch.ids.length > 0 && batch.bytes + weight > limits.bytes) break
        batch.ids.push(row.id)
        batch.bytes += weight
      }
      return batch
    },
    async deleteIds(list) {
      if (list.length === 0) return { deliveries: 0, attempts: 0, events: 0 }
      const ids = JSON.stringify((await engine.all<{ id: number }>(stillSettled, [JSON.stringify(list)])).map((r) => r.id))
      await engine.run(unlinkRequests, [ids])
      const attempts = (await engine.run(deleteAttempts, [ids])).changes
      const events = JSON.stringify((await engine.all<{ event_id: string }>(eventsOf, [ids])).map((r) => r.event_id))
      const deliveries = (await engine.run(deleteDeliveries, [ids])).changes
      return { deliveries, attempts, events: (await engine.run(deleteLoneEvents, [events])).changes }
    },
    deleteOrphanEvents: async (before, limit) => (await engine.run(DELETE_ORPHANS, [before, limit])).changes,
    async oldestSettledAt() {
      let oldest: number | null = null
      for (const subscriptionId of await subscriptionIds(engine)) {
        const at = (await engine.get<{ at: number }>(OLDEST_SETTLED_SQL, [subscriptionId]))?.at
        if (at !== undefined && (oldest === null || at < oldest)) oldest = at
      }
      return oldest
    },
    settledCount: async () => Number((await engine.get<{ n: number }>(COUNT))?.n ?? 0),
    maxId: async () => Number((await engine.get<{ id: number }>(MAX_ID))?.id ?? 0),
  }
}
