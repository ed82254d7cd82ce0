import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import type { Scenario } from '../../../shared/scenario'
import { buildReport, type RecordedAttempt, type RecordedDelivery } from '../../../electron/engine/scenarios/report'
import { formatSummary, humanDuration } from '../../../electron/engine/scenarios/summary'

const MIN = 60_000
const T0 = Date.UTC(2026, 0, 1)

function scenario(expectations: Record<string, unknown>[], endpointExpectations: Record<string, unknown>[] = []): Scenario {
  const result = validateScenario({
    version: 1,
    name: 'report test',
    endpoints: [{ slug: 'clinic', scheme: 'standard-webhooks', secrets: ['whsec_c2VjcmV0'] }],
    subscriptions: [{ id: 'sub', endpoint: 'clinic', policy: 'pandoktorek' }],
    events: [{ id: 'booking', type: 'booking.created', payload: {}, at_ms: 1000 }],
    expect: { deliveries: expectations, endpoints: endpointExpectations },
  })
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return result.scenario
}

function attempt(n: number, offset: number, status: number, duplicate: number, reason = 'ok'): RecordedAttempt {
  const ok = status === 200
  return {
    n,
    started_at: T0 + 1000 + offset,
    duration_ms: 3,
    outcome: `http_${status}`,
    status_code: status,
    decision: ok ? 'succeeded' : 'retry',
    next_attempt_at: ok ? null : T0 + 1000 + offset + 2 ** n * MIN,
    fault: null,
    request: { id: n, verify_reason: reason, duplicate_number: duplicate, fault: ok ? null : { step: 'reply', status } },
  }
}

function delivery(attempts: RecordedAttempt[]): RecordedDelivery {
  return {
    delivery_id: 7,
    duplicate_of: null,
    event: 'booking',
    subscription: 'sub',
    event_id: '550e8400-e29b-41d4-a716-446655440000',
    provider_event_id: null,
    event_type: 'booking.created',
    url: 'http://127.0.0.1:5000/h/clinic',
    loop: true,
    status: 'succeeded',
    attempts,
  }
}

// Seed provider A: fail the first 3, then 200 → attempts at 0, 2, 6, 14 min.
const seedA = [attempt(4, 14 * MIN, 200, 4), attempt(1, 0, 503, 1), attempt(2, 2 * MIN, 503, 2), attempt(3, 6 * MIN, 503, 3)]

function report(s: Scenario, attempts = seedA) {
  return buildReport({
    scenario: s,
    file: 'a.json',
    startedAt: T0,
    endedAt: T0 + 15 * MIN,
    wallMs: 12,
    incomplete: null,
    deliveries: [delivery(attempts)],
    endpointRequests: attempts.map((a) => ({ slug: 'clinic', verify_reason: a.request?.verify_reason ?? null, duplicate_number: a.request?.duplicate_number ?? null })),
  })
}

