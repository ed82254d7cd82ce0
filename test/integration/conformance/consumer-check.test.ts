import { afterEach, describe, expect, it } from 'vitest'
import type { CheckSeverity, ConsumerCheckId, ConsumerCheckResult } from '../../../shared/conformance'
import { ConsumerCheckInputError, ConsumerUnreachableError, runConsumerCheck } from '../../../electron/engine/conformance/consumer'
import { startCarefulConsumer } from '../../support/consumers/careful'
import { startSloppyConsumer } from '../../support/consumers/sloppy'
import type { RunningConsumer } from '../../support/consumers/server'
import { CAREFUL_CHECKS, SLOPPY_VERDICTS } from '../../support/consumers/verdicts'

// The consumer check against two real consumers on loopback: a careful one (provider libraries
// verify the raw bytes, dedupe, 400 on bad JSON) and a sloppy one. Every check's verdict is
// asserted for both. No timed assertions: the sloppy consumer's delay is a lower bound far above
// the warning threshold used here.

const SW_SECRET = `whsec_${Buffer.from('hookloop consumer check secret!!').toString('base64')}`

const running: RunningConsumer[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.close()))
})

function verdicts(result: ConsumerCheckResult): Record<ConsumerCheckId, CheckSeverity> {
  return Object.fromEntries(result.checks.map((c) => [c.id, c.severity])) as Record<ConsumerCheckId, CheckSeverity>
}

function checkOf(result: ConsumerCheckResult, id: ConsumerCheckId) {
  const found = result.checks.find((c) => c.id === id)
  if (!found) throw new Error(`no ${id} check`)
  return found
}

