import type { Clock, TimerHandle } from '../../../shared/clock'
import { sleepOn } from './sleep'

export interface ScaledClockOptions {
  /** Clock time runs `factor` times faster than real time (10 = ten clock seconds per real second). */
  factor: number
  /** Clock time at creation, ms since the epoch; default: the real time now. */
  start?: number
}

/** Real timers at delay / factor; now() reports clock time, so schedules keep their clock values. */
export function createScaledClock(options: ScaledClockOptions): Clock {
  const { factor } = options
  if (!(Number.isFinite(factor) && factor > 0)) throw new RangeError(`a scaled clock needs a positive factor, got ${factor}`)
  const realStart = Date.now()
  const start = options.start ?? realStart
  const toReal = (delayMs: number) => Math.max(0, delayMs) / factor
  const clock: Clock = {
    mode: 'scaled',
    now: () => start + Math.round((Date.now() - realStart) * factor),
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      // Real timers may fire a millisecond early, which is `factor` ms of clock time: check the
      // clock on firing and wait out the rest, so a timer never runs before its clock time.
      const due = clock.now() + Math.max(0, delayMs)
      let timer: ReturnType<typeof setTimeout>
      const arm = (clockMs: number) => {
        timer = setTimeout(() => {
          const rest = due - clock.now()
          if (rest > 0) arm(rest)
          else fn()
        }, toReal(clockMs))
      }
      arm(delayMs)
      return { cancel: () => clearTimeout(timer) }
    },
    sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
      return sleepOn(clock.setTimer, delayMs, signal)
    },
  }
  return clock
}
