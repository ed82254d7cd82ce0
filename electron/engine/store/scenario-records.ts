// Read-only statements a scenario run and a recording need besides a delivery in detail
// (detail-reads.ts): every request our endpoints captured, and the deliveries of an event.
import type { Database } from 'better-sqlite3'
import type { RequestRow } from './requests'

/** A request one of our endpoints captured, with its schema verdict's first problem (all null when it was not judged). */
export type EndpointRequestRow = Pick<RequestRow, 'id' | 'received_at' | 'headers_json' | 'body' | 'verify_reason' | 'duplicate_number'> & {
  slug: string
  schema_verdict: string | null
  schema_pointer: string | null
  schema_expected: string | null
  schema_got: string | null
}

export interface ScenarioRecordStatements {
  /** Requests captured by our endpoints at or after `since` (receiver clock ms). */
  endpointRequests(since: number): EndpointRequestRow[]
  /** The first 100 deliveries of an event, by id. */
  deliveryIdsOfEvent(eventId: string): number[]
}

export function createScenarioRecordStatements(db: Database): ScenarioRecordStatements {
  const endpointRequests = db.prepare(
    `SELECT r.id, e.slug, r.received_at, r.headers_json, r.body, r.verify_reason, r.duplicate_number,
            v.verdict AS schema_verdict, v.pointer AS schema_pointer, v.expected AS schema_expected, v.got AS schema_got
     FROM requests r JOIN endpoints e ON e.id = r.endpoint_id
     LEFT JOIN request_schema_verdicts v ON v.request_id = r.id
     WHERE r.received_at >= ? ORDER BY r.id`,
  )
  const deliveryIds = db.prepare('SELECT id FROM deliveries WHERE event_id = ? ORDER BY id LIMIT 100').pluck()
  return {
    deliveryIdsOfEvent: (eventId) => deliveryIds.all(eventId) as number[],
    endpointRequests: (since) => endpointRequests.all(since) as EndpointRequestRow[],
  }
}
