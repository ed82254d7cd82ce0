// The counts the app shows, by name: a subscription's deliveries, attempts and duplicate arrivals,
// the 24 h failure badge's inputs, a received row's arrivals, the captured requests. Each reads
// one definition of store/count-definitions.ts; nothing else in the engine counts these.
import type { Database } from 'better-sqlite3'
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../shared/sender'
import { failureRate, failureRateIsRed, FAILURE_RATE_WINDOW_MS } from '../../../shared/contract'
import {
  ATTEMPT_FAILED,
  ATTEMPT_REQUEST,
  ATTEMPT_SUCCEEDED,
  DELIVERY_FAILED,
  DELIVERY_WALL_CREATED_COLUMN,
  DUPLICATE_ARRIVAL,
  RECEIVED_GROUP_KEY,
  RECEIVED_REQUEST,
} from './count-definitions'
import { sameAs } from './engine-spelling'
import type { StoreKind } from './sql-engine'

export interface DeliveryCounts {
  deliveries: number
  byStatus: Record<DeliveryStatus, number>
  /** Attempts made, from the deliveries' own tally (one row per delivery: cheap on a big store). */
  attemptsMade: number
}

export interface AttemptCounts {
  attempts: number
  successes: number
  failures: number
}

export interface FailureWindow {
  /** Deliveries created in the window, and the failed among them. */
  deliveries: number
  failed: number
  rate: number
  red: boolean
}

export interface ArrivalCounts {
  arrivals: number
  duplicates: number
}

/** Captured requests in the store, every endpoint (and none), from the counters (one row per endpoint); `n`. */
export const CAPTURED_REQUESTS_SQL = 'SELECT COALESCE(SUM(requests), 0) AS n FROM request_counts'

/**
 * A received row's arrivals and duplicate arrivals: the requests no attempt of ours made at
 * endpoint `?` (null-safe) with group key `?`. In either engine's spelling (the timeline reads it
 * through SqlEngine for a group past its marks' limit).
 */
export const receivedGroupSql = (kind: StoreKind) => `SELECT COUNT(*) AS arrivals, COALESCE(SUM(CASE WHEN ${DUPLICATE_ARRIVAL} THEN 1 ELSE 0 END), 0) AS duplicates
       FROM requests r WHERE ${RECEIVED_REQUEST} AND endpoint_id ${sameAs(kind)} ? AND ${RECEIVED_GROUP_KEY} = ?`

export function createCountReads(db: Database) {
  const byStatus = db.prepare<[string], { status: DeliveryStatus; count: number; attempts: number }>(
    'SELECT status, COUNT(*) AS count, COALESCE(SUM(attempts), 0) AS attempts FROM deliveries WHERE subscription_id = ? GROUP BY status',
  )
  const attempts = db.prepare<[string], AttemptCounts>(
    `SELECT COUNT(*) AS attempts, COALESCE(SUM(${ATTEMPT_SUCCEEDED}), 0) AS successes, COALESCE(SUM(${ATTEMPT_FAILED}), 0) AS failures
       FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.subscription_id = ?`,
  )
  const duplicates = db
    .prepare<[string], number>(
      `SELECT COUNT(*) FROM deliveries d JOIN attempts a ON a.delivery_id = d.id JOIN requests r ON ${ATTEMPT_REQUEST}
        WHERE d.subscription_id = ? AND ${DUPLICATE_ARRIVAL}`,
    )
    .pluck()
  const window = db.prepare<[string, number], { deliveries: number; failed: number }>(
    `SELECT COUNT(*) AS deliveries, COALESCE(SUM(${DELIVERY_FAILED}), 0) AS failed
       FROM deliveries d WHERE d.subscription_id = ? AND d.${DELIVERY_WALL_CREATED_COLUMN} >= ?`,
  )
  const group = db.prepare<[string | null, string], ArrivalCounts>(receivedGroupSql('sqlite'))
  // The counters the triggers keep (count-definitions.ts, REQUEST_COUNTS_SQL), one row per endpoint.
  const captured = db.prepare<[], number>(CAPTURED_REQUESTS_SQL).pluck()

  return {
    /** A subscription's deliveries, all time, by status. */
    deliveries(subscriptionId: string): DeliveryCounts {
      const counts = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>
      let deliveries = 0
      let attemptsMade = 0
      for (const row of byStatus.all(subscriptionId)) {
        counts[row.status] = row.count
        deliveries += row.count
        attemptsMade += row.attempts
      }
      return { deliveries, byStatus: counts, attemptsMade }
    },
    /** A subscription's attempts, and those classified success and failure: a scan of its attempts. */
    attempts: (subscriptionId: string): AttemptCounts => attempts.get(subscriptionId) ?? { attempts: 0, successes: 0, failures: 0 },
    /** Duplicate arrivals among the requests a subscription's attempts made at our endpoints. */
    duplicates: (subscriptionId: string): number => duplicates.get(subscriptionId) ?? 0,
    /** The 24 h failure badge: deliveries created in the 24 h before `wallNow`, failed among them. */
    failureWindow(subscriptionId: string, wallNow: number): FailureWindow {
      const row = window.get(subscriptionId, wallNow - FAILURE_RATE_WINDOW_MS) ?? { deliveries: 0, failed: 0 }
      const rate = failureRate(row.failed, row.deliveries)
      return { deliveries: row.deliveries, failed: row.failed, rate, red: failureRateIsRed(rate) }
    },
    /** A received row: requests no attempt of ours made, at one endpoint with one group key. */
    receivedGroup: (endpointId: string | null, key: string): ArrivalCounts => group.get(endpointId, key) ?? { arrivals: 0, duplicates: 0 },
    /** Captured requests in the data folder, every endpoint (and none) and every origin. */
    capturedRequests: (): number => captured.get() ?? 0,
  }
}

export type CountReads = ReturnType<typeof createCountReads>
