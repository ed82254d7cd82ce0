// The timeline's read model, straight from the store: one row per delivery (sender side) and one
// row per dedupe key at an endpoint for requests no attempt of ours made (receive-only). Reads
// only; the engine's modules own every write.
import type { Database } from 'better-sqlite3'
import type { DeliveryStatus, MarkTone, SignatureBadge, TimelineFilter, TimelineMark, TimelineRow } from '../../../shared/contract'
import type { DeliveryRow } from '../store/deliveries'
import type { SchemeId, VerifyReason } from '../../../shared/signatures'

/** The columns of a delivery the timeline reads (the store's row, with its event's type). */
type DeliveryRecord = Pick<DeliveryRow, 'id' | 'event_id' | 'subscription_id' | 'status' | 'attempts' | 'last_status_code' | 'last_attempt_at' | 'next_attempt_at' | 'created_at'> & {
  event_type: string
}

interface AttemptRecord {
  id: number
  delivery_id: number
  n: number
  started_at: number
  duration_ms: number | null
  outcome: string
  status_code: number | null
  decision: string
  next_attempt_at: number | null
  verify_valid: number | null
  verify_reason: string | null
  verify_json: string | null
  duplicate_number: number | null
}

interface RequestRecord {
  id: number
  endpoint_id: string | null
  received_at: number
  response_status: number | null
  response_ms: number | null
  fault_json: string | null
  verify_valid: number | null
  verify_reason: string | null
  verify_json: string | null
  dedupe_key: string | null
  duplicate_number: number | null
  event_type: string | null
}

export interface GroupKey {
  endpointId: string | null
  key: string
}

/** The key that groups receive-only requests: the dedupe key, or the request alone. */
const GROUP_SQL = `COALESCE(dedupe_key, 'request:' || id)`
const EVENT_TYPE_SQL = `CASE WHEN json_valid(CAST(body AS TEXT)) THEN COALESCE(json_extract(CAST(body AS TEXT), '$.event_type'), json_extract(CAST(body AS TEXT), '$.type'), json_extract(CAST(body AS TEXT), '$.event')) END`

