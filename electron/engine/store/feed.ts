// Named statements for the polling feed: emitted events in (created_at, id) order after a
// position, and each event's deliveries with their latest attempt outcome.
import type { Database } from 'better-sqlite3'
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'

/** A delivery with the outcome of its latest attempt (null before the first). */
export type FeedDeliveryRow = Pick<DeliveryRow, 'id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'updated_at'> & {
  last_outcome: AttemptRow['outcome'] | null
}

export interface FeedPageQuery {
  /** created_at >= since (inclusive). */
  since: number
  /** Strictly after (afterAt, afterId). */
  afterAt: number
  afterId: string
  limit: number
}

export interface FeedStatements {
  events(query: FeedPageQuery): EventRow[]
  deliveries(eventId: string): FeedDeliveryRow[]
}

export function createFeedStatements(db: Database): FeedStatements {
  // Row-value comparison walks events_by_time and keeps ties on created_at ordered by id.
  const events = db.prepare(
    `SELECT id, event_type, payload, created_at FROM events
      WHERE created_at >= @since AND (created_at, id) > (@afterAt, @afterId)
      ORDER BY created_at, id LIMIT @limit`,
  )
  const deliveries = db.prepare(
    `SELECT d.id, d.subscription_id, d.status, d.attempts, d.last_status_code, d.updated_at,
            (SELECT a.outcome FROM attempts a WHERE a.delivery_id = d.id ORDER BY a.n DESC LIMIT 1) AS last_outcome
       FROM deliveries d WHERE d.event_id = ? ORDER BY d.id`,
  )
  return {
    events: (query) => events.all(query) as EventRow[],
    deliveries: (eventId) => deliveries.all(eventId) as FeedDeliveryRow[],
  }
}
