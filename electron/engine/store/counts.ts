// The counts the app shows, by name: a subscription's deliveries, attempts and duplicate arrivals,
// the 24 h failure badge's inputs, a received row's arrivals, the captured requests. Each reads
// one definition of store/count-definitions.ts; nothing else in the engine counts these.
import type { Database, Statement } from 'better-sqlite3'
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
import { valueIs } from './engine-spelling'
import type { SqlEngine } from './sql-engine'

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
 * `endpointId` (null-safe) with group key `key`, the statement and its parameters. One text for both
 * engines, the endpoint an index condition on each (valueIs); the timeline reads it through
 * SqlEngine for a group past its marks' limit.
 */
export function receivedGroupSql(endpointId: string | null, key: string): { sql: string; params: unknown[] } {
  const endpoint = valueIs('endpoint_id', endpointId)
  return {
    sql: `SELECT COUNT(*) AS arrivals, COALESCE(SUM(CASE WHEN ${DUPLICATE_ARRIVAL} THEN 1 ELSE 0 END), 0) AS duplicates
       FROM requests r WHERE ${RECEIVED_REQUEST} AND ${endpoint.sql} AND ${RECEIVED_GROUP_KEY} = ?`,
    params: [...endpoint.params, key],
  }
}

// Each count's statement, once: the synchronous reads on a data folder's Database and the awaited
// ones on either engine (the host on a team's PostgreSQL) run these same texts. A condition is
// summed as CASE … THEN 1: PostgreSQL has no SUM of a boolean.
const BY_STATUS_SQL = 'SELECT status, COUNT(*) AS count, COALESCE(SUM(attempts), 0) AS attempts FROM deliveries WHERE subscription_id = ? GROUP BY status'
const ATTEMPTS_SQL = `SELECT COUNT(*) AS attempts, COALESCE(SUM(CASE WHEN ${ATTEMPT_SUCCEEDED} THEN 1 ELSE 0 END), 0) AS successes, COALESCE(SUM(CASE WHEN ${ATTEMPT_FAILED} THEN 1 ELSE 0 END), 0) AS failures
       FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.subscription_id = ?`
const DUPLICATES_SQL = `SELECT COUNT(*) AS n FROM deliveries d JOIN attempts a ON a.delivery_id = d.id JOIN requests r ON ${ATTEMPT_REQUEST}
        WHERE d.subscription_id = ? AND ${DUPLICATE_ARRIVAL}`
const WINDOW_SQL = `SELECT COUNT(*) AS deliveries, COALESCE(SUM(CASE WHEN ${DELIVERY_FAILED} THEN 1 ELSE 0 END), 0) AS failed
       FROM deliveries d WHERE d.subscription_id = ? AND d.${DELIVERY_WALL_CREATED_COLUMN} >= ?`

type StatusRow = { status: DeliveryStatus; count: number; attempts: number }

function deliveryCounts(rows: StatusRow[]): DeliveryCounts {
  const counts = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>
  let deliveries = 0
  let attemptsMade = 0
  for (const row of rows) {
    counts[row.status] = row.count
    deliveries += row.count
    attemptsMade += row.attempts
  }
  return { deliveries, byStatus: counts, attemptsMade }
}

function failureWindowOf(row: { deliveries: number; failed: number } | undefined): FailureWindow {
  const found = row ?? { deliveries: 0, failed: 0 }
  const rate = failureRate(found.failed, found.deliveries)
  return { deliveries: found.deliveries, failed: found.failed, rate, red: failureRateIsRed(rate) }
}

const NO_ATTEMPTS: AttemptCounts = { attempts: 0, successes: 0, failures: 0 }
const NO_ARRIVALS: ArrivalCounts = { arrivals: 0, duplicates: 0 }

export function createCountReads(db: Database) {
  const byStatus = db.prepare<[string], StatusRow>(BY_STATUS_SQL)
  const attempts = db.prepare<[string], AttemptCounts>(ATTEMPTS_SQL)
  const duplicates = db.prepare<[string], { n: number }>(DUPLICATES_SQL)
  const window = db.prepare<[string, number], { deliveries: number; failed: number }>(WINDOW_SQL)
  // Two texts, an endpoint's and no endpoint's (receivedGroupSql), each prepared when first read.
  const groups = new Map<string, Statement<unknown[], ArrivalCounts>>()
  const group = (endpointId: string | null, key: string): ArrivalCounts | undefined => {
    const { sql, params } = receivedGroupSql(endpointId, key)
    let statement = groups.get(sql)
    if (!statement) groups.set(sql, (statement = db.prepare<unknown[], ArrivalCounts>(sql)))
    return statement.get(...params)
  }
  // The counters the triggers keep (count-definitions.ts, REQUEST_COUNTS_SQL), one row per endpoint.
  const captured = db.prepare<[], { n: number }>(CAPTURED_REQUESTS_SQL)

  return {
    /** A subscription's deliveries, all time, by status. */
    deliveries: (subscriptionId: string): DeliveryCounts => deliveryCounts(byStatus.all(subscriptionId)),
    /** A subscription's attempts, and those classified success and failure: a scan of its attempts. */
    attempts: (subscriptionId: string): AttemptCounts => attempts.get(subscriptionId) ?? NO_ATTEMPTS,
    /** Duplicate arrivals among the requests a subscription's attempts made at our endpoints. */
    duplicates: (subscriptionId: string): number => duplicates.get(subscriptionId)?.n ?? 0,
    /** The 24 h failure badge: deliveries created in the 24 h before `wallNow`, failed among them. */
    failureWindow: (subscriptionId: string, wallNow: number): FailureWindow => failureWindowOf(window.get(subscriptionId, wallNow - FAILURE_RATE_WINDOW_MS)),
    /** A received row: requests no attempt of ours made, at one endpoint with one group key. */
    receivedGroup: (endpointId: string | null, key: string): ArrivalCounts => group(endpointId, key) ?? NO_ARRIVALS,
    /** Captured requests in the data folder, every endpoint (and none) and every origin. */
    capturedRequests: (): number => captured.get()?.n ?? 0,
  }
}

export type CountReads = ReturnType<typeof createCountReads>

/** The same counts on either store engine, awaited (the host, on a data folder or a team's PostgreSQL). */
export function createCountReadsOn(engine: SqlEngine) {
  return {
    deliveries: async (subscriptionId: string): Promise<DeliveryCounts> => deliveryCounts(await engine.all<StatusRow>(BY_STATUS_SQL, [subscriptionId])),
    attempts: async (subscriptionId: string): Promise<AttemptCounts> => (await engine.get<AttemptCounts>(ATTEMPTS_SQL, [subscriptionId])) ?? NO_ATTEMPTS,
    duplicates: async (subscriptionId: string): Promise<number> => (await engine.get<{ n: number }>(DUPLICATES_SQL, [subscriptionId]))?.n ?? 0,
    failureWindow: async (subscriptionId: string, wallNow: number): Promise<FailureWindow> =>
      failureWindowOf(await engine.get<{ deliveries: number; failed: number }>(WINDOW_SQL, [subscriptionId, wallNow - FAILURE_RATE_WINDOW_MS])),
    receivedGroup: async (endpointId: string | null, key: string): Promise<ArrivalCounts> => {
      const { sql, params } = receivedGroupSql(endpointId, key)
      return (await engine.get<ArrivalCounts>(sql, params)) ?? NO_ARRIVALS
    },
    capturedRequests: async (): Promise<number> => (await engine.get<{ n: number }>(CAPTURED_REQUESTS_SQL))?.n ?? 0,
  }
}

export type CountReadsOn = ReturnType<typeof createCountReadsOn>
