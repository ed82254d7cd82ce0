import { describe, expect, it } from 'vitest'
import { evaluateSenderConformance, senderOutcome } from '../../../electron/engine/conformance/sender'
import { resolvePolicy } from '../../../shared/sender'
import type { RequestRecord } from '../../../shared/receiver'

// The pure core over hand-made records: what the sender saw, and where the ghosts go.

const T0 = Date.UTC(2026, 10, 29, 9)

function record(id: number, at: number, answer: { status?: number; ms?: number; fault?: 'timed_out' | 'reset' | 'closed'; headers?: [string, string][] }, key = 'evt_1'): RequestRecord {
  return {
    id,
    endpointId: 'ep',
    receivedAt: at,
    method: 'POST',
    path: '/h/x',
    query: '',
    httpVersion: '1.1',
    headers: [],
    body: new Uint8Array(0),
    bodySize: 0,
    bodyTruncated: false,
    remoteAddress: '127.0.0.1',
    verify: null,
    dedupeKey: key,
    duplicateOf: null,
    duplicateNumber: null,
    ruleId: null,
    fault: answer.fault ? { outcome: answer.fault, step: null, steps: null } : null,
    response: { status: answer.status ?? null, headers: answer.headers ?? [], body: null, ms: answer.ms ?? 5 },
    attemptId: null,
  }
}

const judge = (requests: RequestRecord[], policy = resolvePolicy('csku'), asOf = T0 + 86_400_000) =>
  evaluateSenderConformance({ endpoint: 'x', requests, policy, tolerance: { ms: 1000, pct: 0 }, asOf, lookupPath: () => [] })

describe('sender conformance core', () => {
  it('names what the sender saw: a slow answer or a held request is a timeout of timeout_ms', () => {
    const policy = resolvePolicy('csku') // 5 s timeout
    expect(senderOutcome(record(1, T0, { status: 200, ms: 6000 }), policy)).toEqual({ outcome: 'timeout', duration_ms: 5000 })
    expect(senderOutcome(record(1, T0, { fault: 'timed_out', ms: 30_000 }), policy)).toEqual({ outcome: 'timeout', duration_ms: 5000 })
    expect(senderOutcome(record(1, T0, { fault: 'reset', ms: 3 }), policy)).toEqual({ outcome: 'reset', duration_ms: 3 })
    expect(senderOutcome(record(1, T0, { fault: 'closed', ms: 3 }), policy)).toEqual({ outcome: 'connection_error', duration_ms: 3 })
  })

  it('anchors each ghost on the previous arrival plus its answer time (a timeout counts timeout_ms)', () => {
    // csku: 30 s after the previous attempt ended. Attempt 1 timed out (5 s), so attempt 2 is due at +35 s.
    const report = judge([record(1, T0, { fault: 'timed_out' }), record(2, T0 + 35_000, { status: 503, ms: 10 }), record(3, T0 + 65_010, { status: 200 })])
    const event = report.events[0]!
    expect(event.expected.map((g) => g.at - T0)).toEqual([0, 35_000, 65_010])
    expect(event.intervals.map((i) => i.diff_ms)).toEqual([0, 0])
    expect(report.ok).toBe(true)
  })

  it('past the last arrival the ghosts chain on to max_attempts; overdue → attempt_count fails, not yet due → pending', () => {
    const requests = [record(1, T0, { status: 503 }), record(2, T0 + 30_005, { status: 503 })]
    const overdue = judge(requests)
    expect(overdue.events[0]!.expected.map((g) => [g.n, g.observed])).toEqual([[1, true], [2, true], [3, false], [4, false]])
    expect(overdue.events[0]!.checks.find((c) => c.id === 'attempt_count')).toMatchObject({ status: 'fail', expected: '4', observed: '2' })
    const early = judge(requests, resolvePolicy('csku'), T0 + 40_000)
    expect(early.events[0]!.checks.find((c) => c.id === 'attempt_count')?.status).toBe('pending')
  })

  it('a policy that honours Retry-After expects the asked delay', () => {
    const policy = resolvePolicy({ preset: 'custom', max_attempts: 2, retry_after: { honour: true, statuses: [429], max_ms: 3_600_000 } })
    const report = judge([record(1, T0, { status: 429, headers: [['retry-after', '120']] }), record(2, T0 + 120_005, { status: 200 })], policy)
    expect(report.events[0]!.intervals[0]).toMatchObject({ expected_delay_ms: 120_000, within: true })
  })

  it('groups per dedupe key, in arrival order', () => {
    const report = judge([record(2, T0 + 30_005, { status: 200 }, 'a'), record(1, T0, { status: 503 }, 'a'), record(3, T0, { status: 200 }, 'b')])
    expect(report.events.map((e) => [e.key, e.arrivals.map((a) => a.request_id)])).toEqual([
      ['a', [1, 2]],
      ['b', [3]],
    ])
  })
})
