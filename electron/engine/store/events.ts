import type { Database } from 'better-sqlite3'
import { prepareWrite } from './changes'

/**
 * One event as stored: the payload column holds the payload's JSON bytes. The body an attempt sends
 * is built from them by the subscription's envelope (electron/engine/sender/envelope.ts).
 */
export interface EventRow {
  id: string
  event_type: string
  payload: Buffer
  created_at: number
}

export interface EventStatements {
  insert(row: EventRow): void
  get(id: string): EventRow | undefined
}

/** Named prepared statements over the events table. */
export function createEventStatements(db: Database): EventStatements {
  const insert = prepareWrite(db, 'events', 'INSERT INTO events (id, event_type, payload, created_at) VALUES (@id, @event_type, @payload, @created_at)')
  const get = db.prepare('SELECT id, event_type, payload, created_at FROM events WHERE id = ?')
  return {
    insert: (row) => void insert.run(row),
    get: (id) => get.get(id) as EventRow | undefined,
  }
}
