// createEventFeed: pages of emitted events for GET /api/v1/events. Every event the sender
// published is listed, whatever happened to its deliveries: a delivery lost to the `drop` fault
// is exactly what a polling integration must find here. Pages follow the store's sequence (the
// order events were committed), never a clock: a simulation's created_at may lie months before
// events stored earlier, and paging by it would skip them (docs/polling.md).
import type { Database } from 'better-sqlite3'
import type { FeedAfter, FeedEvent, FeedPage, FeedQuery } from '../../../shared/contract'
import { createFeedStatements, type FeedStatements } from '../store'
import { encodeCursor } from './cursor'
import { parsedPayload } from '../sender'

export interface EventFeed {
  page(query: FeedQuery): FeedPage
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The sequence number a page continues after. */
function startAfter(statements: FeedStatements, after: FeedAfter | null, since: number | null): number {
  if (after === null) return since === null ? 0 : statements.seqBefore(since)
  // The event itself, where it still is (a vacuum may renumber the store).
  const current = statements.seqOf(after.event_id)
  if (current !== undefined) return current
  if ('created_at' in after) return statements.seqBefore(after.created_at + 1)
  // Pruned: continue after its place, unless the whole history was cleared since and numbering
  // started again below it (then everything there is now is new to this poller).
  return after.seq > statements.lastSeq() ? 0 : after.seq
}

export function createEventFeed(db: Database): EventFeed {
  const statements = createFeedStatements(db)
  return {
    page(query) {
      // One row more than asked says whether another page exists, without a count.
      const rows = statements.events({
        since: query.since ?? Number.MIN_SAFE_INTEGER,
        afterSeq: startAfter(statements, query.after, query.since),
        limit: query.limit + 1,
      })
      const hasMore = rows.length > query.limit
      const pageRows = hasMore ? rows.slice(0, query.limit) : rows
      const data: FeedEvent[] = pageRows.map((row) => ({
        event_id: row.id,
        event_type: row.event_type,
        payload: parsedPayload(row.payload),
        created_at: iso(row.created_at),
        simulation_id: row.simulation_id,
        stored_at: iso(row.stored_at ?? row.created_at),
        deliveries: statements.deliveries(row.id).map((d) => ({
          delivery_id: d.id,
          subscription_id: d.subscription_id,
          status: d.status,
          attempts: d.attempts,
          last_status_code: d.last_status_code,
          last_outcome: d.last_outcome,
          updated_at: iso(d.updated_at),
        })),
      }))
      const last = pageRows[pageRows.length - 1]
      return { data, has_more: hasMore, next_cursor: hasMore && last ? encodeCursor({ seq: last.seq, event_id: last.id }) : null }
    },
  }
}
