// The real clock, for a retention pass the test holds between two batches: its rests wait until
// the test releases them, so another pass can be started while this one holds the store, however
// fast or slow the machine is.
import type { Clock } from '../../shared/clock'
import { createRealClock } from '../../electron/engine/clock'

/** The real clock, whose rests wait until `release` is called once the first rest has begun (`resting`). */
export function heldClock(): { timers: Clock; resting: Promise<void>; release: () => void } {
  const real = createRealClock()
  let release = () => {}
  let rested = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const resting = new Promise<void>((resolve) => (rested = resolve))
  const timers: Clock = {
    mode: real.mode,
    now: () => real.now(),
    setTimer: (delayMs, fn) => real.setTimer(delayMs, fn),
    sleep: async (delayMs, signal) => {
      rested()
      await gate
      return real.sleep(delayMs, signal)
    },
  }
  return { timers, resting, release }
}
