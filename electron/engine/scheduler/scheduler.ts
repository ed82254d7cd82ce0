import type { Clock, TimerHandle } from '../../../shared/clock'
import { holdWork, MinHeap } from '../clock'
import type { DueDelivery } from '../store'

// The durable timer queue of deliveries. The store is the truth (deliveries.next_attempt_at); this
// keeps in memory exactly the scheduled deliveries whose (next_attempt_at, id) is at or before a
// "window" mark, in a binary heap (O(log n) per schedule and pop). Everything after the mark is
// only in the store and comes in by index (deliveries_due) when the heap runs dry, so memory is
// bounded by the horizon and the batch size, and a restart simply starts with an empty window.
// The store is read asynchronously (either store engine, SqlEngine): a refill runs in the
// background, one at a time, and calls onDue when it is in.
//
// Entries are never removed when a delivery is rescheduled or finished: the consumer re-reads the
// row anyway before an attempt and drops an entry whose next_attempt_at no longer matches.

export interface SchedulerOptions {
  clock: Clock
  /** The scheduled deliveries of this scheduler's clock (store/deliveries.ts `due` and `nextAfter`, for one clock), awaited. */
  deliveries: {
    due(afterAt: number, afterId: number, until: number, limit: number): Promise<DueDelivery[]>
    nextAfter(afterAt: number, afterId: number): Promise<DueDelivery | undefined>
  }
  /** Called when deliveries have become due (or a refill ended); pull them with takeDue(). */
  onDue: () => void
  /** How far ahead of now the heap mirrors the store, in clock ms (default 10 min). */
  horizonMs?: number
  /** Rows loaded per refill (default 5 000). */
  batch?: number
}

export interface Scheduler {
  /** Loads the first window (in the background: refilled() resolves when it is in) and arms the timer. */
  start(): void
  /** The store already says next_attempt_at = at for this delivery; mirror it. */
  schedule(id: number, at: number): void
  /** Up to `max` deliveries due now, earliest first, from memory; a refill it needs starts and calls onDue when done. */
  takeDue(max: number): DueDelivery[]
  /** When the next delivery is due, as far as memory and the last refill know; undefined when nothing is scheduled. */
  nextDueAt(): number | undefined
  /** Whether a refill from the store is under way (what it finds is not known yet). */
  refilling(): boolean
  /** Resolves when no refill is under way. */
  refilled(): Promise<void>
  /** Entries held in memory (stale ones included until popped). */
  memorySize(): number
  /**
   * Forgets how far the store was read and reads it again from the start (after the store was out
   * of reach: a due entry taken meanwhile may not have been claimed). Entries already in memory
   * stay; a second entry for a delivery is dropped by the attempt's own check of the row.
   */
  reread(): void
  stop(): void
}

