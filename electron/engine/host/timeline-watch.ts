// Turns what is written to the store into timeline row updates, whoever the writer is, on either
// store engine. The store's change feed (store/change-feed.ts) says which tables changed: on a data
// folder the engine's own writes at once and other writers (the capture thread, a `hookloop listen`
// on the same file) by a poll of PRAGMA data_version; on a team's PostgreSQL every process's
// commits by LISTEN/NOTIFY. The engine's events name the rows they changed. The watch reads on a
// later turn, then at most once per pushGapMs while writes keep coming. A read covers only what can
// have changed: rows newer than the last seen id, deliveries still active (pending / retrying), and
// requests still waiting for their answer. Its cost grows with the work in flight, never with the history.
import type { TimelineRow } from '../../../shared/contract'
import { createChangeReads, WATCHED_TABLES, type WatchedTable, ID_LOOKBACK, type SqlEngine, type StoreChangeFeed } from '../store'
import type { GroupKey, TimelineViews } from './timeline-views'

export interface TimelineWatchOptions {
  /** What the watch reads on (the store the views read). */
  engine: SqlEngine
  /** Which tables changed (store/change-feed.ts): the watch subscribes, its owner closes it. */
  changes: StoreChangeFeed
  timeline: TimelineViews
  /** Receives the changed rows of one read (never empty). */
  onRows: (rows: TimelineRow[]) => void
  /** Something about subscriptions' metrics changed (a delivery settled or appeared). */
  onDeliveriesSettled: () => void
  /** The least time between two reads while writes keep coming (default 100 ms). */
  pushGapMs?: number
  /**
   * Whether anyone receives the rows (a client on the control socket); default always. While no
   * one does, the watch follows the requests' cursor without reading their rows: a team's process
   * behind a load balancer that no browser watches does not read back every capture. A client that
   * connects reads its page itself, after the cursor has moved past what that page holds.
   */
  watched?: () => boolean
}

export interface TimelineWatch {
  /** Mark a delivery or request as changed: read on a later turn. */
  touchDelivery(id: number): void
  touchRequest(id: number): void
  stop(): void
}

const MAX_WATCHED_REQUESTS = 2000

