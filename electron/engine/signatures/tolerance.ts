import type { SchemeMeta, VerifyResult } from '../../../shared/signatures'
import { fail } from './result'

export interface Tolerance {
  seconds: number | null
  mode: SchemeMeta['toleranceMode']
}

/** Unix seconds as sent in a header: digits only (a float or a date string is malformed). */
export function parseUnixSeconds(text: string): number | undefined {
  const trimmed = text.trim()
  return /^\d{1,13}$/.test(trimmed) ? Number(trimmed) : undefined
}

export function nowSeconds(now: number | undefined): number {
  return now ?? Math.floor(Date.now() / 1000)
}

/**
 * Undefined when the timestamp is within tolerance; otherwise the failure, with the skew in the
 * sentence so a person can tell a replay (hours old) from a drifting clock (seconds).
 */
export function checkTolerance(meta: SchemeMeta, timestamp: number, now: number, tolerance: Tolerance, what = 'timestamp'): VerifyResult | undefined {
  if (tolerance.seconds === null) return undefined
  const skew = now - timestamp
  if (skew > tolerance.seconds) {
    return fail(
      meta.id,
      'timestamp_too_old',
      `The signature matches but the ${what} is ${skew} s old and ${meta.label} accepts at most ${tolerance.seconds} s: the request is stale or replayed, or a clock is behind.`,
      { skewSeconds: skew },
    )
  }
  if (tolerance.mode === 'both' && -skew > tolerance.seconds) {
    // A 13-digit value is the classic milliseconds-for-seconds mix-up, not a clock problem.
    const why = timestamp > now * 100 ? `the ${what} looks like milliseconds, but it must be Unix seconds` : `the sender's clock is ahead or the ${what} was changed`
    return fail(
      meta.id,
      'timestamp_too_new',
      `The signature matches but the ${what} is ${-skew} s in the future, beyond ${meta.label}'s tolerance of ${tolerance.seconds} s: ${why}.`,
      { skewSeconds: skew },
    )
  }
  return undefined
}
