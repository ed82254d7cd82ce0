import type { Clock, TimerHandle } from '../../../shared/clock'
import { MinHeap } from './min-heap'
import { sleepOn } from './sleep'

// The virtual clock stands still while anything real is happening and jumps straight to the next
// due timer as soon as nothing can make progress without time passing. "Something real is
// happening" is said explicitly: a party doing real I/O (the sender's POST, a socket write) takes a
// hold and releases it when done. Between holds, the clock waits a few event-loop turns (each one
// runs the poll phase, so loopback I/O that is already on its way is delivered first) before it
// jumps. A hold with a key can be parked by the party that ends up waiting on this clock for that
// work (the receiver sleeping in a `delay` step for the sender's request): parked holds do not stop
// a jump, so "receiver sleeps 11 s, sender times out after 10 s" resolves at once and exactly.
//
// Work can be queued behind parked work where the clock cannot see it: through a tunnel with 10
// sockets, 10 requests sleeping in the receiver (parked) occupy every socket and the 11th waits at
// the tunnel server for one to free up, which happens only once the clock moves, while its hold
// keeps the clock still. So a keyed hold still unparked `transitMs` real ms after it was taken
// stops blocking while other work is parked: the clock moves on (the queued request then meets
// its own clock timeout, as it would in real time). Without parked work nothing waits on the clock
// and such a hold keeps blocking (until maxRealMs).
//
// No hold can freeze the clock for good: one whose owner never releases it (a path that forgot
// to, a commit that never settles) stops blocking after a real-time limit of its own
// (`maxRealMs`) or the clock's (`holdLimitMs`), and inspect() counts it, so a leak is seen
// rather than felt as a clock that silently stopped.

export interface HoldOptions {
  /** Names the work (the sender uses its attempt key) so `waiting(key)` can park it. */
  key?: string
  /**
   * Real milliseconds after which the hold stops blocking on its own: real work that hangs (an
   * external endpoint that never answers) cannot freeze the clock; its clock timeout then fires.
   * Default: the clock's holdLimitMs.
   */
  maxRealMs?: number
}

export interface VirtualClock extends Clock {
  readonly mode: 'virtual'
  /** Take a hold on real work; call the returned function once (more calls are harmless). */
  hold(options?: HoldOptions): () => void
  /**
   * The work named `key` is now waiting on this clock (a sleep on its behalf is pending); its
   * holds stop blocking jumps until the returned resume is called.
   */
  waiting(key: string): () => void
  /**
   * The work named `key` has reached the party that serves it (the receiver linked the attempt):
   * it is no longer in transit, so it is never taken for queued behind parked work. While
   * unparked it is real work in flight (a forward to an app) and blocks jumps until released or
   * its maxRealMs: its clock timeout cannot fire while the app is still answering.
   */
  arrived(key: string): void
  /** Timers not yet fired or cancelled. */
  pendingTimers(): number
  /** What the clock is waiting on right now (for diagnostics: a clock that does not advance says why). */
  inspect(): VirtualClockState
  /** Stop jumping and drop every timer (nothing fires afterwards). */
  dispose(): void
}

export interface VirtualClockState {
  now: number
  pendingTimers: number
  /** Due time of the earliest live timer. */
  nextTimerAt: number | null
  /**
   * Active holds by key (anonymous holds are counted under "anonymous"): whether each is parked,
   * and whether it is taken for queued behind parked work (unparked past transitMs).
   */
  holds: { key: string; count: number; parked: boolean; queued: boolean }[]
  /** True when an unparked hold stops the next jump. */
  blocked: boolean
  /** Holds that stopped blocking on their real-time limit instead of being released. */
  expiredHolds: number
  disposed: boolean
}

export interface VirtualClockOptions {
  /** Clock time at creation, ms since the epoch; default: the real time now. */
  start?: number
  /** Quiet event-loop turns required before a jump (default 3). */
  settleTurns?: number
  /**
   * Real milliseconds after which a hold given no maxRealMs stops blocking (default 60 000): far
   * beyond any real step a hold covers (a commit, a loopback exchange), so it only ends leaks.
   */
  holdLimitMs?: number
  /**
   * Real milliseconds a keyed hold may stay unparked, while other work is parked, before it
   * counts as queued behind that work and stops blocking (default 2 000; see the header).
   */
  transitMs?: number
  /**
   * The real time that bounds holds (hold limits, transitMs). Default: performance.now() and
   * unref'd setTimeout. Tests inject their own so a hold limit expires when they say, not when a
   * busy machine happens to get there.
   */
  realTime?: RealTime
}

/** Real (wall) time as the clock's hold bookkeeping sees it: a monotonic now and a one-shot timer. */
export interface RealTime {
  now(): number
  setTimer(delayMs: number, fn: () => void): TimerHandle
}

const defaultRealTime: RealTime = {
  now: () => performance.now(),
  setTimer(delayMs, fn) {
    const timer = setTimeout(fn, delayMs)
    timer.unref?.()
    return { cancel: () => clearTimeout(timer) }
  },
}

export const DEFAULT_TRANSIT_MS = 2_000

export const DEFAULT_HOLD_LIMIT_MS = 60_000

interface Timer {
  fn: () => void
  cancelled: boolean
}