// Node timers overflow past 2^31 − 1 ms (≈ 24.8 days): a later due time is reached in steps.
const MAX_TIMER_MS = 2 ** 31 - 1
const MIN_KEY = Number.MIN_SAFE_INTEGER
const MAX_KEY = Number.MAX_SAFE_INTEGER

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, deliveries, onDue } = options
  const horizonMs = options.horizonMs ?? 600_000
  const batch = options.batch ?? 5_000
  const heap = new MinHeap<number>()
  // Every scheduled (at, id) <= (windowAt, windowId) is in the heap; everything after is not.
  let windowAt = MIN_KEY
  let windowId = MIN_KEY
  // The earliest scheduled after the window: read by each refill, lowered by schedule().
  let beyond: number | undefined
  let timer: TimerHandle | undefined
  let timerAt = MAX_KEY
  let running = false
  // A refill reads the store asynchronously: schedule() calls meanwhile are kept and mirrored
  // once the window has moved, so a row committed after the refill's read is never left behind it.
  let refill: Promise<void> | null = null
  let scheduledMeanwhile: Array<[number, number]> | null = null

  const inWindow = (at: number, id: number) => at < windowAt || (at === windowAt && id <= windowId)

  function startRefill(): Promise<void> {
    if (refill) return refill
    // The virtual clock waits for what the store says before it jumps to the next timer.
    const release = holdWork(clock)
    scheduledMeanwhile = []
    // What this refill loaded, so a schedule() it also read is not mirrored twice.
    const loaded = new Map<number, number>()
    refill = (async () => {
      const until = clock.now() + horizonMs
      const rows = await deliveries.due(windowAt, windowId, until, batch)
      for (const row of rows) {
        heap.push(row.next_attempt_at, row.id, row.id)
        loaded.set(row.id, row.next_attempt_at)
      }
      if (rows.length === batch) {
        const last = rows[rows.length - 1] as DueDelivery
        windowAt = last.next_attempt_at
        windowId = last.id
      } else if (until > windowAt || (until === windowAt && windowId < MAX_KEY)) {
        // Everything up to `until` is loaded now.
        windowAt = until
        windowId = MAX_KEY
      }
      beyond = (await deliveries.nextAfter(windowAt, windowId))?.next_attempt_at
      return true
    })()
      .catch((error: unknown) => {
        // The store did not answer (busy, a server gone): the next schedule, timer or pump reads again.
        console.error('hookloop scheduler: reading due deliveries failed:', error)
        return false
      })
      .then((read) => {
        for (const [id, at] of scheduledMeanwhile ?? []) if (loaded.get(id) !== at) mirror(id, at)
        scheduledMeanwhile = null
        refill = null
        release()
        if (!running) return
        arm()
        if (read) onDue()
      })
    return refill
  }

  function mirror(id: number, at: number): void {
    if (inWindow(at, id)) heap.push(at, id, id)
    else if (beyond === undefined || at < beyond) beyond = at
  }

  function arm(): void {
    if (!running) return
    const next = nextDueAt()
    if (next === undefined) {
      timer?.cancel()
      timer = undefined
      timerAt = MAX_KEY
      return
    }
    const now = clock.now()
    if (next <= now) {
      // Already due: the consumer pulls when it has room; make sure it hears about it.
      if (timer && timerAt <= now) return
      timer?.cancel()
      timerAt = now
      timer = clock.setTimer(0, fire)
      return
    }
    // Already armed for it (or for a step toward a due time beyond the timer range).
    if (timer && (timerAt === next || (next - now > MAX_TIMER_MS && timerAt < next))) return
    timer?.cancel()
    timerAt = Math.min(next, now + MAX_TIMER_MS)
    timer = clock.setTimer(timerAt - now, fire)
  }

  function fire(): void {
    timer = undefined
    timerAt = MAX_KEY
    if (!running) return
    const top = heap.peekPriority()
    if (top !== undefined && top <= clock.now()) onDue()
    else if (heap.size === 0) void startRefill()
    else arm()
  }

  function nextDueAt(): number | undefined {
    return heap.peekPriority() ?? beyond
  }

  return {
    start() {
      running = true
      void startRefill()
    },
    schedule(id, at) {
      if (scheduledMeanwhile) scheduledMeanwhile.push([id, at])
      else mirror(id, at)
      if (!running) return
      if (at <= clock.now()) {
        arm()
        return
      }
      // Only an earlier time than the armed one needs the timer moved.
      if (at < timerAt) arm()
    },
    takeDue(max) {
      const out: DueDelivery[] = []
      const now = clock.now()
      while (out.length < max) {
        if (heap.size === 0) {
          // The window's end has come (or something beyond it is due): read on from the store.
          if (running && (windowAt < now || (windowAt === now && windowId < MAX_KEY) || (beyond !== undefined && beyond <= now))) void startRefill()
          break
        }
        const at = heap.peekPriority() as number
        if (at > now) break
        const id = heap.pop() as number
        out.push({ id, next_attempt_at: at })
      }
      if (out.length < max) arm()
      else if (running && heap.size > 0 && (heap.peekPriority() as number) > clock.now()) arm()
      return out
    },
    nextDueAt,
    refilling: () => refill !== null,
    refilled: async () => {
      while (refill) await refill
    },
    memorySize: () => heap.size,
    reread() {
      const again = () => {
        windowAt = MIN_KEY
        windowId = MIN_KEY
        beyond = undefined
        if (running) void startRefill()
      }
      if (refill) void refill.then(again)
      else again()
    },
    stop() {
      running = false
      timer?.cancel()
      timer = undefined
      timerAt = MAX_KEY
    },
  }
}
