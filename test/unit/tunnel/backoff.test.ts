import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffDelay, validateBackoff } from '../../../electron/engine/tunnel/backoff'

const options = { initialMs: 1000, maxMs: 60_000, jitter: 0.2 }

describe('backoffDelay', () => {
  it('doubles from initialMs up to the cap without jitter', () => {
    const none = () => 0
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, options, none))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000])
  })

  it('shortens each wait by at most the jitter fraction', () => {
    expect(backoffDelay(1, options, () => 1)).toBe(800)
    expect(backoffDelay(10, options, () => 0.5)).toBe(54000)
  })

  it('stays finite for huge attempt numbers', () => {
    expect(backoffDelay(10_000, options, () => 0)).toBe(60_000)
  })

  it('keeps growing until the cap and never exceeds it, whatever the random draws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 5000 }),
        fc.integer({ min: 1, max: 64 }),
        fc.double({ min: 0, max: 0.49, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 20, maxLength: 20 }),
        (initialMs, factor, jitter, draws) => {
          const o = { initialMs, maxMs: initialMs * factor, jitter }
          const waits = draws.map((r, i) => backoffDelay(i + 1, o, () => r))
          for (const [i, w] of waits.entries()) {
            expect(w).toBeLessThanOrEqual(o.maxMs)
            expect(w).toBeGreaterThanOrEqual(Math.floor(Math.min(o.maxMs, initialMs * 2 ** i) * (1 - jitter)))
            const prev = waits[i - 1]
            const base = initialMs * 2 ** i
            if (prev === undefined || base > o.maxMs) continue
            // Strictly longer unless rounding to whole ms ties two waits less than 1 ms apart.
            if ((0.5 - jitter) * base >= 1) expect(w).toBeGreaterThan(prev)
            else expect(w).toBeGreaterThanOrEqual(prev)
          }
        },
      ),
    )
  })

  it('rejects attempt numbers below 1', () => {
    expect(() => backoffDelay(0, options)).toThrow('backoff attempt must be an integer ≥ 1, got 0')
  })
})

describe('validateBackoff', () => {
  it('names the bad option', () => {
    expect(() => validateBackoff({ initialMs: 0, maxMs: 10, jitter: 0 })).toThrow('backoff.initialMs must be ≥ 10 ms, got 0')
    expect(() => validateBackoff({ initialMs: 100, maxMs: 50, jitter: 0 })).toThrow('backoff.maxMs must be ≥ backoff.initialMs (100), got 50')
    expect(() => validateBackoff({ initialMs: 100, maxMs: 500, jitter: 0.5 })).toThrow('backoff.jitter must be in [0, 0.5), got 0.5')
  })
})
