import { afterEach, describe, expect, it } from 'vitest'
import { checkSenderConformance } from '../../../electron/engine/conformance/sender'
import { createEngine, type Engine } from '../../../electron/engine/engine'
import type { SenderCheckId, SenderConformanceReport } from '../../../shared/conformance'
import { resolvePolicy, type PolicySpec } from '../../../shared/sender'
import type { PolicyInput } from '../../../shared/sender'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

// Hookloop's own sender delivers to Hookloop's own endpoints on a virtual clock (exact
// intervals); the check then judges the captured requests against a policy that matches what
// the sender did, and against one that deviates, naming the check that fails.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const START = Date.UTC(2026, 10, 29, 9, 0, 0)
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function engineAt(): Promise<{ engine: Engine; dir: string }> {
  const temp = makeTempDir('hookloop-conform-')
  cleanups.push(() => temp.cleanup())
  const engine = await createEngine({ dataDir: temp.dir, clock: { mode: 'virtual', start: START }, receiver: { host: '127.0.0.1', port: 0 } })
  cleanups.push(() => engine.close())
  return { engine, dir: temp.dir }
}

/** One endpoint with rules, one subscription delivering to it under `senderPolicy`, events sent, everything settled. */
async function deliver(engine: Engine, slug: string, rules: unknown[], senderPolicy: PolicySpec, events = 1): Promise<void> {
  await engine.putEndpoint({ slug, scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules })
  const sub = await engine.putSubscription({ name: slug, target: { endpoint: slug }, scheme: 'standard-webhooks', secrets: [SECRET], policy: senderPolicy })
  for (let i = 0; i < events; i++) await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { i } })
  await engine.sender.settled()
  await engine.quiesce()
}

async function judge(engine: Engine, slug: string, policy: PolicySpec | PolicyInput): Promise<SenderConformanceReport> {
  return checkSenderConformance(engine.db, { endpoint: slug, policy: resolvePolicy(policy as PolicySpec), asOf: engine.clock.now() })
}

function statusOf(report: SenderConformanceReport, id: SenderCheckId): string[] {
  return report.events.map((e) => e.checks.find((c) => c.id === id)?.status ?? 'missing')
}

