import type { Database } from 'better-sqlite3'
import { prepareWrite, writeSql } from './changes'
import { noteWrite, runWrite } from './engine-writes'
import type { SqlEngine } from './sql-engine'
import type { DeliveryStatus } from '../../../shared/sender'

export type { DeliveryStatus }

export interface DeliveryRow {
  id: number
  event_id: string
  subscription_id: string
  status: DeliveryStatus
  /** Attempt rows made so far (interrupted ones included). */
  attempts: number
  last_status_code: number | null
  last_attempt_at: number | null
  /** NULL = nothing scheduled (final, in flight, or waiting for a paused subscription). */
  next_attempt_at: number | null
  in_flight: number
  interrupted: number
  faults_json: string | null
  created_at: number
  updated_at: number
  /** The id the consumer knows the event by when it is not event_id (NewDelivery), else null. */
  consumer_event_id: string | null
}

export interface DueDelivery {
  id: number
  next_attempt_at: number
}

export interface NewDelivery {
  event_id: string
  subscription_id: string
  next_attempt_at: number | null
  faults_json: string | null
  created_at: number
  /** The simulation it runs in (its clock); null: on the wall clock. */
  simulation_id: string | null
  /** Wall time it was made, whatever its clock (created_at for a delivery on the wall clock). */
  created_wall_at: number
  /** The id the consumer knows the event by (a provider's evt_…, X-GitHub-Delivery …) when it is not event_id; null otherwise. */
  consumer_event_id?: string | null
}

export interface DeliveryFinish {
  id: number
  status: DeliveryStatus
  last_status_code: number | null
  next_attempt_at: number | null
  updated_at: number
}

/** Who holds a delivery's attempt in flight, and until when (wall ms). */
export interface DeliveryClaim {
  id: number
  claimed_by: string | null
  lease_until: number | null
}

export interface DeliveryListQuery {
  subscription_id: string
  status?: DeliveryStatus
  limit: number
}

export interface DeliveryStatements {
  insert(row: NewDelivery): number
  get(id: number): DeliveryRow | undefined
  /**
   * Due deliveries after (at, id) in (next_attempt_at, id) order, up to `until` inclusive, on one
   * clock: `clock` is the running simulation whose clock the caller keeps, or null for the wall
   * clock, which also takes the deliveries of simulations that ended (RUNS_ON_CLOCK); `wallToo`:
   * the wall clock's as well (an engine rebuilt on a new clock continues what the one before it left).
   */
  due(afterAt: number, afterId: number, until: number, limit: number, clock: string | null, wallToo?: boolean): DueDelivery[]
  /** Earliest scheduled delivery after (at, id) on `clock` (and the wall clock with `wallToo`), if any. */
  nextAfter(afterAt: number, afterId: number, clock: string | null, wallToo?: boolean): DueDelivery | undefined
  /** Schedule (or unschedule with null) without starting anything. */
  reschedule(id: number, status: DeliveryStatus, nextAttemptAt: number | null, now: number): void
  /**
   * Claims a due delivery for `owner` until `leaseUntil` (wall ms) and unschedules it, if it is
   * still due at `dueAt` and no attempt holds it: false when another process (or an earlier
   * reschedule) was first. The one write that makes an attempt exactly once across processes.
   */
  claim(id: number, dueAt: number, owner: string, leaseUntil: number): boolean
  /**
   * Deliveries with an attempt in flight, and who holds each (null: a crash before claims existed).
   * A full scan, now and then: an index here would cost two updates on every attempt.
   */
  claimsInFlight(): DeliveryClaim[]
  /**
   * Takes over a delivery whose claim `owner` no longer holds (its process died): clears
   * in_flight, counts the interruption and schedules the retry at `now`. False when the claim
   * changed since it was read (another process took it over first, or the attempt ended).
   */
  recoverInFlight(id: number, owner: string | null, now: number): boolean
  /** Gives back a claim `owner` took but died before its attempt started: due again at `now`, nothing counted. */
  releaseClaim(id: number, owner: string | null, now: number): boolean
  /** Deliveries of a paused subscription that never started, waiting for resume. */
  waitingForResume(subscriptionId: string): number[]
  list(query: DeliveryListQuery): DeliveryRow[]
  byEvent(eventId: string): DeliveryRow[]
  /** Final (succeeded or failed) with no attempt in flight; false for no such delivery. */
  isSettled(id: number): boolean
  /** How many deliveries there are and how many have settled: a run's progress. */
  progress(): { made: number; settled: number }
}

