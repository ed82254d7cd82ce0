// An event published with its deliveries, in one transaction, on either engine. On a data folder
// the transaction's statements run synchronously on its connection, between the engine's BEGIN and
// COMMIT: a publish awaited statement by statement cost about a fifth more CPU per event
// (bench:publish), for nothing a synchronous SQLite call needs. On PostgreSQL each is awaited.
// The SQL texts are the tables' own (events.ts, deliveries.ts).
import type { Database } from 'better-sqlite3'
import { prepareWrite } from './changes'
import { insertedDelivery, INSERT_DELIVERY_SQL, newDeliveryValues, createDeliveryStore, type DeliveryRow, type NewDelivery } from './deliveries'
import { eventValues, INSERT_NEW_EVENT_SQL, createEventStore, type StoredEvent } from './events'
import { inTransaction, type SqlEngine } from './sql-engine'
import { databaseOf } from './sqlite-engine'

export interface PlannedDelivery {
  row: NewDelivery
  /** The copies a `duplicate` fault asks for, made once this delivery's id is known. */
  copies?: (id: number) => NewDelivery[]
}

const prepared = new WeakMap<Database, { event: ReturnType<typeof prepareWrite>; delivery: ReturnType<typeof prepareWrite> }>()

function statementsOf(db: Database) {
  let found = prepared.get(db)
  if (!found) prepared.set(db, (found = { event: prepareWrite(db, 'events', INSERT_NEW_EVENT_SQL), delivery: prepareWrite(db, 'deliveries', INSERT_DELIVERY_SQL) }))
  return found
}

/**
 * Stores `event` and its planned deliveries together: the rows as inserted (nothing read back), or
 * undefined when the event's id is stored already (its primary key answers; nothing is written).
 */
export function insertEventDeliveries(engine: SqlEngine, event: StoredEvent, plan: readonly PlannedDelivery[]): Promise<DeliveryRow[] | undefined> {
  return inTransaction(engine, async (tx) => {
    const db = databaseOf(tx)
    if (db) {
      const statements = statementsOf(db)
      if (statements.event.run(...eventValues(event)).changes !== 1) return undefined
      return written(plan, (row) => Number(statements.delivery.run(...newDeliveryValues(row)).lastInsertRowid))
    }
    if (!(await createEventStore(tx).insertNew(event))) return undefined
    const deliveries = createDeliveryStore(tx)
    const created: DeliveryRow[] = []
    for (const { row, copies } of plan) {
      const id = await deliveries.insert(row)
      created.push(insertedDelivery(id, row))
      for (const copy of copies?.(id) ?? []) created.push(insertedDelivery(await deliveries.insert(copy), copy))
    }
    return created
  })
}

function written(plan: readonly PlannedDelivery[], insert: (row: NewDelivery) => number): DeliveryRow[] {
  const created: DeliveryRow[] = []
  for (const { row, copies } of plan) {
    const id = insert(row)
    created.push(insertedDelivery(id, row))
    for (const copy of copies?.(id) ?? []) created.push(insertedDelivery(insert(copy), copy))
  }
  return created
}
