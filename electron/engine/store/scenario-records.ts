// Read-only statements a scenario run needs for its report: a delivery's attempts joined with
// the request our receiver captured for each (loop mode: requests.attempt_id = attempts.id), and
// every request our endpoints captured.
import type { Database } from 'better-sqlite3'

export interface AttemptWithRequestRow {
  attempt_id: number
  n: number
  started_at: number
  duration_ms: number | null
  outcome: string
  status_code: number | null
  decision: string
  next_attempt_at: number | null
  fault_json: string | null
  /** Where the attempt went (a loop-mode attempt names the endpoint's URL at the time). */
  url: string | null
  request_id: number | null
  verify_reason: string | null
  duplicate_number: number | null
  request_fault_json: string | null
}

export interface DeliverySummaryRow {
  id: number
  event_id: string
  subscription_id: string
  status: 'pending' | 'retrying' | 'succeeded' | 'failed'
  event_type: string
}

export interface EndpointRequestRow {
  id: number
  slug: string
  received_at: number
  headers_json: string
  body: Buffer | null
  verify_reason: string | null
  duplicate_number: number | null
}

export interface ScenarioRecordStatements {
  delivery(id: number): DeliverySummaryRow | undefined
  /** Attempts of a delivery in order; when several requests carry one attempt's id, the first. */
  attempts(deliveryId: number): AttemptWithRequestRow[]
  /** Requests captured by our endpoints at or after `since` (receiver clock ms). */
  endpointRequests(since: number): EndpointRequestRow[]
}

export function createScenarioRecordStatements(db: Database): ScenarioRecordStatements {
  const delivery = db.prepare(
    `SELECT d.id, d.event_id, d.subscription_id, d.status, e.event_type
     FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?`,
  )
  const attempts = db.prepare(
    `SELECT a.id AS attempt_id, a.n, a.started_at, a.duration_ms, a.outcome, a.status_code, a.decision,
            a.next_attempt_at, a.fault_json, a.url,
            r.id AS request_id, r.verify_reason, r.duplicate_number, r.fault_json AS request_fault_json
     FROM attempts a
     LEFT JOIN requests r ON r.id = (SELECT MIN(id) FROM requests WHERE attempt_id = a.id)
     WHERE a.delivery_id = ? ORDER BY a.n`,
  )
  const endpointRequests = db.prepare(
    `SELECT r.id, e.slug, r.received_at, r.headers_json, r.body, r.verify_reason, r.duplicate_number
     FROM requests r JOIN endpoints e ON e.id = r.endpoint_id
     WHERE r.received_at >= ? ORDER BY r.id`,
  )
  return {
    delivery: (id) => delivery.get(id) as DeliverySummaryRow | undefined,
    attempts: (deliveryId) => attempts.all(deliveryId) as AttemptWithRequestRow[],
    endpointRequests: (since) => endpointRequests.all(since) as EndpointRequestRow[],
  }
}
