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
