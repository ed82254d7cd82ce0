// The expectations on attempts (duration, decision, next time, time since the run's start), on
// arrivals (headers, body fields, signature, duplicate), resends, provider status words, the
// "no expectations" verdict and the defaults an explicit policy gets.
import { describe, expect, it } from 'vitest'
import { evaluateArrivals, evaluateDelivery, noExpectations, validateScenario } from '../../../../shared/scenario'
import type { ReportArrival, ReportDelivery, DeliveryExpectation, Scenario } from '../../../../shared/scenario'

function valid(doc: Record<string, unknown>) {
  const result = validateScenario({ version: 1, name: 't', subscriptions: [{ id: 's', url: 'http://127.0.0.1:1/x', policy: 'csku' }], events: [{ id: 'e', type: 't', payload: {} }], ...doc })
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return result
}

const delivery: ReportDelivery = {
  delivery_id: 1, duplicate_of: null, event: 'e', subscription: 's', event_id: 'x', provider_event_id: null, event_type: 't', url: 'u', loop: false, status: 'failed', status_word: 'failed_permanent',
  attempts: [
    { n: 1, at_ms: 0, run_ms: 500, duration_ms: 5000, outcome: 'timeout', status_code: null, decision: 'retry', next_at_ms: 30000, fault: null, request_id: null, signature: null, duplicate: null, receiver_fault: null },
    { n: 2, at_ms: 30000, run_ms: 30500, duration_ms: 3, outcome: 'http_500', status_code: 500, decision: 'failed', next_at_ms: null, fault: null, request_id: null, signature: null, duplicate: null, receiver_fault: null },
  ],
}

const exp = (fields: Partial<DeliveryExpectation>): DeliveryExpectation => ({ event: 'e', copy: false, tolerance_ms: 0, ...fields })
const messages = (fields: Partial<DeliveryExpectation>) => evaluateDelivery(exp(fields), 0, delivery, 's', 'csku').map((r) => [r.path, r.ok, r.message])

describe('new delivery expectations', () => {
  it('checks durations, decisions, next times and run times, saying expected vs actual', () => {
    expect(messages({ durations_ms: [5000, 3], decisions: ['retry', 'failed'], next_at_ms: [30000, null], run_ms: [500, 30500] }).every(([, ok]) => ok)).toBe(true)
    expect(messages({ durations_ms: [4000, 3] })).toEqual([['expect.deliveries[0].durations_ms', false, 'attempt 1 took 5000 ms, expected 4000 ms']])
    expect(messages({ decisions: ['retry', 'retry'] })).toEqual([['expect.deliveries[0].decisions', false, 'attempt 2 has decision "failed", expected "retry"']])
    expect(messages({ next_at_ms: [30000, 60000] })).toEqual([['expect.deliveries[0].next_at_ms', false, 'attempt 2 has its next attempt at none, expected 60000 ms']])
    expect(messages({ run_ms: [0, 30500] })).toEqual([['expect.deliveries[0].run_ms', false, 'attempt 1 at run + 500 ms, expected 0 ms']])
  })

  it('accepts the preset\'s own status word alongside ours', () => {
    expect(messages({ status: 'failed_permanent' })).toEqual([['expect.deliveries[0].status', true, '']])
    expect(messages({ status: 'failed' })).toEqual([['expect.deliveries[0].status', true, '']])
    expect(messages({ status: 'succeeded' })).toEqual([['expect.deliveries[0].status', false, 'status is failed_permanent (failed), expected succeeded']])
  })

  it('refuses a provider word the subscription\'s preset does not use, and a resend no action makes', () => {
    const result = validateScenario({ version: 1, name: 't', subscriptions: [{ id: 's', url: 'http://127.0.0.1:1/x', policy: 'pandoktorek' }], events: [{ id: 'e', type: 't', payload: {} }], expect: { deliveries: [{ event: 'e', status: 'failed_permanent', resend: 1 }] } })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.problems.map((p) => p.path)).toEqual(['expect.deliveries[0].resend', 'expect.deliveries[0].status'])
  })
})

describe('arrival expectations', () => {
  const arrival: ReportArrival = { endpoint: 'in', request_id: 1, run_ms: 0, headers: { 'webhook-id': 'abc', 'content-type': 'application/json' }, body: { message: { id: 'm1', tags: ['a'] } }, signature: 'ok', duplicate: 1 }
  const judge = (e: Parameters<typeof evaluateArrivals>[0], arrivals = [arrival]) => evaluateArrivals(e, ['expect', 'endpoints', 0, 'arrivals'], 'in', arrivals, 0).filter((r) => !r.ok).map((r) => [r.path, r.message])

  it('passes headers present / equal / matching, body fields by path, signature and duplicate', () => {
    expect(judge([{ headers: { 'Webhook-Id': { present: true }, 'content-type': 'application/json', 'x-none': { present: false }, 'webhook-id': { matches: '^a' } }, body: { 'message.id': 'm1', 'message.tags[0]': 'a' }, signature: 'ok', duplicate: 1 }])).toEqual([])
  })

  it('says what differs, with the JSON path', () => {
    expect(judge([{ headers: { 'x-sig': { present: true }, 'webhook-id': { matches: '^z' } }, body: { 'message.id': 'm2', 'message.nope': 1 }, signature: 'signature_mismatch', duplicate: 2 }])).toEqual([
      ['expect.endpoints[0].arrivals[0].headers["x-sig"]', 'header x-sig is missing, expected it present'],
      ['expect.endpoints[0].arrivals[0].headers["webhook-id"]', 'header webhook-id is "abc", which does not match /^z/'],
      ['expect.endpoints[0].arrivals[0].body["message.id"]', 'body message.id is "m1", expected "m2"'],
      ['expect.endpoints[0].arrivals[0].body["message.nope"]', 'body has no message.nope, expected 1'],
      ['expect.endpoints[0].arrivals[0].signature', 'signature result is "ok", expected "signature_mismatch"'],
      ['expect.endpoints[0].arrivals[0].duplicate', 'duplicate number is 1, expected 2'],
    ])
    expect(judge([{}, { duplicate: 2 }])).toEqual([
      ['expect.endpoints[0].arrivals', '1 requests arrived, expected 2'],
      ['expect.endpoints[0].arrivals[1].duplicate', 'endpoint in: request 2 never arrived'],
    ])
  })
})

describe('no expectations and explicit policies', () => {
  it('an empty scenario gets a failing "no expectations" verdict unless smoke', () => {
    expect(noExpectations(valid({}).scenario as Scenario)?.message).toMatch(/^no expectations/)
    expect(noExpectations(valid({ smoke: true }).scenario as Scenario)).toBeNull()
  })

  it('an explicit policy gets neutral defaults, each one listed; a preset gets none', () => {
    const explicit = valid({ subscriptions: [{ id: 's', url: 'http://127.0.0.1:1/x', policy: { max_attempts: 3, schedule: { kind: 'fixed', interval_ms: 1000 } } }] })
    expect(explicit.defaults).toEqual([
      { path: 'subscriptions[0].policy', message: 'defaults applied: timeout_ms 10000, classification: 2xx succeeds, everything else is retried, redirects not followed, retry_after not honoured, event id header webhook-id (the standard-webhooks scheme\'s)' },
    ])
    const policy = explicit.scenario.subscriptions[0]!.policy as { retry_after: { honour: boolean }; max_attempts: number }
    expect(policy.retry_after.honour).toBe(false)
    expect(policy.max_attempts).toBe(3)
    expect(valid({}).defaults).toEqual([])
  })
})
