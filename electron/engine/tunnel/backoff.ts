// Waits between tunnel rebuilds: exponential, capped, with jitter so that many Hookloop
// instances cut off by the same outage do not all hit the tunnel server in the same second.

export interface BackoffOptions {
  /** Wait before the first retry. */
  initialMs: number
  /** No wait is ever longer than this. */
  maxMs: number
  /** 0..1: each wait is shortened by up to this fraction, at random. */
  jitter: number
}

// A 10 s cap: the tunnel is back within about 10 s of the server's return, however long the
// outage. With the jitter the waits at the cap are 8–10 s: at most 7.5 requests a minute to a
// server that is down.
export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 10_000, jitter: 0.2 }

/**
 * The wait before retry number `attempt` (1-based): initialMs · 2^(attempt-1), capped at maxMs,
 * then shortened by up to `jitter` of itself. With jitter < 0.5 the waits keep growing until the
 * cap, because the jittered wait is still longer than the previous un-jittered one.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`backoff attempt must be an integer ≥ 1, got ${attempt}`)
  // 2^exponent overflows to Infinity long after the cap; clamp the exponent to keep it a number.
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt - 1, 52))
  const r = Math.min(1, Math.max(0, random()))
  return Math.round(base * (1 - options.jitter * r))
}

/** Throws a clear error for options that would make the backoff spin or never retry. */
export function validateBackoff(options: BackoffOptions): BackoffOptions {
  const { initialMs, maxMs, jitter } = options
  if (!Number.isFinite(initialMs) || initialMs < 10) throw new RangeError(`backoff.initialMs must be ≥ 10 ms, got ${initialMs}`)
  if (!Number.isFinite(maxMs) || maxMs < initialMs) throw new RangeError(`backoff.maxMs must be ≥ backoff.initialMs (${initialMs}), got ${maxMs}`)
  if (!Number.isFinite(jitter) || jitter < 0 || jitter >= 0.5) throw new RangeError(`backoff.jitter must be in [0, 0.5), got ${jitter}`)
  return options
}
