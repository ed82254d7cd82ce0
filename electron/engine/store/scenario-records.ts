// Read-only statements a scenario run needs for its report: a delivery's attempts joined with
// the request our receiver captured for each (loop mode: requests.attempt_id = attempts.id), and
// every request our endpoints captured.
import type { Database } from 'better-sqlite3'
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'
import type { RequestRow } from './requests'

/** An attempt (url: where it went; a loop-mode attempt names the endpoint's URL at the time) and its captured request, if any. */
export type AttemptWithRequestRow = Pick<
  AttemptRow,
  'n' | 'started_at' | 'duration_ms' | 'outcome' | 'status_code' | 'decision' | 'next_attempt_at' | 'fault_json' | 'url'
> &
  Pick<RequestRow, 'verify_reason' | 'duplicate_number'> & { attempt_id: number; request_id: number | null; request_fault_json: string | null }

export type DeliverySummaryRow = Pick<DeliveryRow, 'id' | 'event_id' | 'subscription_id' | 'status'> & Pick<EventRow, 'event_type'>

export type EndpointRequestRow = Pick<RequestRow, 'verify_reason' | 'duplicate_number'> & { slug: string }

export interface ScenarioRecordStatements {
  delivery(id: number): DeliverySummaryRow | undefined
  /** Attempts of a delivery in order; when several requests carry one attempt's id, the first. */
  attempts(deliveryId: number): AttemptWithRequestRow[]
  /** Requests captured by our endpoints at or after `since` (receiver clock ms). */
  endpointRequests(since: number): EndpointRequestRow[]
  /** The first 100 deliveries of an event, by id. */
  deliveryIdsOfEvent(eventId: string): number[]
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
    `SELECT e.slug, r.verify_reason, r.duplicate_number
     FROM requests r JOIN endpoints e ON e.id = r.endpoint_id
     WHERE r.received_at >= ? ORDER BY r.id`,
  )
  const deliveryIds = db.prepare('SELECT id FROM deliveries WHERE event_id = ? ORDER BY id LIMIT 100').pluck()
  return {
    deliveryIdsOfEvent: (eventId) => deliveryIds.all(eventId) as number[],
    delivery: (id) => delivery.get(id) as DeliverySummaryRow | undefined,
    attempts: (deliveryId) => attempts.all(deliveryId) as AttemptWithRequestRow[],
    endpointRequests: (since) => endpointRequests.all(since) as EndpointRequestRow[],
  }
}
