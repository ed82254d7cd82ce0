// Sign-in attempts counted per key (an address, an email) in a sliding minute: a key past its
// limit waits until its oldest attempt leaves the window. Pure, on an injected clock.

export interface RateLimit {
  /** Counts an attempt for every key; null when all are within their limits, else the seconds to wait. */
  take(keys: readonly string[], now: number): number | null
}

export function createRateLimit(perMinute: number, windowMs = 60_000): RateLimit {
  const attempts = new Map<string, number[]>()
  const recent = (key: string, now: number): number[] => {
    const kept = (attempts.get(key) ?? []).filter((at) => at > now - windowMs)
    if (kept.length === 0) attempts.delete(key)
    else attempts.set(key, kept)
    return kept
  }
  return {
    take(keys, now) {
      // Keys nobody tried for a minute are forgotten: many addresses cannot grow this without bound.
      if (attempts.size > 10_000) for (const key of [...attempts.keys()]) recent(key, now)
      let wait = 0
      for (const key of keys) {
        const kept = recent(key, now)
        if (kept.length >= perMinute) wait = Math.max(wait, (kept[0] as number) + windowMs - now)
      }
      if (wait > 0) return Math.max(1, Math.ceil(wait / 1000))
      for (const key of keys) attempts.set(key, [...recent(key, now), now])
      return null
    },
  }
}
