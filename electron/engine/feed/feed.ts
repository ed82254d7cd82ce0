// createEventFeed: pages of emitted events for GET /api/v1/events. Every event the sender
// published is listed, whatever happened to its deliveries: a delivery lost to the `drop` fault
// is exactly what a polling integration must find here.
import type { Database } from 'better-sqlite3'
import type { FeedEvent, FeedPage, FeedQuery } from '../../../shared/contract'
import { createFeedStatements } from '../store'
import { encodeCursor } from './cursor'
import { parsedPayload } from '../sender'

export interface EventFeed {
  page(query: FeedQuery): FeedPage
}

const iso = (ms: number) => new Date(ms).toISOString()

export function createEventFeed(db: Database): EventFeed {
  const statements = createFeedStatements(db)
  return {
    page(query) {
      // One row more than asked says whether another page exists, without a count.
      const rows = statements.events({
        since: query.since ?? Number.MIN_SAFE_INTEGER,
        afterAt: query.after?.created_at ?? Number.MIN_SAFE_INTEGER,
        afterId: query.after?.event_id ?? '',
        limit: query.limit + 1,
      })
      const hasMore = rows.length > query.limit
      const pageRows = hasMore ? rows.slice(0, query.limit) : rows
      const data: FeedEvent[] = pageRows.map((row) => ({
        event_id: row.id,
        event_type: row.event_type,
        payload: parsedPayload(row.payload),
        created_at: iso(row.created_at),
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
      return { data, has_more: hasMore, next_cursor: hasMore && last ? encodeCursor({ created_at: last.created_at, event_id: last.id }) : null }
    },
  }
}
