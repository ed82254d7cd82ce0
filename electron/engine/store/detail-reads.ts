// One delivery in detail, for the inspector, a scenario's report and a recording: the delivery
// with its event and its subscription's target, its attempts each with its own request (the first
// request the receiver linked to it: requests.attempt_id, set only for a link that checked out,
// the same rule as count-definitions.ts ownRequest), and a subscription's counts from the
// deliveries table alone. Reads only.
import type { Database } from 'better-sqlite3'
import type { AttemptRow } from './attempts'
import type { DeliveryRow } from './deliveries'
import type { EventRow } from './events'
import type { RequestRow } from './requests'
import type { SubscriptionRow } from './subscriptions'

type Target = Pick<SubscriptionRow, 'url' | 'endpoint_slug' | 'envelope' | 'provider' | 'api_version'>

/** A delivery with its event; the target is null when its subscription is gone. */
export type DeliveryDetailRow = Pick<DeliveryRow, 'id' | 'event_id' | 'subscription_id' | 'status' | 'faults_json'> &
  Pick<EventRow, 'event_type' | 'payload'> & { event_created_at: number } & { [K in keyof Target]: Target[K] | null }

/** An attempt and its own request, the first one linked to it (the request columns are null without one). */
export type AttemptDetailRow = AttemptRow &
  Pick<RequestRow, 'verify_reason' | 'duplicate_number'> & { request_id: number | null; request_fault_json: string | null }

export function createDetailReads(db: Database) {
  const delivery = db.prepare<[number], DeliveryDetailRow>(
    `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, e.payload, e.created_at AS event_created_at, d.faults_json, s.url, s.endpoint_slug, s.envelope, s.provider, s.api_version
       FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN subscriptions s ON s.id = d.subscription_id WHERE d.id = ?`,
  )
  const attempts = db.prepare<[number], AttemptDetailRow>(
    `SELECT a.*, r.id AS request_id, r.verify_reason, r.duplicate_number, r.fault_json AS request_fault_json
       FROM attempts a LEFT JOIN requests r ON r.id = (SELECT MIN(id) FROM requests WHERE attempt_id = a.id)
      WHERE a.delivery_id = ? ORDER BY a.n`,
  )
  return {
    delivery: (id: number) => delivery.get(id),
    attempts: (deliveryId: number) => attempts.all(deliveryId),
  }
}
