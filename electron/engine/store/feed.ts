// Named statements for the reconciliation feed: emitted events in (created_at, id) order after a
// position, and each event's deliveries with their latest attempt outcome.
import type { Database } from 'better-sqlite3'
import type { DeliveryStatus } from './deliveries'

export interface FeedEventRow {
  id: string
  event_type: string
  payload: Buffer
  created_at: number
}

export interface FeedDeliveryRow {
  id: number
  subscription_id: string
  status: DeliveryStatus
  attempts: number
  last_status_code: number | null
  last_outcome: string | null
  updated_at: number
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
  events(query: FeedPageQuery): FeedEventRow[]
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
    events: (query) => events.all(query) as FeedEventRow[],
    deliveries: (eventId) => deliveries.all(eventId) as FeedDeliveryRow[],
  }
}
