// Read-only statements a scenario run and a recording need besides a delivery in detail
// (detail-reads.ts): the requests the run's endpoints captured and the forward legs they sent
// (on either store engine, awaited: a run on a team's PostgreSQL reads only its own endpoints'
// rows among the team's), and the deliveries of an event (a recording's, on a data folder).
import type { Database } from 'better-sqlite3'
import type { ForwardLeg } from '../../../shared/receiver'
import { jsonList } from './engine-spelling'
import { FORWARD_LEGS_SELECT, legFromRow, type ForwardLegReadRow } from './forward-legs'
import type { RequestRow } from './requests'
import type { SqlEngine } from './sql-engine'

/** A request one of our endpoints captured, with its schema verdict's first problem (all null when it was not judged). */
export type EndpointRequestRow = Pick<RequestRow, 'id' | 'received_at' | 'headers_json' | 'body' | 'verify_reason' | 'duplicate_number'> & {
  slug: string
  schema_verdict: string | null
  schema_pointer: string | null
  schema_expected: string | null
  schema_got: string | null
}

export interface ScenarioRecordStatements {
  /** The first 100 deliveries of an event, by id. */
  deliveryIdsOfEvent(eventId: string): number[]
}

export function createScenarioRecordStatements(db: Database): ScenarioRecordStatements {
  const deliveryIds = db.prepare('SELECT id FROM deliveries WHERE event_id = ? ORDER BY id LIMIT 100').pluck()
  return {
    deliveryIdsOfEvent: (eventId) => deliveryIds.all(eventId) as number[],
  }
}

/** What a scenario run reads of its own endpoints' traffic, on either store engine. */
export function createScenarioRecordReads(engine: SqlEngine) {
  const endpointRequestsSql = `SELECT r.id, e.slug, r.received_at, r.headers_json, r.body, r.verify_reason, r.duplicate_number,
            v.verdict AS schema_verdict, v.pointer AS schema_pointer, v.expected AS schema_expected, v.got AS schema_got
     FROM requests r JOIN endpoints e ON e.id = r.endpoint_id
     LEFT JOIN request_schema_verdicts v ON v.request_id = r.id
     WHERE r.received_at >= ? AND r.endpoint_id IN (${jsonList(engine.kind, 'text')}) ORDER BY r.id`
  const legsSql = `${FORWARD_LEGS_SELECT} WHERE l.sent_at >= ? AND l.request_id IN (${jsonList(engine.kind, 'id')}) ORDER BY l.id`
  return {
    /** Requests captured at or after `since` (receiver clock ms) by the endpoints of these ids, by id. */
    endpointRequests: (since: number, endpointIds: readonly string[]): Promise<EndpointRequestRow[]> =>
      engine.all<EndpointRequestRow>(endpointRequestsSql, [since, JSON.stringify(endpointIds)]),
    /** The forward legs of these requests sent at or after `since`, in the order sent. */
    forwardLegs: async (since: number, requestIds: readonly number[]): Promise<ForwardLeg[]> =>
      requestIds.length === 0 ? [] : (await engine.all<ForwardLegReadRow>(legsSql, [since, JSON.stringify(requestIds)])).map(legFromRow),
  }
}