export function createVirtualClock(options: VirtualClockOptions = {}): VirtualClock {
  let current = options.start ?? Date.now()
  const settleTurns = Math.max(1, options.settleTurns ?? 3)
  const holdLimitMs = Math.max(1, options.holdLimitMs ?? DEFAULT_HOLD_LIMIT_MS)
  let expiredHolds = 0
  const real = options.realTime ?? defaultRealTime
  const transitMs = Math.max(0, options.transitMs ?? DEFAULT_TRANSIT_MS)
  // keyed hold → real time (real.now()) its key was first held; a poke when one turns queued.
  const heldSince = new Map<string, number>()
  let transitTimer: TimerHandle | null = null
  const timers = new MinHeap<Timer>()
  let live = 0
  let seq = 0
  // key → number of active holds; key → number of parties waiting on the clock for it.
  const holds = new Map<string, number>()
  const waiters = new Map<string, number>()
  let anonymous = 0
  let version = 0
  let checking = false
  let disposed = false

  function parkedWork(): boolean {
    for (const [key, count] of holds) if (count > 0 && waiters.get(key)) return true
    return false
  }

  /** Unparked keyed hold taken more than transitMs ago while other work is parked: queued behind it. */
  function queuedFor(key: string, parked: boolean, now: number): number {
    const since = heldSince.get(key)
    if (!parked || since === undefined) return Number.POSITIVE_INFINITY
    return since + transitMs - now
  }

  function blocked(): boolean {
    const parked = parkedWork()
    const now = real.now()
    let soonest = Number.POSITIVE_INFINITY
    for (const [key, count] of holds) {
      if (count <= 0 || waiters.get(key)) continue
      const left = queuedFor(key, parked, now)
      if (left <= 0) continue
      if (left === Number.POSITIVE_INFINITY) return true // released (or parked) later: that pokes
      soonest = Math.min(soonest, left)
    }
    if (soonest === Number.POSITIVE_INFINITY) return false
    // Only holds that may turn "queued" block: look again when the first of them does.
    if (!transitTimer && !disposed) {
      transitTimer = real.setTimer(Math.ceil(soonest), () => {
        transitTimer = null
        poke()
      })
    }
    return true
  }

  function poke(): void {
    version++
    if (checking || disposed) return
    checking = true
    settle(version, settleTurns)
  }

  function settle(seen: number, turns: number): void {
    setImmediate(() => {
      if (disposed) {
        checking = false
        return
      }
      if (version !== seen) return settle(version, settleTurns)
      if (turns > 1) return settle(seen, turns - 1)
      checking = false
      jump()
    })
  }

  function dropCancelled(): void {
    while (timers.size > 0 && timers.peek()?.cancelled) timers.pop()
  }

  function jump(): void {
    dropCancelled()
    if (timers.size === 0 || blocked()) return // a release or a new timer pokes again
    const at = timers.peekPriority() as number
    if (at > current) current = at
    // Fire every timer due at this instant, in the order they were set.
    while (timers.size > 0 && (timers.peekPriority() as number) <= current) {
      const timer = timers.pop() as Timer
      if (timer.cancelled) continue
      timer.cancelled = true
      live--
      try {
        timer.fn()
      } catch (error) {
        // A throwing callback is a bug in its owner; report it without stopping the clock.
        queueMicrotask(() => {
          throw error
        })
      }
    }
    poke()
  }

  function changeCount(map: Map<string, number>, key: string, by: number): void {
    const next = (map.get(key) ?? 0) + by
    if (next <= 0) map.delete(key)
    else map.set(key, next)
  }

  const clock: VirtualClock = {
    mode: 'virtual',
    now: () => current,
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer: Timer = { fn, cancelled: false }
      timers.push(current + Math.max(0, delayMs), seq++, timer)
      live++
      poke()
      return {
        cancel: () => {
          if (timer.cancelled) return
          timer.cancelled = true
          live--
        },
      }
    },
    sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
      return sleepOn(clock.setTimer, delayMs, signal)
    },
    hold(holdOptions: HoldOptions = {}): () => void {
      const key = holdOptions.key ?? `\0anonymous:${anonymous++}`
      if (holdOptions.key !== undefined && !holds.has(key)) heldSince.set(key, real.now())
      changeCount(holds, key, 1)
      version++
      let released = false
      // Every hold is bounded in real time (see the header): a leaked one cannot stop the clock.
      const expiry = real.setTimer(holdOptions.maxRealMs ?? holdLimitMs, () => {
        if (released) return
        expiredHolds++
        release()
      })
      const release = () => {
        if (released) return
        released = true
        expiry.cancel()
        changeCount(holds, key, -1)
        if (!holds.has(key)) heldSince.delete(key)
        poke()
      }
      return release
    },
    waiting(key: string): () => void {
      changeCount(waiters, key, 1)
      poke()
      let resumed = false
      return () => {
        if (resumed) return
        resumed = true
        changeCount(waiters, key, -1)
        poke()
      }
    },
    arrived(key: string): void {
      if (heldSince.delete(key)) poke()
    },
    pendingTimers: () => live,
    inspect(): VirtualClockState {
      dropCancelled()
      const list: VirtualClockState['holds'] = []
      let unnamed = 0
      const parked = parkedWork()
      const now = real.now()
      for (const [key, count] of holds) {
        if (key.startsWith('\0anonymous:')) unnamed += count
        else {
          const isParked = (waiters.get(key) ?? 0) > 0
          list.push({ key, count, parked: isParked, queued: !isParked && queuedFor(key, parked, now) <= 0 })
        }
      }
      if (unnamed > 0) list.push({ key: 'anonymous', count: unnamed, parked: false, queued: false })
      return { now: current, pendingTimers: live, nextTimerAt: timers.size > 0 ? (timers.peekPriority() as number) : null, holds: list, blocked: blocked(), expiredHolds, disposed }
    },
    dispose() {
      disposed = true
      transitTimer?.cancel()
      transitTimer = null
      timers.clear()
      live = 0
    },
  }
  return clock
}
