// createEventFeed: pages of emitted events for GET /api/v1/events. Every event the sender
// published is listed, whatever happened to its deliveries: a delivery lost to the `drop` fault
// is exactly what a polling integration must find here. Pages follow the store's sequence (the
// order events were committed), never a clock: a simulation's created_at may lie months before
// events stored earlier, and paging by it would skip them (docs/polling.md). Not an id either: on a
// team's PostgreSQL processes commit out of id order (store/feed-order.ts).
import type { FeedAfter, FeedEvent, FeedPage, FeedQuery } from '../../../shared/contract'
import { createFeedReads, type FeedDeliveryRow, type FeedPosition, type FeedReads, type SqlEngine } from '../store'
import { encodeCursor } from './cursor'
import { parsedPayload } from '../sender'

export interface EventFeed {
  page(query: FeedQuery): Promise<FeedPage>
}

const iso = (ms: number) => new Date(ms).toISOString()

/** The place a page from `since` starts: just before the first event created at or after it. */
async function startOfSince(reads: FeedReads, since: number): Promise<FeedPosition> {
  const first = await reads.firstSince(since)
  return { seq: first === null ? Number.MAX_SAFE_INTEGER : first - 1, id: '' }
}

/** The position a page continues after. */
async function startAfter(reads: FeedReads, after: FeedAfter | null, since: number | null): Promise<FeedPosition> {
  if (after === null) return since === null ? { seq: 0, id: '' } : startOfSince(reads, since)
  // The event itself, where it still is (a cursor made before events were numbered in commit order
  // holds the rowid the event had, which is the number it was given then).
  const current = await reads.seqOf(after.event_id)
  if (current !== undefined) return { seq: current, id: after.event_id }
  if ('created_at' in after) return startOfSince(reads, after.created_at + 1)
  // Pruned: continue after its place, unless the whole history was cleared since and numbering
  // started again below it (then everything there is now is new to this poller).
  return after.seq > (await reads.lastSeq()) ? { seq: 0, id: '' } : { seq: after.seq, id: after.event_id }
}

/** The feed over a store on either engine: the same pages from a data folder and a team's PostgreSQL. */
export function createEventFeed(engine: SqlEngine): EventFeed {
  const reads = createFeedReads(engine)
  return {
    async page(query) {
      // One row more than asked says whether another page exists, without a count.
      const rows = await reads.events({
        since: query.since ?? Number.MIN_SAFE_INTEGER,
        after: await startAfter(reads, query.after, query.since),
        limit: query.limit + 1,
      })
      const hasMore = rows.length > query.limit
      const pageRows = hasMore ? rows.slice(0, query.limit) : rows
      const byEvent = new Map<string, FeedDeliveryRow[]>()
      for (const d of await reads.deliveries(pageRows.map((row) => row.id))) {
        const list = byEvent.get(d.event_id)
        if (list) list.push(d)
        else byEvent.set(d.event_id, [d])
      }
      const data: FeedEvent[] = pageRows.map((row) => ({
        event_id: row.id,
        event_type: row.event_type,
        payload: parsedPayload(row.payload),
        created_at: iso(row.created_at),
        simulation_id: row.simulation_id,
        stored_at: iso(row.stored_at ?? row.created_at),
        deliveries: (byEvent.get(row.id) ?? []).map((d) => ({
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
