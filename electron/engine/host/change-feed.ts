// Turns what the engine writes into timeline row updates, whoever the writer is (this engine, a
// `hookloop listen` in another process on the same data folder, a benchmark filling the store).
// Each tick reads only what can have changed: rows newer than the last seen id, deliveries still
// active (pending / retrying), and requests still waiting for their answer. Cost per tick grows
// with the work in flight, never with the history.
import type { Database } from 'better-sqlite3'
import type { TimelineRow } from '../../../shared/contract'
import type { GroupKey, TimelineRead } from './timeline-read'

export interface ChangeFeedOptions {
  db: Database
  timeline: TimelineRead
  /** Receives the changed rows of one tick (never empty). */
  onRows: (rows: TimelineRow[]) => void
  /** Something about subscriptions' metrics changed (a delivery settled or appeared). */
  onDeliveriesSettled: () => void
  intervalMs?: number
}

export interface ChangeFeed {
  /** Mark a delivery or request as changed; picked up on the next tick. */
  touchDelivery(id: number): void
  touchRequest(id: number): void
  tick(): void
  stop(): void
}

const MAX_WATCHED_REQUESTS = 2000

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  const { db, timeline } = options
  const maxId = (table: 'deliveries' | 'requests' | 'attempts') => (db.prepare(`SELECT COALESCE(MAX(id), 0) AS id FROM ${table}`).get() as { id: number }).id
  let lastDelivery = maxId('deliveries')
  let lastAttempt = maxId('attempts')
  let lastRequest = maxId('requests')

  const newDeliveries = db.prepare<[number], { id: number }>(`SELECT id FROM deliveries WHERE id > ? ORDER BY id LIMIT 5000`)
  const newAttempts = db.prepare<[number], { id: number; delivery_id: number }>(`SELECT id, delivery_id FROM attempts WHERE id > ? ORDER BY id LIMIT 5000`)
  const newRequests = db.prepare<[number], { id: number; answered: number }>(
    `SELECT id, response_ms IS NOT NULL OR response_status IS NOT NULL AS answered FROM requests WHERE id > ? ORDER BY id LIMIT 5000`,
  )
  const active = db.prepare<[], { id: number; sig: string }>(
    `SELECT id, status || ':' || attempts || ':' || COALESCE(next_attempt_at, '') || ':' || in_flight || ':' || updated_at AS sig
       FROM deliveries WHERE status IN ('pending', 'retrying')`,
  )
  const answered = db.prepare<[number], { answered: number }>(`SELECT response_ms IS NOT NULL OR response_status IS NOT NULL AS answered FROM requests WHERE id = ?`)

  let activeSigs = new Map<number, string>()
  const waitingRequests = new Set<number>()
  const touchedDeliveries = new Set<number>()
  const touchedRequests = new Set<number>()

  for (const row of active.all()) activeSigs.set(row.id, row.sig)

  function tick(): void {
    let settled = false
    for (const d of newDeliveries.all(lastDelivery)) {
      touchedDeliveries.add(d.id)
      lastDelivery = d.id
      settled = true
    }
    for (const a of newAttempts.all(lastAttempt)) {
      touchedDeliveries.add(a.delivery_id)
      lastAttempt = a.id
    }
    for (const r of newRequests.all(lastRequest)) {
      touchedRequests.add(r.id)
      if (!r.answered && waitingRequests.size < MAX_WATCHED_REQUESTS) waitingRequests.add(r.id)
      lastRequest = r.id
    }
    for (const id of waitingRequests) {
      const row = answered.get(id)
      if (!row || row.answered) {
        waitingRequests.delete(id)
        touchedRequests.add(id)
      }
    }
    const nextSigs = new Map<number, string>()
    for (const row of active.all()) {
      nextSigs.set(row.id, row.sig)
      if (activeSigs.get(row.id) !== row.sig) touchedDeliveries.add(row.id)
    }
    for (const id of activeSigs.keys()) {
      if (!nextSigs.has(id)) {
        touchedDeliveries.add(id) // it settled: succeeded or failed
        settled = true
      }
    }
    activeSigs = nextSigs

    const groups = new Map<string, GroupKey>()
    for (const id of touchedRequests) {
      const where = timeline.rowOfRequest(id)
      if (!where) continue
      if ('deliveryId' in where) touchedDeliveries.add(where.deliveryId)
      else groups.set(`${where.endpointId ?? ''}\u0000${where.key}`, where)
    }
    touchedRequests.clear()
    const rows: TimelineRow[] = []
    for (const id of touchedDeliveries) {
      const row = timeline.deliveryRow(id)
      if (row) rows.push(row)
    }
    touchedDeliveries.clear()
    for (const group of groups.values()) {
      const row = timeline.receivedRow(group)
      if (row) rows.push(row)
    }
    if (rows.length > 0) options.onRows(rows)
    if (settled) options.onDeliveriesSettled()
  }

  const timer = setInterval(() => {
    try {
      tick()
    } catch {
      // A tick that fails (a busy database) is simply retried on the next one.
    }
  }, options.intervalMs ?? 100)
  timer.unref()

  return {
    touchDelivery: (id) => touchedDeliveries.add(id),
    touchRequest: (id) => touchedRequests.add(id),
    tick,
    stop: () => clearInterval(timer),
  }
}
