import { describe, expect, it } from 'vitest'
import type { ConsumerCheckResult, ProbeObservation } from '../../../../shared/conformance'
import { CONSUMER_CHECK_IDS } from '../../../../shared/conformance'
import { CONSUMER_ADVICE, describeAnswer, formatReportCard, gradeConsumer, percentile, type GradeInput } from '../../../../electron/engine/conformance/consumer'

// Grading is pure: each verdict from made-up answers.

function answer(status: number | null, duration = 20, extra: Partial<ProbeObservation> = {}): ProbeObservation {
  return { outcome: status === null ? 'timeout' : `http_${status}`, status_code: status, duration_ms: duration, location: null, response_excerpt: null, error: null, ...extra }
}

function input(overrides: Partial<GradeInput> = {}): GradeInput {
  return {
    valid: answer(200),
    duplicate: answer(200),
    wrongSignature: answer(401),
    missingSignature: answer(400),
    staleTimestamp: answer(401),
    staleBySeconds: 3600,
    malformedBody: answer(400),
    latency: [answer(200, 10), answer(200, 30), answer(200, 20)],
    timeoutMs: 10_000,
    warnAboveMs: 5_000,
    ...overrides,
  }
}

function severity(i: GradeInput, id: (typeof CONSUMER_CHECK_IDS)[number]): string {
  return gradeConsumer(i).find((c) => c.id === id)!.severity
}

describe('gradeConsumer', () => {
  it('grades every check once, in the documented order, with advice', () => {
    const checks = gradeConsumer(input())
    // Every check but the handshake's, which a run adds only when a handshake is asked for.
    expect(checks.map((c) => c.id)).toEqual(CONSUMER_CHECK_IDS.filter((id) => id !== 'handshake_answered'))
    expect(checks.every((c) => c.severity === 'pass' && c.passed)).toBe(true)
    for (const c of checks) {
      expect(c.why).toBe(CONSUMER_ADVICE[c.id].why)
      expect(c.fix).toBe(CONSUMER_ADVICE[c.id].fix)
    }
  })

  it('valid delivery: 2xx passes, slow 2xx warns, anything else fails', () => {
    expect(severity(input({ valid: answer(204, 5_000) }), 'valid_delivery')).toBe('pass')
    expect(severity(input({ valid: answer(200, 5_001) }), 'valid_delivery')).toBe('warn')
    expect(severity(input({ valid: answer(401) }), 'valid_delivery')).toBe('fail')
    expect(severity(input({ valid: answer(null, 10_000) }), 'valid_delivery')).toBe('fail')
    expect(severity(input({ valid: answer(302) }), 'valid_delivery')).toBe('fail')
  })

  it('requests that must be refused: 4xx passes; 2xx, 5xx, 3xx and timeouts fail', () => {
    for (const [key, id] of [
      ['wrongSignature', 'wrong_signature_rejected'],
      ['missingSignature', 'missing_signature_rejected'],
      ['staleTimestamp', 'stale_timestamp_rejected'],
      ['malformedBody', 'malformed_body_rejected'],
    ] as const) {
      expect(severity(input({ [key]: answer(403) }), id)).toBe('pass')
      expect(severity(input({ [key]: answer(422) }), id)).toBe('pass')
      expect(severity(input({ [key]: answer(200) }), id)).toBe('fail')
      expect(severity(input({ [key]: answer(500) }), id)).toBe('fail')
      expect(severity(input({ [key]: answer(301) }), id)).toBe('fail')
      expect(severity(input({ [key]: answer(null) }), id)).toBe('fail')
    }
  })

  it('a scheme without timestamps skips the stale check, which still counts as passed', () => {
    const stale = gradeConsumer(input({ staleTimestamp: null })).find((c) => c.id === 'stale_timestamp_rejected')!
    expect(stale.severity).toBe('skip')
    expect(stale.passed).toBe(true)
    expect(stale.probes).toEqual([])
  })

  it('a duplicate must get 2xx', () => {
    expect(severity(input({ duplicate: answer(409) }), 'duplicate_tolerated')).toBe('fail')
    expect(severity(input({ duplicate: answer(500) }), 'duplicate_tolerated')).toBe('fail')
    expect(severity(input({ duplicate: answer(202) }), 'duplicate_tolerated')).toBe('pass')
  })

  it('any 3xx in the battery fails the redirect check, naming where it pointed', () => {
    const redirect = answer(301, 3, { location: 'https://shop.example/webhooks' })
    const check = gradeConsumer(input({ missingSignature: redirect })).find((c) => c.id === 'no_redirect')!
    expect(check.severity).toBe('fail')
    expect(check.detail).toBe('1 of 9 requests were redirected: answered 301 to https://shop.example/webhooks in 3 ms')
    expect(check.probes).toEqual([redirect])
  })

  it('latency: p95 above the warning warns, a timeout fails, non-2xx samples warn', () => {
    const slow = input({ latency: [answer(200, 100), answer(200, 6_000)] })
    expect(severity(slow, 'latency')).toBe('warn')
    const timedOut = input({ latency: [answer(200, 100), answer(null, 10_000)] })
    expect(severity(timedOut, 'latency')).toBe('fail')
    expect(severity(input({ latency: [answer(200, 10), answer(503, 10)] }), 'latency')).toBe('warn')
    const check = gradeConsumer(input()).find((c) => c.id === 'latency')!
    expect(check.latency).toEqual({ samples: 3, p50_ms: 20, p95_ms: 30, min_ms: 10, max_ms: 30, non_2xx: 0, durations_ms: [10, 30, 20] })
    expect(check.detail).toBe('p50 20 ms, p95 30 ms over 3 valid events (min 10, max 30)')
  })
})

