import { runWrite } from './engine-writes'
import type { SqlEngine } from './sql-engine'

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

/** The events table, awaited on either store engine. */
export interface EventStore {
  /**
   * Stores the event unless one with its id is stored already: false then, and nothing written.
   * The primary key answers, so publishing needs no read of the id before its insert.
   */
  insertNew(event: StoredEvent): Promise<boolean>
  get(id: string): Promise<StoredEvent | undefined>
}

/** An event stored unless its id is stored already (then nothing is written), and the values it binds. */
export const INSERT_NEW_EVENT_SQL = 'INSERT INTO events (id, event_type, payload, created_at, stored_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'
export const eventValues = (e: StoredEvent) => [e.id, e.eventType, e.payload, e.createdAt, e.storedAt]

/** The events table's statements over `engine` (a transaction's included). */
export function createEventStore(engine: SqlEngine): EventStore {
  return {
    insertNew: async (e) => (await runWrite(engine, ['events'], INSERT_NEW_EVENT_SQL, eventValues(e))).changes === 1,
    get: async (id) => {
      const found = await engine.get<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ?`, [id])
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
