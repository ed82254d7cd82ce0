// Turns what is written to the store into timeline row updates, whoever the writer is (this engine,
// its writer threads, a `hookloop listen` in another process on the same data folder, a benchmark
// filling the store). The engine's own writes are pushed: every write statement names its tables
// and tells the connection's StoreChanges, and the engine's events name the rows they changed, so
// the feed reads at once (then at most once per interval while writes keep coming). Other writers
// are polled for: a tick that sees PRAGMA data_version unchanged reads nothing else. Each read
// covers only what can have changed: rows newer than the last seen id, deliveries still active
// (pending / retrying), and requests still waiting for their answer. Cost per read grows with the
// work in flight, never with the history.
import type { Database } from 'better-sqlite3'
import type { TimelineRow } from '../../../shared/contract'
import { storeChanges, type StoreTable } from '../store/changes'
import { createChangeReads, type WatchedTable } from '../store/change-reads'
import type { GroupKey, TimelineRead } from './timeline-read'

export interface ChangeFeedOptions {
  db: Database
  timeline: TimelineRead
  /** Receives the changed rows of one read (never empty). */
  onRows: (rows: TimelineRow[]) => void
  /** Something about subscriptions' metrics changed (a delivery settled or appeared). */
  onDeliveriesSettled: () => void
  /** How often other writers are polled for (default 100 ms). */
  intervalMs?: number
  /** The least time between two reads while writes keep coming (default: intervalMs). */
  pushGapMs?: number
}

export interface ChangeFeed {
  /** Mark a delivery or request as changed; read at once (or when the interval allows). */
  touchDelivery(id: number): void
  touchRequest(id: number): void
  /** Read everything that can have changed, now, whoever wrote it. */
  tick(): void
  stop(): void
}

const MAX_WATCHED_REQUESTS = 2000
const WATCHED: readonly WatchedTable[] = ['deliveries', 'attempts', 'requests']

export function createChangeFeed(options: ChangeFeedOptions): ChangeFeed {
  const { db, timeline } = options
  const intervalMs = options.intervalMs ?? 100
  const pushGapMs = options.pushGapMs ?? intervalMs
  const reads = createChangeReads(db)
  let lastDelivery = reads.maxId('deliveries')
  let lastAttempt = reads.maxId('attempts')
  let lastRequest = reads.maxId('requests')
  let lastVersion = reads.dataVersion()

  let activeSigs = new Map<number, string>()
  const waitingRequests = new Set<number>()
  const touchedDeliveries = new Set<number>()
  const touchedRequests = new Set<number>()
  /** Tables written since the last read. */
  const dirty = new Set<WatchedTable>()

  for (const row of reads.activeDeliveries()) activeSigs.set(row.id, row.sig)

  function read(): void {
    const scope = new Set(dirty)
    dirty.clear()
    let settled = false
    if (scope.has('deliveries')) {
      for (const id of reads.deliveriesAfter(lastDelivery)) {
        touchedDeliveries.add(id)
        lastDelivery = id
        settled = true
      }
    }
    if (scope.has('attempts')) {
      for (const a of reads.attemptsAfter(lastAttempt)) {
        touchedDeliveries.add(a.delivery_id)
        lastAttempt = a.id
      }
    }
    if (scope.has('requests')) {
      for (const r of reads.requestsAfter(lastRequest)) {
        touchedRequests.add(r.id)
        if (!r.answered && waitingRequests.size < MAX_WATCHED_REQUESTS) waitingRequests.add(r.id)
        lastRequest = r.id
      }
      for (const id of waitingRequests) {
        if (reads.answered(id) !== false) {
          waitingRequests.delete(id)
          touchedRequests.add(id)
        }
      }
    }
    if (scope.has('deliveries')) {
      const nextSigs = new Map<number, string>()
      for (const row of reads.activeDeliveries()) {
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
    }

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

  let lastRead = -Infinity
  let pushed: NodeJS.Timeout | null = null
  let stopped = false
  const pending = () => dirty.size > 0 || touchedDeliveries.size > 0 || touchedRequests.size > 0

  function readNow(): void {
    if (pushed) {
      clearTimeout(pushed)
      pushed = null
    }
    lastRead = performance.now()
    try {
      read()
    } catch {
      // A read that fails (a busy database) is done again, whole, on the next poll.
      for (const table of WATCHED) dirty.add(table)
    }
  }

  // A push reads on a later turn (the writer's transaction has committed by then), and while
  // writes keep coming, no sooner than pushGapMs after the last read.
  function push(): void {
    if (pushed || stopped) return
    pushed = setTimeout(readNow, Math.max(0, lastRead + pushGapMs - performance.now()))
    pushed.unref()
  }

  const offChanges = storeChanges(db).subscribe((tables: readonly StoreTable[]) => {
    let watched = false
    for (const table of tables) {
      if (table === 'deliveries' || table === 'attempts' || table === 'requests') {
        dirty.add(table)
        watched = true
      }
    }
    if (watched) push()
  })

  const poll = setInterval(() => {
    try {
      const version = reads.dataVersion()
      if (version !== lastVersion) {
        lastVersion = version
        for (const table of WATCHED) dirty.add(table)
      }
    } catch {
      return // the next poll asks again
    }
    if (pending() && !pushed) readNow()
  }, intervalMs)
  poll.unref()

  return {
    touchDelivery(id) {
      touchedDeliveries.add(id)
      push()
    },
    touchRequest(id) {
      touchedRequests.add(id)
      push()
    },
    tick() {
      for (const table of WATCHED) dirty.add(table)
      lastVersion = reads.dataVersion()
      read()
    },
    stop() {
      stopped = true
      offChanges()
      clearInterval(poll)
      if (pushed) clearTimeout(pushed)
      pushed = null
    },
  }
}