export function createTimelineRead(db: Database) {
  const deliveryById = db.prepare<[number], DeliveryRecord>(
    `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, d.attempts, d.last_status_code, d.last_attempt_at,
            d.next_attempt_at, d.created_at
       FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?`,
  )
  // The request our receiver captured for each attempt (loop mode) tells the signature verdict
  // and the duplicate number the receiving side saw.
  const attemptsOf = db.prepare<[number], AttemptRecord>(
    `SELECT a.id, a.delivery_id, a.n, a.started_at, a.duration_ms, a.outcome, a.status_code, a.decision, a.next_attempt_at,
            r.verify_valid, r.verify_reason, r.verify_json, r.duplicate_number
       FROM attempts a LEFT JOIN requests r ON r.attempt_id = a.id
      WHERE a.delivery_id = ? ORDER BY a.n`,
  )
  const requestsOfGroup = db.prepare<[string | null, string], RequestRecord>(
    `SELECT id, endpoint_id, received_at, response_status, response_ms, fault_json, verify_valid, verify_reason, verify_json,
            dedupe_key, duplicate_number, ${EVENT_TYPE_SQL} AS event_type
       FROM requests
      WHERE attempt_id IS NULL AND endpoint_id IS ? AND ${GROUP_SQL} = ?
      ORDER BY id LIMIT 200`,
  )
  const groupOfRequest = db.prepare<[number], { endpoint_id: string | null; key: string; attempt_id: number | null; delivery_id: number | null }>(
    `SELECT r.endpoint_id, COALESCE(r.dedupe_key, 'request:' || r.id) AS key, r.attempt_id, a.delivery_id
       FROM requests r LEFT JOIN attempts a ON a.id = r.attempt_id WHERE r.id = ?`,
  )

  function deliveryRow(id: number): TimelineRow | null {
    const d = deliveryById.get(id)
    if (!d) return null
    const attempts = attemptsOf.all(id)
    const marks: TimelineMark[] = attempts.map((a, index) => ({
      kind: 'attempt',
      id: a.id,
      n: a.n,
      at: a.started_at,
      durationMs: a.duration_ms,
      tone: attemptTone(a, index === attempts.length - 1, d.status),
      label: a.decision === 'pending' ? '…' : outcomeLabel(a.outcome, a.status_code),
      nextAt: a.next_attempt_at,
    }))
    const last = attempts[attempts.length - 1]
    const duplicates = attempts.reduce((max, a) => Math.max(max, (a.duplicate_number ?? 1) - 1), 0)
    return {
      key: `d:${d.id}`,
      kind: 'delivery',
      deliveryId: d.id,
      eventId: d.event_id,
      eventType: d.event_type,
      status: d.status,
      subscriptionId: d.subscription_id,
      endpointId: null,
      attempts: d.attempts,
      lastStatusCode: d.last_status_code,
      firstAt: attempts[0]?.started_at ?? d.created_at,
      lastAt: d.last_attempt_at,
      nextAt: d.next_attempt_at,
      signature: last ? badge(last.verify_valid, last.verify_reason, last.verify_json) : { state: 'none' },
      duplicates,
      marks,
    }
  }

  function receivedRow(group: GroupKey): TimelineRow | null {
    const requests = requestsOfGroup.all(group.endpointId, group.key)
    const first = requests[0]
    const last = requests[requests.length - 1]
    if (!first || !last) return null
    return {
      key: `r:${group.endpointId ?? '-'}:${group.key}`,
      kind: 'received',
      deliveryId: null,
      eventId: first.dedupe_key ?? `request #${first.id}`,
      eventType: first.event_type ?? '',
      status: 'received',
      subscriptionId: null,
      endpointId: group.endpointId,
      attempts: requests.length,
      lastStatusCode: last.response_status,
      firstAt: first.received_at,
      lastAt: last.received_at,
      nextAt: null,
      signature: badge(last.verify_valid, last.verify_reason, last.verify_json),
      duplicates: Math.max(0, (last.duplicate_number ?? 1) - 1, requests.length - 1),
      marks: requests.map((r, index) => ({
        kind: 'request',
        id: r.id,
        n: index + 1,
        at: r.received_at,
        durationMs: r.response_ms,
        tone: statusTone(r.response_status),
        label: r.response_status === null ? 'no answer' : String(r.response_status),
        nextAt: null,
      })),
    }
  }

  /** Which timeline row a captured request belongs to. */
  function rowOfRequest(requestId: number): { deliveryId: number } | GroupKey | null {
    const found = groupOfRequest.get(requestId)
    if (!found) return null
    if (found.delivery_id !== null) return { deliveryId: found.delivery_id }
    if (found.attempt_id !== null) return null // the attempt is not recorded yet; its delivery row follows
    return { endpointId: found.endpoint_id, key: found.key }
  }

  // Newest first, read as two ordered streams and merged: deliveries by id (insertion order, so
  // SQLite walks the rowid backwards and never sorts the whole table) and receive-only groups by
  // their first arrival.
  function page(filter: TimelineFilter, offset: number, limit: number): { rows: TimelineRow[]; total: number } {
    const parts = timelineParts(filter)
    const k = offset + limit
    type Ref = { kind: 'd' | 'r'; ref: number; endpoint_id: string | null; gkey: string | null; first_at: number }
    let total = 0
    const refs: Ref[] = []
    if (parts.deliveries) {
      const { from, params } = parts.deliveries
      total += (db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n
      refs.push(...(db.prepare(`SELECT 'd' AS kind, d.id AS ref, NULL AS endpoint_id, NULL AS gkey, d.created_at AS first_at ${from} ORDER BY d.id DESC LIMIT ?`).all(...params, k) as Ref[]))
    }
    if (parts.received) {
      const { sql, params } = parts.received
      total += (db.prepare(`SELECT COUNT(*) AS n FROM (${sql})`).get(...params) as { n: number }).n
      refs.push(...(db.prepare(`${sql} ORDER BY first_at DESC, ref DESC LIMIT ?`).all(...params, k) as Ref[]))
    }
    if (parts.deliveries && parts.received) refs.sort((a, b) => b.first_at - a.first_at || b.ref - a.ref)
    const rows: TimelineRow[] = []
    for (const ref of refs.slice(offset, offset + limit)) {
      const row = ref.kind === 'd' ? deliveryRow(ref.ref) : receivedRow({ endpointId: ref.endpoint_id, key: ref.gkey ?? '' })
      if (row) rows.push(row)
    }
    return { rows, total }
  }

  return { deliveryRow, receivedRow, rowOfRequest, page }
}

export type TimelineRead = ReturnType<typeof createTimelineRead>

interface TimelineParts {
  /** `FROM deliveries d … WHERE …` and its parameters. */
  deliveries: { from: string; params: unknown[] } | null
  /** A grouped SELECT of receive-only requests (kind, ref, endpoint_id, gkey, first_at). */
  received: { sql: string; params: unknown[] } | null
}

function timelineParts(filter: TimelineFilter): TimelineParts {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null
  const wantDeliveries = !filter.endpointId && (!statuses || statuses.some((s) => s !== 'received'))
  const wantReceived = !filter.subscriptionId && (!statuses || statuses.includes('received'))
  const parts: TimelineParts = { deliveries: null, received: null }
  if (wantDeliveries) {
    const where: string[] = []
    const params: unknown[] = []
    const deliveryStatuses = statuses?.filter((s) => s !== 'received') ?? []
    if (deliveryStatuses.length > 0) {
      where.push(`d.status IN (${deliveryStatuses.map(() => '?').join(', ')})`)
      params.push(...deliveryStatuses)
    }
    if (filter.subscriptionId) {
      where.push('d.subscription_id = ?')
      params.push(filter.subscriptionId)
    }
    if (filter.eventType) {
      where.push('e.event_type = ?')
      params.push(filter.eventType)
    }
    if (filter.search) {
      where.push('d.event_id LIKE ?')
      params.push(`%${escapeLike(filter.search)}%`)
    }
    const join = filter.eventType ? 'JOIN events e ON e.id = d.event_id' : ''
    parts.deliveries = { from: `FROM deliveries d ${join}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`, params }
  }
  if (wantReceived) {
    const where = ['attempt_id IS NULL']
    const params: unknown[] = []
    if (filter.endpointId) {
      where.push('endpoint_id = ?')
      params.push(filter.endpointId)
    }
    if (filter.search) {
      where.push(`${GROUP_SQL} LIKE ?`)
      params.push(`%${escapeLike(filter.search)}%`)
    }
    const having = filter.eventType ? ` HAVING MAX(${EVENT_TYPE_SQL}) = ?` : ''
    if (filter.eventType) params.push(filter.eventType)
    parts.received = {
      sql: `SELECT 'r' AS kind, MIN(id) AS ref, endpoint_id, ${GROUP_SQL} AS gkey, MIN(received_at) AS first_at FROM requests WHERE ${where.join(' AND ')} GROUP BY endpoint_id, gkey${having}`,
      params,
    }
  }
  return parts
}

function escapeLike(text: string): string {
  return text.replace(/[%_]/g, '')
}

export function statusTone(status: number | null): MarkTone {
  if (status === null) return 'retrying'
  if (status >= 200 && status < 300) return 'ok'
  if (status >= 500) return 'retrying'
  return 'final'
}

function attemptTone(a: AttemptRecord, isLast: boolean, status: DeliveryStatus): MarkTone {
  switch (a.decision) {
    case 'succeeded':
      return 'ok'
    case 'retry':
      return 'retrying'
    case 'failed':
      // A final 4xx/3xx answer, or the last of the retries running out.
      if (isLast && status === 'failed' && (a.status_code === null || a.status_code >= 500)) return 'failed'
      return 'final'
    default:
      return 'pending'
  }
}

export function outcomeLabel(outcome: string, statusCode: number | null): string {
  if (statusCode !== null) return String(statusCode)
  if (outcome.startsWith('http_')) return outcome.slice(5)
  return outcome.replace(/_/g, ' ')
}

export function badge(valid: number | null, reason: string | null, verifyJson: string | null): SignatureBadge {
  if (valid === null) return { state: 'none' }
  let scheme: SchemeId | undefined
  let detail: string | undefined
  if (verifyJson) {
    try {
      const parsed = JSON.parse(verifyJson) as { scheme?: SchemeId; detail?: string }
      scheme = parsed.scheme
      detail = parsed.detail
    } catch {
      // A verify result we cannot read still shows its reason code.
    }
  }
  return { state: valid ? 'valid' : 'invalid', reason: (reason ?? undefined) as VerifyReason | undefined, scheme, detail }
}
