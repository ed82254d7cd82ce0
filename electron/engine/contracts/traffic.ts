// The captured requests a contract check reads, on either store engine: through the store's list
// reads (the filters of `hookloop requests`) and the request rows for headers and bodies, oldest
// first; and the events Hookloop's own sender published, with their type and payload.
import { createExportReads, createListReads, type OpenedStore, type RequestListFilter } from '../store'

export interface TrafficRequest {
  id: number
  endpointSlug: string | null
  method: string
  path: string
  headers: [string, string][]
  body: Buffer | null
  bodyTruncated: boolean
  /** Refused by the receiver itself (413, 503 …): its body was never read whole. */
  refused: boolean
}

export async function readTraffic(store: OpenedStore, filter: RequestListFilter): Promise<TrafficRequest[]> {
  const rows = await createListReads(store.engine).requests(filter)
  const slugs = new Map(rows.map((r) => [r.id, r.endpointSlug]))
  // Requests hold no secret: the reads never open the store's sealed ones.
  const stored = new Map((await createExportReads(store.engine, store.secrets).requests(rows.map((r) => r.id))).map((row) => [row.id, row]))
  const out: TrafficRequest[] = []
  for (const { id } of [...rows].reverse()) {
    const row = stored.get(id)
    if (!row) continue // pruned between the two reads
    out.push({
      id,
      endpointSlug: slugs.get(id) ?? null,
      method: row.method,
      path: row.path,
      headers: JSON.parse(row.headers_json) as [string, string][],
      body: row.body,
      bodyTruncated: row.body_truncated === 1,
      refused: row.refused_reason !== null,
    })
  }
  return out
}

/** An event Hookloop's sender published: its type and its payload's JSON bytes. */
export interface SentEvent {
  id: string
  eventType: string
  payload: Buffer
}

/** The newest `limit` events published (stored from `sinceWall` on), oldest first. */
export async function readSentEvents(store: OpenedStore, filter: { sinceWall?: number; limit: number }): Promise<SentEvent[]> {
  const events = await createExportReads(store.engine, store.secrets).sentEvents(filter)
  return events.reverse().map((e) => ({ id: e.id, eventType: e.eventType, payload: e.payload }))
}
