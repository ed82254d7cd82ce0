// The seed's badge: failed deliveries over the last 24 h, red strictly above 5 %.
import { describe, expect, it } from 'vitest'
import { COUNT_WORDS, countText, failureRate, failureRateIsRed, FAILURE_RATE_WINDOW_MS } from '../../../shared/contract'

describe('the 24 h failure badge', () => {
  it('is failed over created, 0 when nothing was created', () => {
    expect(failureRate(0, 0)).toBe(0)
    expect(failureRate(1, 20)).toBe(0.05)
    expect(failureRate(10, 10)).toBe(1)
  })

  it('turns red above 5 %, not at 5 %', () => {
    expect(failureRateIsRed(failureRate(1, 20))).toBe(false)
    expect(failureRateIsRed(failureRate(2, 39))).toBe(true)
    expect(failureRateIsRed(0)).toBe(false)
  })

  it('looks back one day, and says so', () => {
    expect(FAILURE_RATE_WINDOW_MS).toBe(86_400_000)
    expect(COUNT_WORDS.failureRate24h.explain).toMatch(/last 24 h of wall time; red above 5 %/)
  })
})

describe('a count with its word', () => {
  it('says one row, two rows, 1,234 requests', () => {
    expect([countText(1, 'row'), countText(2, 'row'), countText(1234, 'request'), countText(0, 'selected row')]).toEqual(['1 row', '2 rows', '1,234 requests', '0 selected rows'])
  })
})
