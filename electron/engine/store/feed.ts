// The polling feed's reads, on either engine: emitted events in commit order (events.commit_seq,
// feed-order.ts says why and how it is numbered) after a position, and the deliveries of a page's
// events with their latest attempt outcome, in one statement per page.
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import { jsonList } from './engine-spelling'
import type { EventRow } from './events'
import type { SqlEngine } from './sql-engine'

/** A delivery with the outcome of its latest attempt (null before the first). */
export type FeedDeliveryRow = Pick<DeliveryRow, 'id' | 'event_id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'updated_at'> & {
  last_outcome: AttemptRow['outcome'] | null
}

/** An event with its place in commit order and the simulation it was published in. */
export type FeedEventRow = EventRow & { seq: number; simulation_id: string | null }

/**
 * A place in commit order: strictly after the event numbered `seq` whose id is `id`. Ties in the
 * number (a store copied into one that had events) are broken by the id, so the order is total.
 */
export interface FeedPosition {
  seq: number
  id: string
}

export interface FeedPageQuery {
  /** created_at >= since (inclusive). */
  since: number
  after: FeedPosition
  limit: number
}

export interface FeedReads {
  events(query: FeedPageQuery): Promise<FeedEventRow[]>
  /** The number of the first event created at or after `since` (events_by_time), or null when there is none. */
  firstSince(since: number): Promise<number | null>
  /** The number of an event, or undefined when it is gone (pruned). */
  seqOf(eventId: string): Promise<number | undefined>
  /** The highest number in the store (0 when empty). */
  lastSeq(): Promise<number>
  /** The deliveries of these events, each event's in id order. */
  deliveries(eventIds: readonly string[]): Promise<FeedDeliveryRow[]>
}

export function createFeedReads(engine: SqlEngine): FeedReads {
  // Walks commit order from the position (events_by_commit_seq): an event committed later is
  // always further on, even when a simulation stamped it with an earlier created_at.
  const events = `SELECT commit_seq AS seq, id, event_type, payload, created_at, stored_at,
            (SELECT d.simulation_id FROM deliveries d WHERE d.event_id = events.id ORDER BY d.id LIMIT 1) AS simulation_id
       FROM events WHERE (commit_seq, id) > (?, ?) AND created_at >= ?
      ORDER BY commit_seq, id LIMIT ?`
  const deliveries = `SELECT d.id, d.event_id, d.subscription_id, d.status, d.attempts, d.last_status_code, d.updated_at,
            (SELECT a.outcome FROM attempts a WHERE a.delivery_id = d.id ORDER BY a.n DESC LIMIT 1) AS last_outcome
       FROM deliveries d WHERE d.event_id IN (${jsonList(engine.kind, 'text')}) ORDER BY d.event_id, d.id`
  return {
    events: (query) => engine.all<FeedEventRow>(events, [query.after.seq, query.after.id, query.since, query.limit]),
    firstSince: async (since) => (await engine.get<{ seq: number | null }>('SELECT min(commit_seq) AS seq FROM events WHERE created_at >= ?', [since]))?.seq ?? null,
    seqOf: async (eventId) => (await engine.get<{ seq: number }>('SELECT commit_seq AS seq FROM events WHERE id = ?', [eventId]))?.seq,
    lastSeq: async () => (await engine.get<{ seq: number }>('SELECT coalesce(max(commit_seq), 0) AS seq FROM events'))?.seq ?? 0,
    deliveries: (eventIds) => (eventIds.length === 0 ? Promise.resolve([]) : engine.all<FeedDeliveryRow>(deliveries, [JSON.stringify(eventIds)])),
  }
}
