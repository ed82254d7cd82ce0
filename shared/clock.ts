// Time for delivery logic is always injected: nothing in the sender, scheduler or receiver's
// fault steps reads Date.now() or calls setTimeout directly.

export type ClockMode = 'real' | 'scaled' | 'virtual'

export interface TimerHandle {
  cancel(): void
}

export interface Clock {
  readonly mode: ClockMode
  /** Milliseconds since the Unix epoch, on this clock. */
  now(): number
  /** Run fn once the clock has advanced by delayMs (clock time, not wall time). */
  setTimer(delayMs: number, fn: () => void): TimerHandle
  /** Resolves after delayMs of clock time; rejects with the signal's reason when aborted. */
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>
}

/**
 * A moment of a simulation as time since it started: "+14 m 00 s". A simulated time is shown this
 * way (or marked "simulated"), never as a date, and a wall time goes beside it (docs/time.md).
 */
export function formatRunOffset(ms: number): string {
  const abs = Math.abs(Math.round(ms / 1000))
  const sign = ms < 0 ? '−' : '+'
  const d = Math.floor(abs / 86_400)
  const h = Math.floor((abs % 86_400) / 3600)
  const m = Math.floor((abs % 3600) / 60)
  const s = abs % 60
  const pad = (n: number) => String(n).padStart(2, '0')
  if (d > 0) return `${sign}${d} d ${h} h ${pad(m)} m ${pad(s)} s`
  if (h > 0) return `${sign}${h} h ${pad(m)} m ${pad(s)} s`
  return `${sign}${m} m ${pad(s)} s`
}