describe('sender conformance against Hookloop’s own sender', () => {
  it('passes the policy the sender used, and fails a policy with other intervals on the intervals check', async () => {
    const { engine } = await engineAt()
    await deliver(engine, 'always-503', [{ steps: [{ type: 'reply', status: 503 }] }], 'csku', 2)

    const matching = await judge(engine, 'always-503', 'csku')
    expect(matching.ok).toBe(true)
    expect(matching.events).toHaveLength(2)
    for (const event of matching.events) {
      expect(event.key_source).toBe('dedupe_key')
      expect(event.arrivals.map((a) => a.outcome)).toEqual(['http_503', 'http_503', 'http_503', 'http_503'])
      // Ghosts: one per attempt the policy makes, 30 s after the previous one ended.
      expect(event.expected.map((g) => g.n)).toEqual([1, 2, 3, 4])
      expect(event.intervals.every((i) => i.within && i.expected_delay_ms === 30_000)).toBe(true)
    }
    expect(matching.summary.intervals).toEqual({ pass: 2, fail: 0, skip: 0, pending: 0 })
    expect(matching.summary.attempt_count.pass).toBe(2)

    const slower = await judge(engine, 'always-503', { preset: 'csku', schedule: { kind: 'fixed', interval_ms: 60_000 } })
    expect(slower.ok).toBe(false)
    expect(statusOf(slower, 'intervals')).toEqual(['fail', 'fail'])
    const failing = slower.events[0]!.checks.find((c) => c.id === 'intervals')!
    expect(failing.detail).toMatch(/attempt 2 came 30,0\d\d ms after attempt 1 ended; the policy waits 60,000 ms/)
    // More attempts than the deviating policy allows is named too.
    expect(statusOf(await judge(engine, 'always-503', { preset: 'csku', max_attempts: 3 }), 'attempt_count')).toEqual(['fail', 'fail'])
  })

  it('a success stops the retries: passes; a sender that retried a 4xx fails stops_after_final', async () => {
    const { engine } = await engineAt()
    await deliver(engine, 'flaky', [{ preset: 'fail-first', n: 2 }], 'csku')
    const flaky = await judge(engine, 'flaky', 'csku')
    expect(flaky.ok).toBe(true)
    expect(flaky.events[0]!.arrivals.map((a) => a.decision)).toEqual(['retry', 'retry', 'succeeded'])
    expect(statusOf(flaky, 'stops_after_success')).toEqual(['pass'])

    // csku retries a 410; a policy where 4xx is final (pandoktorek) says it should have stopped.
    await deliver(engine, 'gone', [{ preset: 'always-410' }], 'csku')
    const gone = await judge(engine, 'gone', 'pandoktorek')
    expect(gone.ok).toBe(false)
    expect(statusOf(gone, 'stops_after_final')).toEqual(['fail'])
    expect(gone.events[0]!.checks.find((c) => c.id === 'stops_after_final')!.detail).toContain('attempt 1 got http_410')
    // And a sender that does stop at the 4xx passes.
    await deliver(engine, 'gone-once', [{ preset: 'always-410' }], 'pandoktorek')
    expect(statusOf(await judge(engine, 'gone-once', 'pandoktorek'), 'stops_after_final')).toEqual(['pass'])
  })

  it('a sender that follows a redirect fails redirects_not_followed', async () => {
    const { engine } = await engineAt()
    await engine.putEndpoint({ slug: 'new-home', secrets: [], rules: [] })
    await deliver(engine, 'moved', [{ steps: [{ type: 'redirect', status: 302, location: '/h/new-home' }] }], { preset: 'csku', follow_redirects: 1 })
    const report = await judge(engine, 'moved', 'csku')
    expect(statusOf(report, 'redirects_not_followed')).toEqual(['fail'])
    expect(report.ok).toBe(false)
    // The same policy with redirects allowed does not judge them.
    expect(statusOf(await judge(engine, 'moved', { preset: 'csku', follow_redirects: 1 }), 'redirects_not_followed')).toEqual(['skip'])
  })

  it('an attempt not yet due is pending, not a failure', async () => {
    const { engine } = await engineAt()
    await deliver(engine, 'slow', [{ steps: [{ type: 'reply', status: 503 }] }], { preset: 'csku', max_attempts: 2 })
    const requests = await checkSenderConformance(engine.db, { endpoint: 'slow', policy: resolvePolicy('csku'), asOf: START + 40_000 })
    expect(statusOf(requests, 'attempt_count')).toEqual(['pending'])
    expect(requests.ok).toBe(true)
    const later = await checkSenderConformance(engine.db, { endpoint: 'slow', policy: resolvePolicy('csku'), asOf: START + 3_600_000 })
    expect(statusOf(later, 'attempt_count')).toEqual(['fail'])
  })

  it('hookloop conform: exit 0 on a match, 1 on a deviation (report written), 2 on bad usage', async () => {
    const { engine, dir } = await engineAt()
    await deliver(engine, 'always-503', [{ steps: [{ type: 'reply', status: 503 }] }], 'csku')
    const asOf = new Date(engine.clock.now()).toISOString()
    await engine.close()

    const pass = await runCli(['conform', '--data', dir, '--endpoint', 'always-503', '--policy', 'csku', '--as-of', asOf])
    expect(pass.stderr).toBe('')
    expect(pass.code).toBe(0)
    expect(pass.stdout).toContain('PASSED: 1 event(s)')

    const reportFile = `${dir}/report/conform.json`
    const fail = await runCli(['conform', '--data', dir, '--endpoint', 'always-503', '--policy', 'stripe', '--tolerance-ms', '500', '--report', reportFile, '--as-of', asOf])
    expect(fail.code).toBe(1)
    expect(fail.stdout).toContain('FAIL retry intervals follow the schedule')
    const { readFileSync } = await import('node:fs')
    const written = JSON.parse(readFileSync(reportFile, 'utf8')) as SenderConformanceReport
    expect(written.ok).toBe(false)
    expect(written.tolerance).toEqual({ ms: 500, pct: 5 })

    for (const args of [
      ['conform', '--data', dir, '--endpoint', 'nope', '--policy', 'csku'],
      ['conform', '--data', `${dir}/missing`, '--endpoint', 'always-503', '--policy', 'csku'],
      ['conform', '--data', dir, '--endpoint', 'always-503', '--policy', 'no-such-preset'],
      ['conform', '--data', dir, '--endpoint', 'always-503', '--policy', 'csku', '--tolerance-ms=-5'],
      ['conform', '--data', dir, '--endpoint', 'always-503', '--policy', 'csku', '--tolerance-ms', '-5'],
      ['conform', '--data', dir],
    ]) {
      const bad = await runCli(args)
      expect(bad.code, args.join(' ')).toBe(2)
      expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    }
  })
})
