import type { Clock, TimerHandle } from '../../../shared/clock'

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
  return {
    mode: 'scaled',
    now: () => start + Math.round((Date.now() - realStart) * factor),
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer = setTimeout(fn, toReal(delayMs))
      return { cancel: () => clearTimeout(timer) }
    },
    sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }, toReal(delayMs))
        const onAbort = () => {
          clearTimeout(timer)
          reject(signal?.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
  }
}
