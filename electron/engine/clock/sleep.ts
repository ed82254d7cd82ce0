import type { Clock } from '../../../shared/clock'

/** Clock.sleep for any clock, on top of its setTimer: resolves when the timer fires, rejects with the signal's reason when aborted. */
export function sleepOn(setTimer: Clock['setTimer'], delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      handle.cancel()
      reject(signal?.reason)
    }
    const handle = setTimer(delayMs, () => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    })
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