/** Starts watching from what the store holds now (its highest ids and active deliveries). */
export async function watchTimeline(options: TimelineWatchOptions): Promise<TimelineWatch> {
  const { timeline } = options
  const pushGapMs = options.pushGapMs ?? 100
  const reads = createChangeReads(options.engine)
  const last = { deliveries: await reads.maxId('deliveries'), attempts: await reads.maxId('attempts'), requests: await reads.maxId('requests') }
  // Ids are claimed in blocks by every process on the store: a request of another process may
  // commit after a higher id was read.
  // - On a team's PostgreSQL a block is up to 4 096 ids of the sequence, held for as long as its
  //   process takes to use it (store/sequence-ids.ts): an idle process's next request can have an
  //   id thousands below the newest, and no window of ids is wide enough. There the watch follows
  //   the order requests were committed in instead (requests.commit_order, numbered by
  //   transaction and read below the oldest one still running, store/request-commit-order.ts):
  //   nothing committed is passed over, and a row that waits for an earlier transaction is read
  //   again at the next gap until it is read.
  // - On a data folder a block is 64 ids given up within 100 ms once another process claims
  //   (store/id-source.ts): the ids seen in the last ID_LOOKBACK are kept, and that window is
  //   walked again on each read of requests.
  const byCommit = options.engine.kind === 'postgres'
  let lastCommit = byCommit ? await reads.maxCommitOrder() : 0
  const seenRequests = new Set(byCommit ? [] : await reads.requestIdsIn(Math.max(0, last.requests - ID_LOOKBACK), last.requests))
  let activeSigs = new Map((await reads.activeDeliveries()).map((row) => [row.id, row.sig]))
  const waitingRequests = new Set<number>()
  // A request read before its answer is pushed at the next read, answered or not: a capture's
  // answer lands a commit after its row, so most are answered by then and read once, not twice
  // (a read of its group, its place, its legs), by every process that watches. One that waits
  // longer (a breakpoint, a slow fault) shows as waiting one push gap later, and again when answered.
  let answerAwaited = new Set<number>()
  /** A request read for the first time: pushed now if answered, else at the next read. */
  const arrived = (id: number, answered: boolean) => {
    if (answered || waitingRequests.size >= MAX_WATCHED_REQUESTS) return void touchedRequests.add(id)
    waitingRequests.add(id)
    answerAwaited.add(id)
  }
  const touchedDeliveries = new Set<number>()
  const touchedRequests = new Set<number>()
  /** Tables written since the last read. */
  const dirty = new Set<WatchedTable>()

  /** The requests that were waiting for their answer and have it now (or are gone): read again. */
  async function answeredSince(): Promise<void> {
    const waiting = waitingRequests.size > 0 ? await reads.answered([...waitingRequests]) : new Map<number, number>()
    for (const id of waitingRequests) {
      if (waiting.get(id) === 0) continue // still waiting; answered or gone: its row is read again
      waitingRequests.delete(id)
      touchedRequests.add(id)
    }
  }

  async function read(): Promise<void> {
    let settled = false
    for (const id of answerAwaited) touchedRequests.add(id)
    answerAwaited = new Set()
    if (dirty.has('deliveries')) {
      for (const id of await reads.deliveriesAfter(last.deliveries)) {
        touchedDeliveries.add((last.deliveries = id))
        settled = true
      }
      const nextSigs = new Map<number, string>()
      for (const row of await reads.activeDeliveries()) {
        nextSigs.set(row.id, row.sig)
        if (activeSigs.get(row.id) !== row.sig) touchedDeliveries.add(row.id)
      }
      for (const id of activeSigs.keys()) {
        if (nextSigs.has(id)) continue
        touchedDeliveries.add(id) // it settled: succeeded or failed
        settled = true
      }
      activeSigs = nextSigs
    }
    if (dirty.has('attempts')) {
      for (const a of await reads.attemptsAfter(last.attempts)) {
        touchedDeliveries.add(a.delivery_id)
        last.attempts = a.id
      }
    }
    let heldBack = false
    const watched = options.watched?.() ?? true
    if (dirty.has('requests') && !watched) {
      // Nobody to push to: the cursor moves to what is stored now, no row is read (what was
      // touched is dropped below).
      waitingRequests.clear()
      if (byCommit) lastCommit = Math.max(lastCommit, await reads.maxCommitOrder())
      else {
        last.requests = Math.max(last.requests, await reads.maxId('requests'))
        seenRequests.clear()
        for (const id of await reads.requestIdsIn(Math.max(0, last.requests - ID_LOOKBACK), last.requests)) seenRequests.add(id)
      }
    } else if (dirty.has('requests') && byCommit) {
      for (const r of await reads.requestsCommittedAfter(lastCommit)) {
        arrived(r.id, Boolean(r.answered))
        lastCommit = r.commit_order
      }
      heldBack = await reads.requestsHeldBack()
      await answeredSince()
    } else if (dirty.has('requests')) {
      const floor = Math.max(0, last.requests - ID_LOOKBACK)
      const lateIds = (await reads.requestIdsIn(floor, last.requests)).filter((id) => !seenRequests.has(id))
      const lateAnswered = lateIds.length > 0 ? await reads.answered(lateIds) : new Map<number, number>()
      for (const id of lateIds) {
        seenRequests.add(id)
        touchedRequests.add(id)
        if (lateAnswered.get(id) === 0 && waitingRequests.size < MAX_WATCHED_REQUESTS) waitingRequests.add(id)
      }
      for (const r of await reads.requestsAfter(last.requests)) {
        arrived(r.id, Boolean(r.answered))
        seenRequests.add(r.id)
        last.requests = r.id
      }
      for (const id of seenRequests) if (id <= last.requests - ID_LOOKBACK) seenRequests.delete(id)
      await answeredSince()
    }
    dirty.clear()
    // The transaction a held row waits for may tell nothing when it ends (it wrote no watched
    // table); a row read before its answer is pushed at the next read, whatever is written.
    if (heldBack || answerAwaited.size > 0) dirty.add('requests')

    if (!watched) {
      touchedRequests.clear()
      touchedDeliveries.clear()
      if (settled && !stopped) options.onDeliveriesSettled()
      return
    }
    // The rows are read in one awaited set of statements; what was touched meanwhile waits for the next read.
    const requestIds = [...touchedRequests]
    const deliveryIds = new Set(touchedDeliveries)
    touchedRequests.clear()
    touchedDeliveries.clear()
    try {
      const groups = new Map<string, GroupKey>()
      for (const where of (await timeline.rowsOfRequests(requestIds)).values()) {
        if ('deliveryId' in where) deliveryIds.add(where.deliveryId)
        else groups.set(`${where.endpointId ?? ''}\u0000${where.key}`, where)
      }
      const rows = await timeline.rows({ deliveryIds: [...deliveryIds], groups: [...groups.values()] })
      if (rows.length > 0 && !stopped) options.onRows(rows)
    } catch (error) {
      // Read again, whole, next time.
      for (const id of requestIds) touchedRequests.add(id)
      for (const id of deliveryIds) touchedDeliveries.add(id)
      throw error
    }
    if (settled && !stopped) options.onDeliveriesSettled()
  }

  let lastRead = -Infinity
  let pushed: NodeJS.Timeout | null = null
  let stopped = false
  /** A read in progress: the next waits for it (reads never overlap, so rows are pushed in order). */
  let reading = false
  function readNow(): void {
    if (pushed) clearTimeout(pushed)
    pushed = null
    lastRead = performance.now()
    reading = true
    read()
      .catch(() => {
        // A read that fails (a busy database, a lost connection) is done again, whole, on the next change.
        for (const table of WATCHED_TABLES) dirty.add(table)
      })
      .finally(() => {
        reading = false
        if (dirty.size + touchedDeliveries.size + touchedRequests.size > 0) push()
      })
  }
  // Read on a later turn (the writer's transaction has committed by then), no sooner than
  // pushGapMs after the last read: one read per gap, whether pushed or polled.
  function push(): void {
    if (pushed || stopped || reading) return
    pushed = setTimeout(readNow, Math.max(0, lastRead + pushGapMs - performance.now()))
    pushed.unref()
  }

  const offChanges = options.changes.subscribe((tables) => {
    for (const table of tables) if ((WATCHED_TABLES as readonly string[]).includes(table)) dirty.add(table as WatchedTable)
    if (dirty.size + touchedDeliveries.size + touchedRequests.size > 0) push()
  })

  return {
    touchDelivery(id) {
      touchedDeliveries.add(id)
      push()
    },
    touchRequest(id) {
      touchedRequests.add(id)
      push()
    },
    stop() {
      stopped = true
      offChanges()
      if (pushed) clearTimeout(pushed)
    },
  }
}
