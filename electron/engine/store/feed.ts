// Named statements for the polling feed: emitted events in the store's sequence (rowid: the order
// they were committed, whatever clock stamped created_at) after a position, and each event's
// deliveries with their latest attempt outcome.
import type { Database } from 'better-sqlite3'
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'

/** A delivery with the outcome of its latest attempt (null before the first). */
export type FeedDeliveryRow = Pick<DeliveryRow, 'id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'updated_at'> & {
  last_outcome: AttemptRow['outcome'] | null
}

/** An event with its place in the store's sequence and the simulation it was published in. */
export type FeedEventRow = EventRow & { seq: number; simulation_id: string | null }

export interface FeedPageQuery {
  /** created_at >= since (inclusive). */
  since: number
  /** Strictly after this sequence number. */
  afterSeq: number
  limit: number
}

export interface FeedStatements {
  events(query: FeedPageQuery): FeedEventRow[]
  /** Where a page from `since` starts: just before the first event created at or after it (events_by_time). */
  seqBefore(since: number): number
  /** The sequence number of an event, or undefined when it is gone (pruned). */
  seqOf(eventId: string): number | undefined
  /** The highest sequence number in the store (0 when empty). */
  lastSeq(): number
  deliveries(eventId: string): FeedDeliveryRow[]
}

export function createFeedStatements(db: Database): FeedStatements {
  // Walks the rowid from the position: an event stored later is always further on, even when a
  // simulation stamped it with an earlier created_at.
  const events = db.prepare(
    `SELECT rowid AS seq, id, event_type, payload, created_at, stored_at,
            (SELECT d.simulation_id FROM deliveries d WHERE d.event_id = events.id ORDER BY d.id LIMIT 1) AS simulation_id
       FROM events WHERE rowid > @afterSeq AND created_at >= @since
      ORDER BY rowid LIMIT @limit`,
  )
  const firstSince = db.prepare('SELECT min(rowid) FROM events WHERE created_at >= ?').pluck()
  const seqOf = db.prepare('SELECT rowid FROM events WHERE id = ?').pluck()
  const lastSeq = db.prepare('SELECT coalesce(max(rowid), 0) FROM events').pluck()
  const deliveries = db.prepare(
    `SELECT d.id, d.subscription_id, d.status, d.attempts, d.last_status_code, d.updated_at,
            (SELECT a.outcome FROM attempts a WHERE a.delivery_id = d.id ORDER BY a.n DESC LIMIT 1) AS last_outcome
       FROM deliveries d WHERE d.event_id = ? ORDER BY d.id`,
  )
  return {
    events: (query) => events.all(query) as FeedEventRow[],
    seqBefore(since) {
      const first = firstSince.get(since) as number | null
      return first === null ? Number.MAX_SAFE_INTEGER : first - 1
    },
    seqOf: (eventId) => seqOf.get(eventId) as number | undefined,
    lastSeq: () => lastSeq.get() as number,
    deliveries: (eventId) => deliveries.all(eventId) as FeedDeliveryRow[],
  }
}
