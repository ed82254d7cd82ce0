import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { validateScenario } from '../../../shared/scenario'
import { runScenario } from '../../../electron/engine/scenarios/run'

const MIN = 60_000
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** Runs a scenario document (version, name and a virtual clock filled in) on a real engine. */
function run(doc: Record<string, unknown>, options?: Parameters<typeof runScenario>[1]): ReturnType<typeof runScenario> {
  const result = validateScenario({ version: 1, name: 'run test', clock: { mode: 'virtual' }, ...doc })
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return runScenario(result.scenario, options)
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('runScenario on a real engine', () => {
  it('records an 11 s receiver delay against provider A\'s 10 s timeout as a timeout at exactly 10 000 ms', async () => {
    const report = await run({
      endpoints: [
        {
          slug: 'slow',
          scheme: 'standard-webhooks',
          secrets: [SECRET],
          dedupe: 'pandoktorek',
          rules: [{ sequence: { items: [[{ type: 'delay', ms: 11_000 }, { type: 'reply', status: 200 }], { type: 'reply', status: 200 }] } }],
        },
      ],
      subscriptions: [{ id: 'a', endpoint: 'slow', policy: 'pandoktorek', event_id_header: 'X-Pandoktorek-Event-Id' }],
      events: [{ id: 'booking', type: 'booking.created', payload: { n: 1 } }],
      expect: { deliveries: [{ event: 'booking', status: 'succeeded', at_ms: [0, 10_000 + 2 * MIN], outcomes: ['timeout', 'http_200'] }] },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    const [first, second] = report.deliveries[0]!.attempts
    expect(first!.duration_ms).toBe(10_000)
    expect(first!.status_code).toBeNull()
    expect(first!.next_at_ms).toBe(10_000 + 2 * MIN)
    // The receiver still saw the first attempt, and numbered the retry as its duplicate.
    expect([first!.duplicate, second!.duplicate]).toEqual([1, 2])
    expect(report.ok).toBe(true)
  })

  it('delivers to a plain URL: connection refused, 4 attempts 30 s apart under seed B, then failed', async () => {
    const port = await closedPort()
    const report = await run({
      subscriptions: [{ id: 'consumer', url: `http://127.0.0.1:${port}/webhooks`, policy: 'csku', secrets: ['topsecret-for-github'], scheme: 'github' }],
      events: [{ type: 'message.received', payload: { event: 'message.received', message: { id: 'm1' } } }],
      expect: { deliveries: [{ event: 'e1', status: 'failed', attempts: 4, at_ms: [0, 30_000, 60_000, 90_000], outcomes: ['connection_refused', 'connection_refused', 'connection_refused', 'connection_refused'] }] },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    const d = report.deliveries[0]!
    expect(d.loop).toBe(false)
    expect(d.url).toBe(`http://127.0.0.1:${port}/webhooks`)
    expect(d.attempts.map((a) => [a.signature, a.duplicate, a.request_id])).toEqual(Array(4).fill([null, null, null]))
    expect(report.endpoints).toEqual([])
  })

  it('stops at an explicit max_duration_ms and judges the delivery still retrying', async () => {
    const report = await run({
      max_duration_ms: 10 * MIN,
      endpoints: [{ slug: 'down', rules: [{ preset: 'always-500' }] }],
      subscriptions: [{ id: 'a', endpoint: 'down', policy: 'pandoktorek' }],
      events: [{ type: 'booking.created', payload: {} }],
      expect: { deliveries: [{ event: 'e1', status: 'retrying', attempts: 3, at_ms: [0, 2 * MIN, 6 * MIN] }] },
    })
    expect(report.incomplete).toBeNull()
    expect(report.clock_ms).toBe(10 * MIN)
    expect(report.deliveries[0]!.attempts.at(-1)!.next_at_ms).toBe(14 * MIN)
    expect(report.ok).toBe(true)
  })

  it('sends each event at its offset, to several subscriptions, in scenario order', async () => {
    const report = await run({
      endpoints: [
        { slug: 'one', dedupe: 'standard-webhooks' },
        { slug: 'two', dedupe: 'standard-webhooks', rules: [{ preset: 'fail-first', n: 1 }] },
      ],
      subscriptions: [
        { id: 's1', endpoint: 'one', policy: 'svix', secrets: [SECRET] },
        { id: 's2', endpoint: 'two', policy: { preset: 'custom', schedule: { kind: 'fixed', interval_ms: 1000 } }, secrets: [SECRET] },
      ],
      events: [
        { id: 'late', type: 'x.late', payload: {}, at_ms: 5000, subscriptions: ['s1'] },
        { id: 'both', type: 'x.both', payload: {}, at_ms: 2000 },
      ],
      expect: {
        deliveries: [
          { event: 'both', subscription: 's2', attempts: 2, at_ms: [0, 1000], status: 'succeeded' },
          { event: 'late', status: 'succeeded' },
        ],
      },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.deliveries.map((d) => [d.event, d.subscription, d.attempts[0]!.run_ms])).toEqual([
      ['late', 's1', 5000],
      ['both', 's1', 2000],
      ['both', 's2', 2000],
    ])
  })

  it('runs on a scaled clock (times approximate, so only outcomes are judged), reporting progress as it goes', async () => {
    const progress: string[] = []
    const report = await run({
      // A scaled clock shrinks the sender's timeout too: keep it well above a loopback round trip.
      clock: { mode: 'scaled', factor: 20 },
      endpoints: [{ slug: 'b', dedupe: 'standard-webhooks', rules: [{ preset: 'fail-first', n: 1 }] }],
      subscriptions: [{ id: 'csku', endpoint: 'b', policy: { preset: 'csku', timeout_ms: 60_000 } }],
      events: [{ type: 'message.received', payload: {} }],
      expect: { deliveries: [{ event: 'e1', status: 'succeeded', outcomes: ['http_503', 'http_200'], duplicates: [1, 2] }] },
    }, { onProgress: (line) => progress.push(line) })
    expect(progress).toHaveLength(2)
    expect(progress[0]).toMatch(/^run \+\d+ ms {2}e1 → csku {2}#1 http_503 \(retry, next at run \+\d+ ms\)$/)
    expect(progress[1]).toMatch(/^run \+\d+ ms {2}e1 → csku {2}#2 http_200 \(succeeded\)$/)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.clock).toEqual({ mode: 'scaled', factor: 20 })
    expect(report.ok).toBe(true)
  })

  it('settles with dropped, held-back and parallel-duplicate deliveries', async () => {
    const report = await run({
      endpoints: [{ slug: 'c', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks' }],
      subscriptions: [{ id: 's', endpoint: 'c', policy: 'pandoktorek' }],
      events: [
        { id: 'lost', type: 'a', payload: {}, faults: [{ type: 'drop' }] },
        { id: 'late', type: 'b', payload: {}, faults: [{ type: 'out-of-order', delay_ms: 5000 }] },
        { id: 'early', type: 'c', payload: {}, at_ms: 1000 },
        { id: 'twice', type: 'd', payload: {}, at_ms: 2000, faults: [{ type: 'duplicate', mode: 'parallel' }, { type: 'wrong-secret' }] },
      ],
      expect: {
        deliveries: [
          { event: 'lost', status: 'failed', outcomes: ['dropped'] },
          { event: 'twice', status: 'succeeded', signatures: 'signature_mismatch' },
        ],
        endpoints: [{ endpoint: 'c', requests: 4, duplicates_flagged: 1, signatures: { ok: 2, signature_mismatch: 2 } }],
      },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    const firstRunMs = Object.fromEntries(report.deliveries.filter((d) => d.duplicate_of === null).map((d) => [d.event, d.attempts[0]!.run_ms]))
    // The held-back event arrives after the one sent a second later.
    expect(firstRunMs).toEqual({ lost: 0, late: 5000, early: 1000, twice: 2000 })
    expect(report.ok).toBe(true)
  })

  it('pause holds new deliveries until resume; a retry while paused still goes', async () => {
    const report = await run({
      endpoints: [{ slug: 'c', dedupe: 'standard-webhooks', rules: [{ matchers: [{ type: 'event-type', value: 'a' }], sequence: { items: [{ type: 'reply', status: 404 }, { type: 'reply', status: 200 }] } }] }],
      subscriptions: [{ id: 's', endpoint: 'c', policy: 'pandoktorek' }],
      events: [
        { id: 'first', type: 'a', payload: {} },
        { id: 'held', type: 'b', payload: {}, at_ms: 2000 },
      ],
      actions: [
        { type: 'pause', subscription: 's', at_ms: 1000 },
        { type: 'retry-now', event: 'first', at_ms: 3000 },
        { type: 'resume', subscription: 's', at_ms: 60_000 },
      ],
      expect: {
        deliveries: [
          { event: 'first', status: 'succeeded', at_ms: [0, 3000], outcomes: ['http_404', 'http_200'] },
          { event: 'held', status: 'succeeded', attempts: 1 },
        ],
      },
    })
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.actions.map((a) => [a.type, a.ok])).toEqual([
      ['pause', true],
      ['retry-now', true],
      ['resume', true],
    ])
    // Created while paused at 2 s, it waited for the resume at 60 s.
    expect(report.deliveries.find((d) => d.event === 'held')!.attempts[0]!.run_ms).toBe(60_000)
    expect(report.ok).toBe(true)
  })
})
