import type { Database } from 'better-sqlite3'
import { prepareWrite } from './changes'
import type { KeyedStatements } from './keyed-statements'

export interface StoredEvent {
  id: string
  eventType: string
  /** The payload's JSON bytes. */
  payload: Buffer
  /** On the sender's clock (a simulation's, in one). */
  createdAt: number
  /** Wall time it was stored (docs/time.md): retention and the polling feed's updated_since read it. */
  storedAt: number
}

/**
 * One event as stored: the payload column holds the payload's JSON bytes. The body an attempt sends
 * is built from them by the subscription's envelope (electron/engine/sender/envelope.ts).
 */
export interface EventRow {
  id: string
  event_type: string
  payload: Buffer
  created_at: number
  /** NULL only for rows written by hand outside Hookloop. */
  stored_at: number | null
}

export interface EventStatements extends KeyedStatements<StoredEvent> {
  /**
   * Stores the event unless one with its id is stored already: false then, and nothing written.
   * The primary key answers, so publishing needs no read of the id before its insert.
   */
  insertNew(event: StoredEvent): boolean
}

/** Named prepared statements over the events table. */
export function createEventStatements(db: Database): EventStatements {
  const COLUMNS = '(id, event_type, payload, created_at, stored_at) VALUES (@id, @event_type, @payload, @created_at, @stored_at)'
  const insert = prepareWrite(db, 'events', `INSERT INTO events ${COLUMNS}`)
  const insertNew = prepareWrite(db, 'events', `INSERT INTO events ${COLUMNS} ON CONFLICT (id) DO NOTHING`)
  // The row's edge: the domain event in, its snake_case row out, and back.
  const row = (e: StoredEvent): EventRow => ({ id: e.id, event_type: e.eventType, payload: e.payload, created_at: e.createdAt, stored_at: e.storedAt })
  const get = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ?`)
  return {
    insert: (e) => void insert.run(row(e)),
    insertNew: (e) => insertNew.run(row(e)).changes === 1,
    get: (id) => {
      const found = get.get(id) as EventRow | undefined
      return found && storedEventOf(found)
    },
  }
}

/** Every column of an EventRow, for reads on either engine (store/export-reads.ts). */
export const EVENT_COLUMNS = 'id, event_type, payload, created_at, stored_at'

/** An events row as the domain's StoredEvent (a row written by hand without stored_at: stored when made). */
export function storedEventOf(row: EventRow): StoredEvent {
  return { id: row.id, eventType: row.event_type, payload: row.payload, createdAt: row.created_at, storedAt: row.stored_at ?? row.created_at }
}
