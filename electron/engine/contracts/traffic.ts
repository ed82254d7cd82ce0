// The captured requests a contract check reads: through the store's list reads (the filters of
// `hookloop requests`) and the request rows for headers and bodies, oldest first.
import type { Database } from 'better-sqlite3'
import { createListReads, createRequestStore, createSqliteEngine, type RequestListFilter } from '../store'

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

const CHUNK = 500

export async function readTraffic(db: Database, filter: RequestListFilter): Promise<TrafficRequest[]> {
  const rows = await createListReads(createSqliteEngine(db, { closeDatabase: false })).requests(filter)
  const slugs = new Map(rows.map((r) => [r.id, r.endpointSlug]))
  const ids = rows.map((r) => r.id).reverse()
  const store = createRequestStore(db)
  const out: TrafficRequest[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    for (const row of store.byIds(ids.slice(i, i + CHUNK))) {
      out.push({
        id: row.id,
        endpointSlug: slugs.get(row.id) ?? null,
        method: row.method,
        path: row.path,
        headers: JSON.parse(row.headers_json) as [string, string][],
        body: row.body,
        bodyTruncated: row.body_truncated === 1,
        refused: row.refused_reason !== null,
      })
    }
  }
  return out
}