describe('consumer check', () => {
  it('a careful Standard Webhooks consumer passes every check', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'standard-webhooks', secret: SW_SECRET })
    running.push(consumer)
    const result = await runConsumerCheck({ url: consumer.url, scheme: 'standard-webhooks', secret: SW_SECRET, latencySamples: 5 })
    expect(verdicts(result)).toEqual({ ...CAREFUL_CHECKS, latency: 'pass' })
    expect(result.ok).toBe(true)
    expect(result.checks.every((c) => c.passed)).toBe(true)
    // What the consumer saw: 1 valid + 1 duplicate + 4 refused + 5 latency requests, in order.
    expect(consumer.requests.map((r) => r.status)).toEqual([200, 200, 401, 401, 401, 400, 200, 200, 200, 200, 200])
    expect(consumer.processed).toHaveLength(6)
    expect(checkOf(result, 'wrong_signature_rejected').detail).toMatch(/^an event signed with a wrong secret: answered 401 in \d+ ms: invalid signature: No matching signature found$/)
    expect(checkOf(result, 'stale_timestamp_rejected').detail).toContain('Message timestamp too old')
    expect(checkOf(result, 'malformed_body_rejected').detail).toMatch(/answered 400 .*body is not JSON/)
    expect(result.latency?.samples).toBe(5)
    expect(result.latency?.durations_ms).toHaveLength(5)
    expect(result.latency!.p50_ms).toBeLessThanOrEqual(result.latency!.p95_ms)
    expect(checkOf(result, 'latency').latency).toEqual(result.latency)
  })

  it('a careful GitHub consumer passes; the stale timestamp check is skipped (GitHub signs no time)', async () => {
    const secret = 'It is a secret to everybody'
    const consumer = await startCarefulConsumer({ scheme: 'github', secret })
    running.push(consumer)
    const result = await runConsumerCheck({ url: consumer.url, scheme: 'github', secret, latencySamples: 3 })
    expect(verdicts(result)).toEqual({ ...CAREFUL_CHECKS, stale_timestamp_rejected: 'skip', latency: 'pass' })
    expect(result.ok).toBe(true)
    expect(checkOf(result, 'stale_timestamp_rejected').passed).toBe(true)
    expect(consumer.requests).toHaveLength(2 + 3 + 3)
  })

  it('a sloppy consumer: bad signatures accepted, 500 on a duplicate and on bad JSON, slow answers warned', async () => {
    const consumer = await startSloppyConsumer({ delayMs: 150 })
    running.push(consumer)
    const result = await runConsumerCheck({ url: consumer.url, scheme: 'standard-webhooks', secret: SW_SECRET, warnAboveMs: 100, latencySamples: 3 })
    expect(verdicts(result)).toEqual(SLOPPY_VERDICTS)
    expect(result.ok).toBe(false)
    expect(checkOf(result, 'valid_delivery').passed).toBe(true)
    expect(checkOf(result, 'valid_delivery').detail).toMatch(/slower than 100 ms \(the timeout is 10000 ms\)$/)
    expect(checkOf(result, 'duplicate_tolerated').detail).toMatch(/^the same event id again answered 500 in \d+ ms: duplicate key value violates unique constraint "events_pkey"; expected 2xx$/)
    expect(checkOf(result, 'wrong_signature_rejected').detail).toMatch(/^an event signed with a wrong secret was accepted: answered 200/)
    expect(checkOf(result, 'missing_signature_rejected').detail).toMatch(/^an event without a signature header was accepted/)
    expect(checkOf(result, 'stale_timestamp_rejected').detail).toMatch(/^an event signed with a timestamp 3600 s old was accepted/)
    expect(checkOf(result, 'malformed_body_rejected').detail).toMatch(/answered 500 .*a 5xx makes the provider retry it, answer 4xx instead$/)
    expect(checkOf(result, 'latency').detail).toMatch(/: p95 above 100 ms$/)
  })

  it('a sloppy consumer slower than the timeout: the valid delivery and latency fail as timeouts', async () => {
    const consumer = await startSloppyConsumer({ delayMs: 3_000 })
    running.push(consumer)
    const result = await runConsumerCheck({ url: consumer.url, scheme: 'stripe', secret: 'whsec_test_stripe', timeoutMs: 150, warnAboveMs: 100, latencySamples: 2 })
    const v = verdicts(result)
    expect(v.valid_delivery).toBe('fail')
    expect(v.latency).toBe('fail')
    expect(checkOf(result, 'valid_delivery').probes[0]!.outcome).toBe('timeout')
    expect(checkOf(result, 'valid_delivery').detail).toMatch(/no complete answer within \d+ ms \(timeout\); expected 2xx within 150 ms$/)
    expect(checkOf(result, 'latency').detail).toMatch(/; 2 ran into the 150 ms timeout; 2 not answered 2xx$/)
    expect(result.ok).toBe(false)
  })

  it('a redirect in front of the endpoint fails the redirect check with its Location', async () => {
    const consumer = await startSloppyConsumer({ delayMs: 0, redirectTo: 'https://example.invalid/webhooks/' })
    running.push(consumer)
    const result = await runConsumerCheck({ url: consumer.url, scheme: 'standard-webhooks', secret: SW_SECRET, latencySamples: 1 })
    const v = verdicts(result)
    expect(v.no_redirect).toBe('fail')
    expect(v.valid_delivery).toBe('fail')
    expect(checkOf(result, 'no_redirect').detail).toMatch(/^7 of 7 requests were redirected: answered 308 to https:\/\/example\.invalid\/webhooks\/ in \d+ ms$/)
    // Not followed: the consumer saw every request itself, nothing went to the Location.
    expect(consumer.requests).toHaveLength(7)
  })

  it('an unreachable URL throws ConsumerUnreachableError; bad options throw ConsumerCheckInputError', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'standard-webhooks', secret: SW_SECRET })
    const url = consumer.url
    await consumer.close()
    await expect(runConsumerCheck({ url, scheme: 'standard-webhooks', secret: SW_SECRET })).rejects.toThrow(ConsumerUnreachableError)
    await expect(runConsumerCheck({ url, scheme: 'standard-webhooks', secret: SW_SECRET })).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/webhooks: connection refused/)
    await expect(runConsumerCheck({ url: 'ftp://x', scheme: 'github', secret: 'k' })).rejects.toThrow(ConsumerCheckInputError)
    await expect(runConsumerCheck({ url, scheme: 'github', secret: '' })).rejects.toThrow('the signing secret is empty')
    await expect(runConsumerCheck({ url, scheme: 'github', secret: 'k', timeoutMs: 0 })).rejects.toThrow('timeoutMs must be a positive whole number, got 0')
  })
})

describe('consumer check cancellation', () => {
  it('stops before the next request when the signal aborts', async () => {
    const consumer = await startCarefulConsumer({ scheme: 'standard-webhooks', secret: SW_SECRET })
    running.push(consumer)
    const controller = new AbortController()
    const run = runConsumerCheck({
      url: consumer.url,
      scheme: 'standard-webhooks',
      secret: SW_SECRET,
      signal: controller.signal,
      onProbe: (_kind, index) => {
        if (index === 2) controller.abort(new Error('cancelled by the user'))
      },
    })
    await expect(run).rejects.toThrow('cancelled by the user')
    expect(consumer.requests).toHaveLength(3)
  })
})