const COLUMNS =
  'id, event_id, subscription_id, status, attempts, last_status_code, last_attempt_at, next_attempt_at, in_flight, interrupted, faults_json, created_at, updated_at, consumer_event_id'

/**
 * The attempt path's writes to deliveries, by name, with the names of their parameters: run by the
 * sender's SqlWriter (inline or on its writer thread) in the same transaction as the attempt row.
 */
export const DELIVERY_WRITE_SQL = {
  /** An attempt started ({id, now}): counts it, clears the schedule, sets in_flight. */
  markStarted: writeSql('deliveries', 'UPDATE deliveries SET attempts = attempts + 1, in_flight = 1, next_attempt_at = NULL, last_attempt_at = ?, updated_at = ? WHERE id = ?', ['now', 'now', 'id']),
  /** An attempt's outcome (DeliveryFinish). */
  markFinished: writeSql(
    'deliveries',
    'UPDATE deliveries SET status = ?, last_status_code = ?, next_attempt_at = ?, in_flight = 0, claimed_by = NULL, lease_until = NULL, updated_at = ? WHERE id = ?',
    ['status', 'last_status_code', 'next_attempt_at', 'updated_at', 'id'],
  ),
} as const

/** The row insert() stores for `row` under `id` (its defaults spelt out): what was written, without reading it back. */
export function insertedDelivery(id: number, row: NewDelivery): DeliveryRow {
  return {
    id,
    event_id: row.event_id,
    subscription_id: row.subscription_id,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_attempt_at: null,
    next_attempt_at: row.next_attempt_at,
    in_flight: 0,
    interrupted: 0,
    faults_json: row.faults_json,
    created_at: row.created_at,
    updated_at: row.created_at,
    consumer_event_id: row.consumer_event_id ?? null,
  }
}

/**
 * The clock a delivery's times run on now (alias-free, over `deliveries`): its simulation while
 * the engine that runs it is alive (simulations.owner), else NULL, the wall clock. So a wall-clock
 * engine never sends a running simulation's delivery because its simulated due time is in the
 * wall clock's past, and a simulation never sends another clock's deliveries. '' stands for the
 * wall clock; it is compared with two clocks (`runsOnParams`): the caller's own, and the wall clock
 * too for an engine rebuilt on a new clock, which continues what the engine before it left.
 */
export const RUNS_ON_CLOCK = "COALESCE((SELECT s.id FROM simulations s WHERE s.id = deliveries.simulation_id AND s.owner IS NOT NULL), '') IN (?, ?)"

/** RUNS_ON_CLOCK's two parameters. */
export const runsOnParams = (clock: string | null, wallToo = false): [string, string] => [clock ?? '', wallToo ? '' : (clock ?? '')]

/** The scheduled deliveries of one clock (a running simulation's id, or null: the wall clock), as a scheduler reads them. */
export function scheduledOnClock(deliveries: Pick<DeliveryStore, 'due' | 'nextAfter'>, clock: string | null, wallToo = false) {
  return {
    due: (afterAt: number, afterId: number, until: number, limit: number) => deliveries.due(afterAt, afterId, until, limit, clock, wallToo),
    nextAfter: (afterAt: number, afterId: number) => deliveries.nextAfter(afterAt, afterId, clock, wallToo),
  }
}

