import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  baseDelayMs,
  classifyOutcome,
  decideAfterAttempt,
  expectedSchedule,
  NETWORK_OUTCOMES,
  parseRetryAfterMs,
  retryDelayMs,
  type AttemptOutcome,
  type Policy,
} from '../../../shared/sender'
import { POLICY_PRESETS, POLICY_PRESET_IDS, resolvePolicy } from '../../../shared/sender'

const MIN = 60_000
const A = POLICY_PRESETS.pandoktorek
const B = POLICY_PRESETS.csku

describe('seed provider A (pandoktorek)', () => {
  it('expected schedule is exactly the seed table: 0, 2, 6, 14, 30, 62, 126, 254, 510, 870 min', () => {
    const schedule = expectedSchedule(A)
    expect(schedule.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(schedule.map((s) => s.at_ms / MIN)).toEqual([0, 2, 6, 14, 30, 62, 126, 254, 510, 870])
    expect(schedule.map((s) => s.delay_ms / MIN)).toEqual([0, 2, 4, 8, 16, 32, 64, 128, 256, 360])
  })

  it('delay after failed attempt N is min(2^N, 360) minutes for every N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), (n) => {
        expect(retryDelayMs(A, n)).toBe(Math.min(2 ** n, 360) * MIN)
      }),
    )
  })

  it('a retryable outcome before the 10th attempt is retried after min(2^N, 360) min; the 10th ends failed', () => {
    const retryable = fc.oneof(
      fc.integer({ min: 500, max: 599 }).map((s) => `http_${s}` as AttemptOutcome),
      fc.constantFrom<AttemptOutcome>('timeout', 'connection_refused', 'dns', 'reset', 'connection_error'),
    )
    fc.assert(
      fc.property(retryable, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 2 ** 42 }), (outcome, attempt, now) => {
        const d = decideAfterAttempt(A, { attempt, outcome, now })
        if (attempt === 10) expect(d).toEqual({ decision: 'failed', reason: 'max_attempts' })
        else expect(d).toEqual({ decision: 'retry', reason: 'schedule', delay_ms: Math.min(2 ** attempt, 360) * MIN, at: now + Math.min(2 ** attempt, 360) * MIN })
      }),
    )
  })

  it('classifies every row of the seed table', () => {
    for (const s of [200, 201, 204]) expect(classifyOutcome(A, `http_${s}`)).toBe('succeeded')
    for (const s of [301, 302]) expect(classifyOutcome(A, `http_${s}`)).toBe('failed')
    fc.assert(fc.property(fc.integer({ min: 400, max: 499 }), (s) => {
      expect(classifyOutcome(A, `http_${s}`)).toBe('failed')
    }))
    fc.assert(fc.property(fc.integer({ min: 500, max: 599 }), (s) => {
      expect(classifyOutcome(A, `http_${s}`)).toBe('retry')
    }))
    for (const o of ['timeout', 'connection_refused', 'dns'] as const) expect(classifyOutcome(A, o)).toBe('retry')
    expect(A.timeout_ms).toBe(10_000)
    expect(A.follow_redirects).toBe(0)
  })

  it('final outcomes stay final whatever the attempt number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 499 }), fc.integer({ min: 1, max: 10 }), (s, attempt) => {
        expect(decideAfterAttempt(A, { attempt, outcome: `http_${s}`, now: 0 })).toEqual({ decision: 'failed', reason: 'final_outcome' })
      }),
    )
  })
})

describe('seed provider B (csku)', () => {
  it('4 attempts in all, 30 s apart: 0, 30, 60, 90 s', () => {
    expect(expectedSchedule(B).map((s) => s.at_ms)).toEqual([0, 30_000, 60_000, 90_000])
    expect(B.max_attempts).toBe(4)
  })

  it('success is HTTP 200 only; everything else is retried until the 4th attempt, then failed', () => {
    expect(classifyOutcome(B, 'http_200')).toBe('succeeded')
    const other = fc.oneof(
      fc.integer({ min: 100, max: 599 }).filter((s) => s !== 200).map((s) => `http_${s}` as AttemptOutcome),
      fc.constantFrom<AttemptOutcome>(...NETWORK_OUTCOMES),
    )
    fc.assert(
      fc.property(other, fc.integer({ min: 1, max: 4 }), (outcome, attempt) => {
        const d = decideAfterAttempt(B, { attempt, outcome, now: 1_000 })
        if (attempt < 4) expect(d).toEqual({ decision: 'retry', reason: 'schedule', delay_ms: 30_000, at: 31_000 })
        else expect(d).toEqual({ decision: 'failed', reason: 'max_attempts' })
      }),
    )
  })
})

