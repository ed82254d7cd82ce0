// Named statements over `forward_legs`: one row per request sent on to a target (forward,
// forward-copy, resend) with exactly what was sent and what the target answered. Legs are written
// by the receiver's capture writer (INSERT_FORWARD_LEG_SQL, the same group commit and thread as
// the requests they carry, so a leg commits after its request and never on the event loop); this
// store reads them back. A leg that sent the captured body stores no copy of it
// (request_body_captured): its bytes are read from the request's row.
import type { Database } from 'better-sqlite3'
import type { ForwardLeg, ForwardLegKind, ForwardLegOutcome } from '../../../shared/receiver'
import { writeSql } from './changes'

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
  request_body_captured: number
  response_status: number | null
  response_headers_json: string
  response_body: Buffer | null
  response_body_size: number
  response_body_truncated: number
  latency_ms: number | null
  outcome: string
  error: string | null
}

/** A leg as the writer binds it (the parameters INSERT_FORWARD_LEG_SQL names). */
export type ForwardLegWriteRow = ForwardLegRow

/** A leg as read: with the captured request's body when the leg points at it. */
export type ForwardLegReadRow = ForwardLegRow & { captured_body: Buffer | null }

export interface ForwardLegStore {
  /** The highest leg id stored (0 when none): new legs are numbered after it. */
  maxId(): number
  /** The legs of one captured request, in the order they were sent. */
  listFor(requestId: number): ForwardLeg[]
  /** The legs of many requests at once (the timeline), keyed by request id. */
  listForMany(requestIds: readonly number[]): Map<number, ForwardLeg[]>
  get(id: number): ForwardLeg | undefined
}

const COLUMNS = [
  'request_id', 'kind', 'target_url', 'sent_at', 'request_method', 'request_url', 'request_headers_json', 'request_body', 'request_body_captured',
  'response_status', 'response_headers_json', 'response_body', 'response_body_size', 'response_body_truncated', 'latency_ms', 'outcome', 'error',
] as const

// Ids are numbered in the process (the leg is known, id included, before its commit). Another
// process writing legs to the same folder meanwhile (`hookloop resend` beside a running app)
// could take the next number first: the row then gets a fresh id instead of failing its batch —
// a kept batch that can never commit would hold up every capture behind it. (On a team's
// PostgreSQL the ids come from the table's sequence and never collide; the CAST types the
// parameter there, which SQLite reads as the integer it is.)
export const INSERT_FORWARD_LEG_SQL = writeSql(
  'forward_legs',
  `INSERT INTO forward_legs (id, ${COLUMNS.join(', ')})
   VALUES (CASE WHEN EXISTS (SELECT 1 FROM forward_legs WHERE id = ?) THEN NULL ELSE CAST(? AS BIGINT) END, ${COLUMNS.map(() => '?').join(', ')})`,
  ['id', 'id', ...COLUMNS],
)

const toBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
const NO_BYTES = Buffer.alloc(0)

/**
 * The leg as a row for INSERT_FORWARD_LEG_SQL. `bodyCaptured`: the leg sent its request's
 * captured body, whole: the row points at it instead of holding the bytes again.
 */
export function encodeLeg(leg: ForwardLeg, bodyCaptured: boolean): ForwardLegWriteRow {
  return {
    id: leg.id,
    request_id: leg.requestId,
    kind: leg.kind,
    target_url: leg.targetUrl,
    sent_at: leg.sentAt,
    request_method: leg.request.method,
    request_url: leg.request.url,
    request_headers_json: JSON.stringify(leg.request.headers),
    request_body: bodyCaptured ? NO_BYTES : toBuffer(leg.request.body),
    request_body_captured: bodyCaptured ? 1 : 0,
    response_status: leg.response.status,
    response_headers_json: JSON.stringify(leg.response.headers),
    response_body: leg.response.body === null ? null : toBuffer(leg.response.body),
    response_body_size: leg.response.bodySize,
    response_body_truncated: leg.response.bodyTruncated ? 1 : 0,
    latency_ms: leg.latencyMs,
    outcome: leg.outcome,
    error: leg.error,
  }
}

export function legFromRow(r: ForwardLegReadRow): ForwardLeg {
  return {
    id: r.id,
    requestId: r.request_id,
    kind: r.kind as ForwardLegKind,
    targetUrl: r.target_url,
    sentAt: r.sent_at,
    request: { method: r.request_method, url: r.request_url, headers: JSON.parse(r.request_headers_json) as [string, string][], body: r.request_body_captured === 1 ? (r.captured_body ?? NO_BYTES) : r.request_body },
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

const fromRow = legFromRow

// The captured body comes along only for a leg that points at it (also a scenario run's read, scenario-records.ts).
export const FORWARD_LEGS_SELECT = `SELECT l.*, CASE WHEN l.request_body_captured = 1 THEN r.body END AS captured_body
    FROM forward_legs l LEFT JOIN requests r ON r.id = l.request_id`
/** A request's forward legs, also run through SqlEngine (store/detail-reads.ts). */
export const LEGS_OF_REQUEST_SQL = `${FORWARD_LEGS_SELECT} WHERE l.request_id = ? ORDER BY l.id`

export function createForwardLegStore(db: Database): ForwardLegStore {
  const selectMaxId = db.prepare('SELECT coalesce(max(id), 0) FROM forward_legs').pluck()
  const select = FORWARD_LEGS_SELECT
  const byRequest = db.prepare(LEGS_OF_REQUEST_SQL)
  const byId = db.prepare(`${select} WHERE l.id = ?`)
  // json_each keeps it one statement whatever the number of ids.
  const byRequests = db.prepare(`${select} WHERE l.request_id IN (SELECT value FROM json_each(?)) ORDER BY l.id`)
  return {
    maxId: () => selectMaxId.get() as number,
    listFor: (requestId) => (byRequest.all(requestId) as ForwardLegReadRow[]).map(fromRow),
    listForMany(requestIds) {
      const out = new Map<number, ForwardLeg[]>()
      if (requestIds.length === 0) return out
      for (const row of byRequests.all(JSON.stringify(requestIds)) as ForwardLegReadRow[]) out.set(row.request_id, [...(out.get(row.request_id) ?? []), fromRow(row)])
      return out
    },
    get(id) {
      const row = byId.get(id) as ForwardLegReadRow | undefined
      return row && fromRow(row)
    },
  }
}