describe('percentile (nearest rank)', () => {
  it('reports a measured value', () => {
    const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5]
    expect(percentile(ten, 50)).toBe(5)
    expect(percentile(ten, 95)).toBe(10)
    expect(percentile(ten, 100)).toBe(10)
    expect(percentile([42], 50)).toBe(42)
    expect(percentile([], 95)).toBe(0)
  })
})

describe('describeAnswer and the report card', () => {
  it('describes statuses, redirects, timeouts and network errors', () => {
    expect(describeAnswer(answer(401, 12, { response_excerpt: 'bad sig' }))).toBe('answered 401 in 12 ms: bad sig')
    expect(describeAnswer(answer(null, 10_000))).toBe('no complete answer within 10000 ms (timeout)')
    expect(describeAnswer({ ...answer(null), outcome: 'reset', error: 'ECONNRESET: other side closed' })).toBe('reset (ECONNRESET: other side closed)')
  })

  it('prints ✓ ! ✗ – lines, why and fix for warnings and failures, and the verdict', () => {
    const checks = gradeConsumer(input({ valid: answer(200, 6_000), wrongSignature: answer(200), staleTimestamp: null }))
    const result: ConsumerCheckResult = { ok: false, url: 'https://x.example/h', scheme: 'github', handshake: null, started_at: 0, wall_ms: 1, timeout_ms: 10_000, warn_above_ms: 5_000, checks, latency: null }
    const card = formatReportCard(result)
    expect(card).toContain('! Accepts a valid event in time: a correctly signed event answered 200 in 6000 ms, slower than 5000 ms (the timeout is 10000 ms)\n    why: ')
    expect(card).toContain(`✗ Rejects a wrong signature: an event signed with a wrong secret was accepted: answered 200 in 20 ms\n    why: ${CONSUMER_ADVICE.wrong_signature_rejected.why}\n    fix: ${CONSUMER_ADVICE.wrong_signature_rejected.fix}`)
    expect(card).toContain('– Rejects a stale timestamp: skipped')
    expect(card).toContain('✓ Tolerates a duplicate: the same event id again answered 200 in 20 ms\n✗')
    expect(card.split('\n').at(-1)).toBe('FAIL: 1 of 7 checks failed (1 warning)')
  })
})
