import type { Clock } from '../../../shared/clock'
import type { HoldOptions, VirtualClock } from './virtual-clock'

// Parties that do real I/O call these with whatever clock they were given: on a virtual clock they
// hold / park work (see virtual-clock.ts); on real and scaled clocks real time passes anyway and
// they do nothing.

export function isVirtualClock(clock: Clock): clock is VirtualClock {
  return clock.mode === 'virtual' && typeof (clock as Partial<VirtualClock>).hold === 'function'
}

const NOTHING = () => {}

/** Marks real work in progress: the virtual clock will not jump until the returned release runs. */
export function holdWork(clock: Clock, options?: HoldOptions): () => void {
  return isVirtualClock(clock) ? clock.hold(options) : NOTHING
}

/**
 * The work named `key` (the attempt id of an `x-hookloop-attempt` link the receiver checked, never
 * the raw header value: anyone can send a number) now waits on the clock: call before a clock sleep
 * on its behalf, and the returned resume when the sleep ends.
 */
export function waitingOnClock(clock: Clock, key: string | undefined): () => void {
  return key !== undefined && isVirtualClock(clock) ? clock.waiting(key) : NOTHING
}

/** The work named `key` (a checked attempt link, as for waitingOnClock) reached the receiver: no longer in transit. */
export function arrivedOnClock(clock: Clock, key: string): void {
  if (isVirtualClock(clock)) clock.arrived(key)
}
