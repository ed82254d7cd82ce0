import { writeSql } from './changes'
import { runWrite } from './engine-writes'
import type { SqlEngine } from './sql-engine'
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
  /** Reserved by the sender (store/attempt-ids.ts), so it is known before the row is committed. */
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

/** The attempts table's reads, and the write of recovery, awaited on either store engine. */
export interface AttemptStore {
  get(id: number): Promise<AttemptRow | undefined>
  byDelivery(deliveryId: number): Promise<AttemptRow[]>
  /** The unfinished attempt of a delivery (after a crash). */
  unfinished(deliveryId: number): Promise<AttemptRow | undefined>
  markInterrupted(id: number, nextAttemptAt: number): Promise<void>
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

/** The attempts table's statements over `engine` (a transaction's included). */
export function createAttemptStore(engine: SqlEngine): AttemptStore {
  return {
    get: (id) => engine.get<AttemptRow>(`SELECT ${COLUMNS} FROM attempts WHERE id = ?`, [id]),
    byDelivery: (deliveryId) => engine.all<AttemptRow>(`SELECT ${COLUMNS} FROM attempts WHERE delivery_id = ? ORDER BY n`, [deliveryId]),
    unfinished: (deliveryId) => engine.get<AttemptRow>(`SELECT ${COLUMNS} FROM attempts WHERE delivery_id = ? AND decision = 'pending' ORDER BY n DESC LIMIT 1`, [deliveryId]),
    markInterrupted: async (id, nextAttemptAt) =>
      void (await runWrite(
        engine,
        ['attempts'],
        `UPDATE attempts SET outcome = 'interrupted', decision = 'retry', error = 'the engine stopped before this attempt finished; it is retried',
       next_attempt_at = ? WHERE id = ?`,
        [nextAttemptAt, id],
      )),
  }
}

/** Every column of an AttemptRow, for reads on either engine (store/export-reads.ts). */
export const ATTEMPT_COLUMNS = COLUMNS
