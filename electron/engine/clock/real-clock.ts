import type { Clock, TimerHandle } from '../../../shared/clock'
import { sleepOn } from './sleep'

/**
 * Wall-clock time: for real providers and real endpoints. `unref`: its timers never keep the
 * process alive (housekeeping such as retention's schedule).
 */
export function createRealClock(options: { unref?: boolean } = {}): Clock {
  const clock: Clock = {
    mode: 'real',
    now: () => Date.now(),
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer = setTimeout(fn, Math.max(0, delayMs))
      if (options.unref) timer.unref()
      return { cancel: () => clearTimeout(timer) }
    },
    sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
      return sleepOn(clock.setTimer, delayMs, signal)
    },
  }
  return clock
}
