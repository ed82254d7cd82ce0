// Named statements over `forward_legs`: one row per request sent on to a target (forward,
// forward-copy, resend) with exactly what was sent and what the target answered.
import type { Database } from 'better-sqlite3'
import type { ForwardLeg, ForwardLegKind, ForwardLegOutcome } from '../../../shared/forward'

interface ForwardLegRow {
  id: number
  request_id: number
  kind: string
  target_url: string
  sent_at: number
  request_method: string
  request_url: string
  request_headers_json: string
  request_body: Buffer
  response_status: number | null
  response_headers_json: string
  response_body: Buffer | null
  response_body_size: number
  response_body_truncated: number
  latency_ms: number | null
  outcome: string
  error: string | null
}

export interface ForwardLegStore {
  /** Stores a leg; returns its id. */
  insert(leg: Omit<ForwardLeg, 'id'>): number
  /** The legs of one captured request, in the order they were sent. */
  listFor(requestId: number): ForwardLeg[]
  /** The legs of many requests at once (the timeline), keyed by request id. */
  listForMany(requestIds: readonly number[]): Map<number, ForwardLeg[]>
  get(id: number): ForwardLeg | undefined
}

const toBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

function fromRow(r: ForwardLegRow): ForwardLeg {
  return {
    id: r.id,
    requestId: r.request_id,
    kind: r.kind as ForwardLegKind,
    targetUrl: r.target_url,
    sentAt: r.sent_at,
    request: { method: r.request_method, url: r.request_url, headers: JSON.parse(r.request_headers_json) as [string, string][], body: r.request_body },
    response: {
      status: r.response_status,
      headers: JSON.parse(r.response_headers_json) as [string, string][],
      body: r.response_body,
      bodySize: r.response_body_size,
      bodyTruncated: r.response_body_truncated === 1,
    },
    latencyMs: r.latency_ms,
    outcome: r.outcome as ForwardLegOutcome,
    error: r.error,
  }
}

export function createForwardLegStore(db: Database): ForwardLegStore {
  const insert = db.prepare(
    `INSERT INTO forward_legs (request_id, kind, target_url, sent_at, request_method, request_url, request_headers_json, request_body,
       response_status, response_headers_json, response_body, response_body_size, response_body_truncated, latency_ms, outcome, error)
     VALUES (@request_id, @kind, @target_url, @sent_at, @request_method, @request_url, @request_headers_json, @request_body,
       @response_status, @response_headers_json, @response_body, @response_body_size, @response_body_truncated, @latency_ms, @outcome, @error)`,
  )
  const byRequest = db.prepare('SELECT * FROM forward_legs WHERE request_id = ? ORDER BY id')
  const byId = db.prepare('SELECT * FROM forward_legs WHERE id = ?')
  return {
    insert(leg) {
      const info = insert.run({
        request_id: leg.requestId,
        kind: leg.kind,
        target_url: leg.targetUrl,
        sent_at: leg.sentAt,
        request_method: leg.request.method,
        request_url: leg.request.url,
        request_headers_json: JSON.stringify(leg.request.headers),
        request_body: toBuffer(leg.request.body),
        response_status: leg.response.status,
        response_headers_json: JSON.stringify(leg.response.headers),
        response_body: leg.response.body === null ? null : toBuffer(leg.response.body),
        response_body_size: leg.response.bodySize,
        response_body_truncated: leg.response.bodyTruncated ? 1 : 0,
        latency_ms: leg.latencyMs,
        outcome: leg.outcome,
        error: leg.error,
      })
      return Number(info.lastInsertRowid)
    },
    listFor: (requestId) => (byRequest.all(requestId) as ForwardLegRow[]).map(fromRow),
    listForMany(requestIds) {
      const out = new Map<number, ForwardLeg[]>()
      if (requestIds.length === 0) return out
      // json_each keeps it one statement whatever the number of ids.
      const rows = db.prepare('SELECT * FROM forward_legs WHERE request_id IN (SELECT value FROM json_each(?)) ORDER BY id').all(JSON.stringify(requestIds)) as ForwardLegRow[]
      for (const row of rows) out.set(row.request_id, [...(out.get(row.request_id) ?? []), fromRow(row)])
      return out
    },
    get(id) {
      const row = byId.get(id) as ForwardLegRow | undefined
      return row && fromRow(row)
    },
  }
}
