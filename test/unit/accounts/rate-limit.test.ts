// Sign-in's rate limit: per key in a sliding minute, every key of an attempt counted, and the wait
// until the oldest attempt leaves the window.
import { describe, expect, it } from 'vitest'
import { createRateLimit } from '../../../electron/engine/accounts'

describe('the sign-in rate limit', () => {
  it('lets the limit through in a minute, then answers the seconds until the oldest attempt leaves it', () => {
    const limit = createRateLimit(3)
    expect(limit.take(['ip:a', 'email:x'], 0)).toBeNull()
    expect(limit.take(['ip:a', 'email:x'], 10_000)).toBeNull()
    expect(limit.take(['ip:a', 'email:x'], 20_000)).toBeNull()
    expect(limit.take(['ip:a', 'email:x'], 30_000)).toBe(30)
    expect(limit.take(['ip:a', 'email:x'], 60_001)).toBeNull()
  })

  it('holds a key past its limit whatever the other keys of the attempt', () => {
    const limit = createRateLimit(2)
    limit.take(['ip:a', 'email:x'], 0)
    limit.take(['ip:b', 'email:x'], 0)
    // Another address, the same email: the email's limit.
    expect(limit.take(['ip:c', 'email:x'], 1_000)).toBe(59)
    // The same address, another email: still free.
    expect(limit.take(['ip:c', 'email:y'], 1_000)).toBeNull()
  })

  it('a refused attempt is not counted', () => {
    const limit = createRateLimit(1)
    limit.take(['k'], 0)
    expect(limit.take(['k'], 59_000)).toBe(1)
    expect(limit.take(['k'], 60_000)).toBeNull()
  })
})
