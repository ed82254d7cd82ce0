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

/** How a scheme writes its time: Unix seconds (most), Unix milliseconds (HubSpot), RFC 3339 (Twitch). */
export type TimestampFormat = 'unix-s' | 'unix-ms' | 'iso'

export function formatTimestamp(seconds: number, format: TimestampFormat): string {
  switch (format) {
    case 'unix-s':
      return String(seconds)
    case 'unix-ms':
      return String(seconds * 1000)
    case 'iso':
      return new Date(seconds * 1000).toISOString()
    default: {
      const never: never = format
      throw new Error(`unknown timestamp format ${String(never)}`)
    }
  }
}

/** The header's time in Unix seconds, or undefined when it is not written in the format. */
export function parseTimestamp(text: string, format: TimestampFormat): number | undefined {
  const trimmed = text.trim()
  switch (format) {
    case 'unix-s':
      return parseUnixSeconds(trimmed)
    case 'unix-ms':
      return /^\d{1,16}$/.test(trimmed) ? Math.floor(Number(trimmed) / 1000) : undefined
    case 'iso': {
      // RFC 3339 with a zone (Twitch sends nanoseconds: Date keeps milliseconds, enough for seconds).
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed)) return undefined
      const ms = Date.parse(trimmed.replace(/(\.\d{3})\d+/, '$1'))
      return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined
    }
    default: {
      const never: never = format
      throw new Error(`unknown timestamp format ${String(never)}`)
    }
  }
}

/** Completes "the header … is not …". */
export function timestampShape(format: TimestampFormat): string {
  return format === 'unix-s' ? 'a Unix time in seconds' : format === 'unix-ms' ? 'a Unix time in milliseconds' : 'an RFC 3339 time (2026-12-02T10:00:00Z)'
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