describe('schedule math', () => {
  it('the expected schedule is cumulative and has max_attempts entries for every preset', () => {
    for (const id of POLICY_PRESET_IDS) {
      const p = POLICY_PRESETS[id]
      const s = expectedSchedule(p)
      expect(s).toHaveLength(p.max_attempts)
      for (let i = 1; i < s.length; i++) {
        const prev = s[i - 1]
        const cur = s[i]
        expect(cur?.at_ms).toBe((prev?.at_ms ?? 0) + (cur?.delay_ms ?? 0))
      }
    }
  })

  it('svix and standard-webhooks follow the published table; github never retries', () => {
    expect(expectedSchedule(POLICY_PRESETS.svix).map((s) => s.delay_ms)).toEqual([0, 5_000, 5 * MIN, 30 * MIN, 120 * MIN, 300 * MIN, 600 * MIN, 600 * MIN])
    expect(decideAfterAttempt(POLICY_PRESETS.github, { attempt: 1, outcome: 'http_503', now: 0 })).toEqual({ decision: 'failed', reason: 'final_outcome' })
    expect(expectedSchedule(POLICY_PRESETS.github)).toEqual([{ n: 1, delay_ms: 0, at_ms: 0 }])
  })

  it('a list schedule repeats its last delay', () => {
    const schedule = { kind: 'list' as const, delays_ms: [1, 2, 3] }
    expect([1, 2, 3, 4, 5].map((n) => baseDelayMs(schedule, n))).toEqual([1, 2, 3, 3, 3])
  })

  it('jitter is reproducible and stays within ±ratio of the delay', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer(), fc.string(), fc.integer({ min: 1, max: 12 }), (ratio, seed, key, n) => {
        const p: Pick<Policy, 'schedule' | 'jitter'> = { schedule: A.schedule, jitter: { ratio, seed } }
        const d = retryDelayMs(p, n, key)
        expect(retryDelayMs(p, n, key)).toBe(d)
        const base = baseDelayMs(A.schedule, n)
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * (1 - ratio)))
        expect(d).toBeLessThanOrEqual(Math.ceil(base * (1 + ratio)))
      }),
    )
  })

  it('rejects a failed-attempt number that is not a positive integer', () => {
    expect(() => baseDelayMs(A.schedule, 0)).toThrow(/positive integer/)
  })
})

describe('Retry-After', () => {
  const custom = POLICY_PRESETS.custom
  it('is honoured (seconds or an HTTP date) where the policy says so, bounded by max_ms', () => {
    expect(decideAfterAttempt(custom, { attempt: 1, outcome: 'http_429', now: 1_000, retryAfter: '120' })).toEqual({ decision: 'retry', reason: 'retry_after', delay_ms: 120_000, at: 121_000 })
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000)
    expect(decideAfterAttempt(custom, { attempt: 1, outcome: 'http_503', now: 0, retryAfter: String(10 ** 9) })).toMatchObject({ delay_ms: custom.retry_after.max_ms })
  })

  it('is ignored where the policy does not honour it, or when unparseable', () => {
    expect(decideAfterAttempt(A, { attempt: 1, outcome: 'http_503', now: 0, retryAfter: '5' })).toMatchObject({ reason: 'schedule', delay_ms: 2 * MIN })
    expect(decideAfterAttempt(custom, { attempt: 1, outcome: 'http_503', now: 0, retryAfter: 'soon' })).toMatchObject({ reason: 'schedule' })
  })
})

describe('resolvePolicy', () => {
  it('gives a preset by name, a copy that can be changed safely', () => {
    const p = resolvePolicy('pandoktorek')
    expect(p).toEqual(A)
    p.max_attempts = 1
    expect(A.max_attempts).toBe(10)
  })

  it('overrides fields of a preset', () => {
    const p = resolvePolicy({ preset: 'csku', max_attempts: 2, timeout_ms: 1_000 })
    expect(p).toMatchObject({ name: 'csku', max_attempts: 2, timeout_ms: 1_000, schedule: B.schedule })
  })

  it('keeps the preset\'s Retry-After handling when an override leaves it out', () => {
    const preset = POLICY_PRESET_IDS.find((id) => POLICY_PRESETS[id].retry_after.honour)
    expect(preset).toBeDefined()
    const p = resolvePolicy({ preset: preset!, max_attempts: 2 })
    expect(p.retry_after).toEqual(POLICY_PRESETS[preset!].retry_after)
    expect(p.max_attempts).toBe(2)
  })

  it('names the path of what is wrong', () => {
    expect(() => resolvePolicy({ preset: 'pandoktorek', schedule: { kind: 'fixed', interval_ms: -1 } })).toThrow(/interval_ms/)
    expect(() => resolvePolicy('nope' as never)).toThrow()
  })
})
