import type { Database } from 'better-sqlite3'
import { prepareWrite, writeSql } from './changes'
import type { AttemptDecisionState } from '../../../shared/sender'

export type AttemptDecisionColumn = AttemptDecisionState

export interface AttemptRow {
  id: number
  delivery_id: number
  n: number
  started_at: number
  duration_ms: number | null
  /** http_<code>, timeout, connection_refused, reset, dns, connection_error, dropped, interrupted; in_flight while running. */
  outcome: string
  status_code: number | null
  url: string | null
  request_headers_json: string | null
  response_headers_json: string | null
  response_body: Buffer | null
  error: string | null
  fault_json: string | null
  decision: AttemptDecisionColumn
  next_attempt_at: number | null
  /** Wall time it started (started_at is on its delivery's clock); null in stores from before it was kept. */
  started_wall_at: number | null
}

export interface NewAttempt {
  /** Reserved by the sender (see maxId), so it is known before the row is committed. */
  id: number
  delivery_id: number
  n: number
  started_at: number
  started_wall_at: number
  url: string | null
  request_headers_json: string | null
  fault_json: string | null
}

export interface AttemptFinish {
  id: number
  duration_ms: number | null
  outcome: string
  status_code: number | null
  response_headers_json: string | null
  response_body: Buffer | null
  error: string | null
  decision: Exclude<AttemptDecisionColumn, 'pending'>
  next_attempt_at: number | null
}

export interface AttemptStatements {
  /** The highest attempt id so far (0 when none): the sender reserves ids after it. */
  maxId(): number
  get(id: number): AttemptRow | undefined
  byDelivery(deliveryId: number): AttemptRow[]
  /** The unfinished attempt of a delivery (after a crash). */
  unfinished(deliveryId: number): AttemptRow | undefined
  markInterrupted(id: number, nextAttemptAt: number): void
}

const COLUMNS =
  'id, delivery_id, n, started_at, duration_ms, outcome, status_code, url, request_headers_json, response_headers_json, response_body, error, fault_json, decision, next_attempt_at, started_wall_at'

/** Every column: a final attempt writes them all. */
const ALL_COLUMNS = COLUMNS.split(', ')

/**
 * The attempt path's writes, by name, with the names of their parameters (NewAttempt,
 * AttemptFinish): run by the sender's SqlWriter, inline or on its writer thread.
 */
export const ATTEMPT_WRITE_SQL = {
  /** Inserted before the request goes out, so its id can travel in x-hookloop-attempt. */
  insertStarted: writeSql(
    'attempts',
    `INSERT INTO attempts (id, delivery_id, n, started_at, started_wall_at, outcome, url, request_headers_json, fault_json, decision)
     VALUES (?, ?, ?, ?, ?, 'in_flight', ?, ?, ?, 'pending')`,
    ['id', 'delivery_id', 'n', 'started_at', 'started_wall_at', 'url', 'request_headers_json', 'fault_json'],
  ),
  /** An attempt that never went out (a dropped delivery): recorded final at once. */
  insertFinal: writeSql('attempts', `INSERT INTO attempts (${ALL_COLUMNS.join(', ')}) VALUES (${ALL_COLUMNS.map(() => '?').join(', ')})`, ALL_COLUMNS),
  finishAttempt: writeSql(
    'attempts',
    'UPDATE attempts SET duration_ms = ?, outcome = ?, status_code = ?, response_headers_json = ?, response_body = ?, error = ?, decision = ?, next_attempt_at = ? WHERE id = ?',
    ['duration_ms', 'outcome', 'status_code', 'response_headers_json', 'response_body', 'error', 'decision', 'next_attempt_at', 'id'],
  ),
} as const

/** Named prepared statements over the attempts table (reads, and the writes of recovery). */
export function createAttemptStatements(db: Database): AttemptStatements {
  const maxId = db.prepare('SELECT COALESCE(MAX(id), 0) FROM attempts').pluck()
  const get = db.prepare(`SELECT ${COLUMNS} FROM attempts WHERE id = ?`)
  const byDelivery = db.prepare(`SELECT ${COLUMNS} FROM attempts WHERE delivery_id = ? ORDER BY n`)
  const unfinished = db.prepare(`SELECT ${COLUMNS} FROM attempts WHERE delivery_id = ? AND decision = 'pending' ORDER BY n DESC LIMIT 1`)
  const markInterrupted = prepareWrite(
    db,
    'attempts',
    `UPDATE attempts SET outcome = 'interrupted', decision = 'retry', error = 'the engine stopped before this attempt finished; it is retried',
       next_attempt_at = ? WHERE id = ?`,
  )
  return {
    maxId: () => maxId.get() as number,
    get: (id) => get.get(id) as AttemptRow | undefined,
    byDelivery: (deliveryId) => byDelivery.all(deliveryId) as AttemptRow[],
    unfinished: (deliveryId) => unfinished.get(deliveryId) as AttemptRow | undefined,
    markInterrupted: (id, nextAttemptAt) => void markInterrupted.run(nextAttemptAt, id),
  }
}

/** Every column of an AttemptRow, for reads on either engine (store/export-reads.ts). */
export const ATTEMPT_COLUMNS = COLUMNS