// Each statement once, with positional parameters: the SQLite file's prepared statements and the
// awaited store on either engine run the same texts.
// Row-value comparison keeps ties on next_attempt_at ordered by id and walks deliveries_due.
const SETTLED = "status IN ('succeeded', 'failed') AND in_flight = 0"
const SQL = {
  insert: `INSERT INTO deliveries (event_id, subscription_id, status, next_attempt_at, faults_json, created_at, updated_at, simulation_id, created_wall_at, consumer_event_id)
     VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`,
  get: `SELECT ${COLUMNS} FROM deliveries WHERE id = ?`,
  due: `SELECT id, next_attempt_at FROM deliveries INDEXED BY deliveries_due
     WHERE next_attempt_at IS NOT NULL AND (next_attempt_at, id) > (?, ?) AND next_attempt_at <= ? AND ${RUNS_ON_CLOCK}
     ORDER BY next_attempt_at, id LIMIT ?`,
  nextAfter: `SELECT id, next_attempt_at FROM deliveries INDEXED BY deliveries_due
     WHERE next_attempt_at IS NOT NULL AND (next_attempt_at, id) > (?, ?) AND ${RUNS_ON_CLOCK} ORDER BY next_attempt_at, id LIMIT 1`,
  claim: `UPDATE deliveries SET in_flight = 1, next_attempt_at = NULL, claimed_by = ?, lease_until = ?
     WHERE id = ? AND next_attempt_at = ? AND in_flight = 0`,
  reschedule: 'UPDATE deliveries SET status = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?',
  claimsInFlight: 'SELECT id, claimed_by, lease_until FROM deliveries WHERE in_flight = 1 ORDER BY id',
  recoverInFlight: `UPDATE deliveries SET in_flight = 0, interrupted = interrupted + 1, status = 'retrying', next_attempt_at = ?, claimed_by = NULL, lease_until = NULL, updated_at = ?
     WHERE id = ? AND in_flight = 1 AND claimed_by IS ?`,
  releaseClaim: `UPDATE deliveries SET in_flight = 0, next_attempt_at = ?, claimed_by = NULL, lease_until = NULL, updated_at = ?
     WHERE id = ? AND in_flight = 1 AND claimed_by IS ?`,
  waitingForResume: `SELECT id FROM deliveries WHERE subscription_id = ? AND status = 'pending' AND attempts = 0 AND in_flight = 0 AND next_attempt_at IS NULL ORDER BY id`,
  listAll: `SELECT ${COLUMNS} FROM deliveries WHERE subscription_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
  listByStatus: `SELECT ${COLUMNS} FROM deliveries WHERE subscription_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
  byEvent: `SELECT ${COLUMNS} FROM deliveries WHERE event_id = ? ORDER BY id`,
  isSettled: `SELECT CASE WHEN ${SETTLED} THEN 1 ELSE 0 END AS settled FROM deliveries WHERE id = ?`,
  progress: `SELECT count(*) AS made, coalesce(sum(CASE WHEN ${SETTLED} THEN 1 ELSE 0 END), 0) AS settled FROM deliveries`,
} as const

/** A new delivery's insert and the values it binds (store/event-deliveries.ts writes them with its event). */
export const INSERT_DELIVERY_SQL = SQL.insert
export const newDeliveryValues = (row: NewDelivery) => [
  row.event_id,
  row.subscription_id,
  row.next_attempt_at,
  row.faults_json,
  row.created_at,
  row.created_at,
  row.simulation_id,
  row.created_wall_at,
  row.consumer_event_id ?? null,
]

