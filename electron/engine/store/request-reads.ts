// Read-only statements over captured requests for checks and exports: all of an endpoint's
// requests in arrival order, requests at a path in a time range, and requests by id.
import type { Database } from 'better-sqlite3'
import type { RequestRow } from './requests'

export interface RequestReads {
  byEndpoint(endpointId: string): RequestRow[]
  atPath(path: string, from: number, to: number): RequestRow[]
  byIds(ids: readonly number[]): RequestRow[]
}

export function createRequestReads(db: Database): RequestReads {
  const byEndpoint = db.prepare('SELECT * FROM requests WHERE endpoint_id = ? ORDER BY received_at, id')
  const atPath = db.prepare('SELECT * FROM requests WHERE path = ? AND received_at >= ? AND received_at < ? ORDER BY received_at, id')
  const byId = db.prepare('SELECT * FROM requests WHERE id = ?')
  return {
    byEndpoint: (endpointId) => byEndpoint.all(endpointId) as RequestRow[],
    atPath: (path, from, to) => atPath.all(path, from, to) as RequestRow[],
    byIds: (ids) => ids.map((id) => byId.get(id) as RequestRow | undefined).filter((row): row is RequestRow => row !== undefined),
  }
}
