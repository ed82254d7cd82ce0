import type { Clock, TimerHandle } from '../../../shared/clock'

/** Wall-clock time: for real providers and real endpoints. */
export function createRealClock(): Clock {
  return {
    mode: 'real',
    now: () => Date.now(),
    setTimer(delayMs: number, fn: () => void): TimerHandle {
      const timer = setTimeout(fn, Math.max(0, delayMs))
      return { cancel: () => clearTimeout(timer) }
    },
    sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason)
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }, Math.max(0, delayMs))
        const onAbort = () => {
          clearTimeout(timer)
          reject(signal?.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
      })
    },
  }
}
