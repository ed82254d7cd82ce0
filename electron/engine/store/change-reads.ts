// What the host's timeline watch reads to find changed timeline rows: rows after the last id it saw,
// a signature of every active delivery, whether a request got its answer, and PRAGMA data_version,
// which moves when another connection (a writer thread, another process) committed. Reads only.
import type { Database } from 'better-sqlite3'
import type { AttemptRow } from './attempts'

export const WATCHED_TABLES = ['deliveries', 'attempts', 'requests'] as const
export type WatchedTable = (typeof WATCHED_TABLES)[number]

/** At most this many new rows per table per read: the rest come on the next one. */
const PAGE = 5000

export function createChangeReads(db: Database) {
  const maxId = (table: WatchedTable) => db.prepare<[], number>(`SELECT COALESCE(MAX(id), 0) FROM ${table}`).pluck().get() ?? 0
  const newDeliveries = db.prepare<[number], number>(`SELECT id FROM deliveries WHERE id > ? ORDER BY id LIMIT ${PAGE}`).pluck()
  const newAttempts = db.prepare<[number], Pick<AttemptRow, 'id' | 'delivery_id'>>(`SELECT id, delivery_id FROM attempts WHERE id > ? ORDER BY id LIMIT ${PAGE}`)
  const newRequests = db.prepare<[number], { id: number; answered: number }>(
    `SELECT id, response_ms IS NOT NULL OR response_status IS NOT NULL AS answered FROM requests WHERE id > ? ORDER BY id LIMIT ${PAGE}`,
  )
  const active = db.prepare<[], { id: number; sig: string }>(
    `SELECT id, status || ':' || attempts || ':' || COALESCE(next_attempt_at, '') || ':' || in_flight || ':' || updated_at AS sig
       FROM deliveries WHERE status IN ('pending', 'retrying')`,
  )
  // Rowids only: the range is walked without reading a request's columns (bodies stay on disk).
  const idsIn = db.prepare<[number, number], number>('SELECT id FROM requests WHERE id > ? AND id <= ? ORDER BY id').pluck()
  const answered = db.prepare<[number], number>('SELECT response_ms IS NOT NULL OR response_status IS NOT NULL FROM requests WHERE id = ?').pluck()
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck()
  return {
    maxId,
    deliveriesAfter: (id: number) => newDeliveries.all(id),
    attemptsAfter: (id: number) => newAttempts.all(id),
    requestsAfter: (id: number) => newRequests.all(id),
    /** The ids of requests in (low, high]: rows another process numbered lower but committed later show up here. */
    requestIdsIn: (low: number, high: number) => idsIn.all(low, high),
    /** Every pending or retrying delivery, with a signature that changes whenever its row does. */
    activeDeliveries: () => active.all(),
    /** 1 when the request has its answer, 0 while it waits, undefined when there is no such request. */
    answered: (id: number) => answered.get(id),
    /** Moves whenever another connection commits to the file (never for this connection's own commits). */
    dataVersion: () => dataVersion.get() ?? 0,
  }
}