describe('scenario report', () => {
  it('orders attempts and measures them from the delivery\'s first attempt', () => {
    const r = report(scenario([]))
    const d = r.deliveries[0]!
    expect(d.attempts.map((a) => a.n)).toEqual([1, 2, 3, 4])
    expect(d.attempts.map((a) => a.at_ms)).toEqual([0, 2 * MIN, 6 * MIN, 14 * MIN])
    expect(d.attempts.map((a) => a.run_ms)).toEqual([1000, 1000 + 2 * MIN, 1000 + 6 * MIN, 1000 + 14 * MIN])
    expect(d.attempts[0]!.next_at_ms).toBe(2 * MIN)
    expect(d.attempts[3]!.next_at_ms).toBeNull()
    expect(d.attempts.map((a) => [a.signature, a.duplicate])).toEqual([['ok', 1], ['ok', 2], ['ok', 3], ['ok', 4]])
    expect(r.clock_ms).toBe(15 * MIN)
    expect(r.endpoints).toEqual([{ slug: 'clinic', requests: 4, duplicates_flagged: 3, signatures: { ok: 4 } }])
    // A scenario without expectations checks nothing: it fails unless it is a smoke run.
    expect(r.ok).toBe(false)
    expect(r.expectations.map((e) => [e.path, e.ok])).toEqual([['expect', false]])
  })

  it('passes every expectation that holds', () => {
    const r = report(
      scenario(
        [{ event: 'booking', status: 'succeeded', attempts: 4, at_ms: [0, 2 * MIN, 6 * MIN, 14 * MIN], outcomes: ['http_503', 'http_503', 'http_503', 'http_200'], duplicates: [1, 2, 3, 4], duplicates_flagged: 3, signatures: 'ok' }],
        [{ endpoint: 'clinic', requests: 4, duplicates_flagged: 3, signatures: { ok: 4 } }],
      ),
    )
    expect(r.expectations.map((e) => [e.path, e.ok])).toEqual([
      ['expect.deliveries[0].status', true],
      ['expect.deliveries[0].attempts', true],
      ['expect.deliveries[0].at_ms', true],
      ['expect.deliveries[0].outcomes', true],
      ['expect.deliveries[0].duplicates', true],
      ['expect.deliveries[0].duplicates_flagged', true],
      ['expect.deliveries[0].signatures', true],
      ['expect.endpoints[0].requests', true],
      ['expect.endpoints[0].duplicates_flagged', true],
      ['expect.endpoints[0].signatures', true],
    ])
    expect(r.ok).toBe(true)
  })

  it('says which attempt time is off, and honours the tolerance', () => {
    const wrong = report(scenario([{ event: 'booking', at_ms: [0, 2 * MIN, 4 * MIN, 14 * MIN] }]))
    expect(wrong.ok).toBe(false)
    expect(wrong.expectations[0]!.message).toBe('attempt 3 at 360000 ms, expected 240000 ms')
    const tolerant = report(scenario([{ event: 'booking', at_ms: [0, 2 * MIN - 40, 6 * MIN + 50, 14 * MIN], tolerance_ms: 50 }]))
    expect(tolerant.ok).toBe(true)
    const strict = report(scenario([{ event: 'booking', at_ms: [0, 2 * MIN - 40, 6 * MIN + 51, 14 * MIN], tolerance_ms: 50 }]))
    expect(strict.expectations[0]!.message).toBe('attempt 3 at 360000 ms, expected 360051 ms (±50)')
  })

  it('fails status, count, outcome, duplicates and signature checks with a reason', () => {
    const r = report(
      scenario(
        [{ event: 'booking', status: 'failed', outcomes: ['http_503', 'http_503', 'timeout', 'http_200'], duplicates_flagged: 0, signatures: ['ok', 'ok', 'signature_mismatch', 'ok'] }],
        [{ endpoint: 'clinic', signatures: { ok: 3, signature_mismatch: 1 } }],
      ),
    )
    const messages = r.expectations.map((e) => e.message)
    expect(messages).toEqual([
      'status is succeeded, expected failed',
      'attempt 3 has outcome "http_503", expected "timeout"',
      '3 attempts flagged as duplicates, expected 0',
      'attempt 3 has signature result "ok", expected "signature_mismatch"',
      'ok: 4, expected 3; signature_mismatch: 0, expected 1',
    ])
    expect(r.ok).toBe(false)
    const count = report(scenario([{ event: 'booking', attempts: 10 }]))
    expect(count.expectations.map((e) => e.message)).toEqual(['4 attempts, expected 10'])
  })

  it('fails every check on a delivery that was never made', () => {
    const s = scenario([{ event: 'booking', status: 'succeeded', attempts: 1 }])
    const r = buildReport({ scenario: s, file: null, startedAt: T0, endedAt: T0, wallMs: 1, incomplete: null, deliveries: [], endpointRequests: [] })
    expect(r.expectations.map((e) => [e.ok, e.message])).toEqual([
      [false, 'no delivery of booking to sub was made'],
      [false, 'no delivery of booking to sub was made'],
    ])
    expect(r.endpoints).toEqual([{ slug: 'clinic', requests: 0, duplicates_flagged: 0, signatures: {} }])
  })

  it('is not ok when the run did not settle, even with no expectations', () => {
    const r = buildReport({ scenario: scenario([]), file: null, startedAt: T0, endedAt: T0, wallMs: 1, incomplete: 'stopped at the limit', deliveries: [], endpointRequests: [] })
    expect(r.ok).toBe(false)
    expect(formatSummary(r)).toContain('FAIL: the run did not settle')
  })

  it('prints a readable summary with ✓ and ✗ lines', () => {
    const r = report(scenario([{ event: 'booking', status: 'succeeded', at_ms: [0, 2 * MIN, 4 * MIN, 14 * MIN] }]))
    const text = formatSummary(r)
    expect(text).toContain('booking booking.created 550e8400-e29b-41d4-a716-446655440000 → sub (loop): succeeded after 4 attempts, first at run +1000 ms')
    expect(text).toMatch(/#3 +\+360000 ms +\(6 min\) +http_503 +retry sig ok dup #3/)
    expect(text).toContain('  ✓ booking → sub: status = "succeeded"')
    expect(text).toContain('  ✗ booking → sub: at_ms: attempt 3 at 360000 ms, expected 240000 ms  [expect.deliveries[0].at_ms]')
    expect(text).toContain('endpoint clinic: 4 requests, 3 flagged as duplicate, signatures ok ×4')
    expect(text.trim().split('\n').at(-1)).toBe('FAIL: 1 of 2 expectations failed')
  })

  it('is not ok when a panel action could not be done, and prints it with ✗', () => {
    const r = buildReport({
      scenario: scenario([{ event: 'booking', status: 'succeeded' }]),
      file: null,
      startedAt: T0,
      endedAt: T0 + 15 * MIN,
      wallMs: 1,
      incomplete: null,
      deliveries: [delivery(seedA)],
      endpointRequests: [],
      actions: [{ path: 'actions[0]', type: 'retry-now', at_ms: 1000, ok: false, message: 'delivery 7 has an attempt in flight' }],
    })
    expect(r.expectations.every((e) => e.ok)).toBe(true)
    expect(r.ok).toBe(false)
    const text = formatSummary(r)
    expect(text).toContain('  ✗ run +1000 ms retry-now: delivery 7 has an attempt in flight  [actions[0]]')
    expect(text.trim().split('\n').at(-1)).toBe('FAIL: 1 of 1 actions could not be done')
  })

  it('writes durations the way people read them', () => {
    expect(humanDuration(850)).toBe('850 ms')
    expect(humanDuration(30_000)).toBe('30 s')
    expect(humanDuration(2 * MIN)).toBe('2 min')
    expect(humanDuration(870 * MIN)).toBe('14 h 30 min')
    expect(humanDuration(MIN + 10_000)).toBe('1 min 10 s')
  })
})