/** Named prepared statements over the deliveries table, on a data folder's own Database (synchronous). */
export function createDeliveryStatements(db: Database): DeliveryStatements {
  const write = (sql: string) => prepareWrite(db, 'deliveries', sql)
  const insert = write(SQL.insert)
  const get = db.prepare(SQL.get)
  const due = db.prepare(SQL.due)
  const nextAfter = db.prepare(SQL.nextAfter)
  const claim = write(SQL.claim)
  const reschedule = write(SQL.reschedule)
  const claimsInFlight = db.prepare(SQL.claimsInFlight)
  const recoverInFlight = write(SQL.recoverInFlight)
  const releaseClaim = write(SQL.releaseClaim)
  const waitingForResume = db.prepare(SQL.waitingForResume)
  const listAll = db.prepare(SQL.listAll)
  const listByStatus = db.prepare(SQL.listByStatus)
  const byEvent = db.prepare(SQL.byEvent)
  const isSettled = db.prepare(SQL.isSettled).pluck()
  const progress = db.prepare(SQL.progress)
  return {
    insert: (row) => Number(insert.run(...newDeliveryValues(row)).lastInsertRowid),
    get: (id) => get.get(id) as DeliveryRow | undefined,
    due: (afterAt, afterId, until, limit, clock, wallToo) => due.all(afterAt, afterId, until, ...runsOnParams(clock, wallToo), limit) as DueDelivery[],
    nextAfter: (afterAt, afterId, clock, wallToo) => nextAfter.get(afterAt, afterId, ...runsOnParams(clock, wallToo)) as DueDelivery | undefined,
    reschedule: (id, status, nextAttemptAt, now) => void reschedule.run(status, nextAttemptAt, now, id),
    claim: (id, dueAt, owner, leaseUntil) => claim.run(owner, leaseUntil, id, dueAt).changes === 1,
    claimsInFlight: () => claimsInFlight.all() as DeliveryClaim[],
    recoverInFlight: (id, owner, now) => recoverInFlight.run(now, now, id, owner).changes === 1,
    releaseClaim: (id, owner, now) => releaseClaim.run(now, now, id, owner).changes === 1,
    waitingForResume: (subscriptionId) => (waitingForResume.all(subscriptionId) as Array<{ id: number }>).map((r) => r.id),
    list: (query) =>
      (query.status === undefined
        ? listAll.all(query.subscription_id, query.limit)
        : listByStatus.all(query.subscription_id, query.status, query.limit)) as DeliveryRow[],
    byEvent: (eventId) => byEvent.all(eventId) as DeliveryRow[],
    isSettled: (id) => isSettled.get(id) === 1,
    progress: () => progress.get() as { made: number; settled: number },
  }
}

/** The deliveries table awaited, on either store engine: DeliveryStatements' reads and writes, each a Promise. */
export type DeliveryStore = { [K in keyof DeliveryStatements]: (...args: Parameters<DeliveryStatements[K]>) => Promise<ReturnType<DeliveryStatements[K]>> }

/** The deliveries table's statements over `engine` (a transaction's included). */
export function createDeliveryStore(engine: SqlEngine): DeliveryStore {
  const write = async (sql: string, params: readonly unknown[]) => (await runWrite(engine, ['deliveries'], sql, params)).changes === 1
  return {
    async insert(row) {
      const made = await engine.get<{ id: number }>(`${SQL.insert} RETURNING id`, newDeliveryValues(row))
      await noteWrite(engine, ['deliveries'])
      return Number(made?.id)
    },
    get: (id) => engine.get<DeliveryRow>(SQL.get, [id]),
    due: (afterAt, afterId, until, limit, clock, wallToo) => engine.all<DueDelivery>(SQL.due, [afterAt, afterId, until, ...runsOnParams(clock, wallToo), limit]),
    nextAfter: (afterAt, afterId, clock, wallToo) => engine.get<DueDelivery>(SQL.nextAfter, [afterAt, afterId, ...runsOnParams(clock, wallToo)]),
    reschedule: async (id, status, nextAttemptAt, now) => void (await write(SQL.reschedule, [status, nextAttemptAt, now, id])),
    claim: (id, dueAt, owner, leaseUntil) => write(SQL.claim, [owner, leaseUntil, id, dueAt]),
    claimsInFlight: () => engine.all<DeliveryClaim>(SQL.claimsInFlight),
    recoverInFlight: (id, owner, now) => write(SQL.recoverInFlight, [now, now, id, owner]),
    releaseClaim: (id, owner, now) => write(SQL.releaseClaim, [now, now, id, owner]),
    waitingForResume: async (subscriptionId) => (await engine.all<{ id: number }>(SQL.waitingForResume, [subscriptionId])).map((r) => r.id),
    list: (query) =>
      query.status === undefined
        ? engine.all<DeliveryRow>(SQL.listAll, [query.subscription_id, query.limit])
        : engine.all<DeliveryRow>(SQL.listByStatus, [query.subscription_id, query.status, query.limit]),
    byEvent: (eventId) => engine.all<DeliveryRow>(SQL.byEvent, [eventId]),
    isSettled: async (id) => (await engine.get<{ settled: number }>(SQL.isSettled, [id]))?.settled === 1,
    progress: async () => (await engine.get<{ made: number; settled: number }>(SQL.progress)) ?? { made: 0, settled: 0 },
  }
}

/** Every column of a DeliveryRow, for reads on either engine (store/export-reads.ts). */
export const DELIVERY_COLUMNS = COLUMNS
