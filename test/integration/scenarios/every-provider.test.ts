// Every provider pack with a judge (its official library, judges/index.ts), as a QA engineer
// writes it: one scenario per provider with a subscription that names only the provider and
// catalog events with no payload written. The deliveries go through a Hookloop endpoint whose
// rules fail the first attempts of each event (faults in front) and which forwards the rest to
// the judge's consumer, under the provider's own retry policy. Every delivery that should pass
// must end succeeded, and the library must accept each event. Packs and judges added later are
// picked up from the registries, without an edit here.
import { afterAll, describe, expect, it } from 'vitest'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { POLICY_PRESETS } from '../../../shared/sender'
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { SCHEMES } from '../../../shared/signatures'
import { parseScenario } from '../../../shared/scenario'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { JUDGES, type Judge, type JudgeConsumer } from '../providers/judges'

const judged = PROVIDER_IDS.flatMap((id) => {
  const judge = JUDGES[id]
  return judge ? [[id, judge] as [ProviderId, Judge]] : []
})

const open: JudgeConsumer[] = []
afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()))
})

/**
 * The scenario for one provider. A provider that retries gets its first attempts failed (up to
 * two, fewer when its policy allows fewer retries); one that never retries (GitHub) fails once and
 * is redelivered by hand, as its docs say. A scheme that signs the URL (Twilio) cannot be
 * forwarded to another URL and stay valid, so its subscription goes to the consumer directly.
 */
function scenarioFor(provider: ProviderId, judge: Judge, consumerUrl: string): { text: string; eventCount: number; expectedAttempts: number } {
  const pack = PROVIDERS[provider]
  const maxAttempts = POLICY_PRESETS[pack.policy].max_attempts
  const direct = SCHEMES[pack.scheme].needsUrl
  const failing = direct ? 0 : maxAttempts > 1 ? Math.min(2, maxAttempts - 1) : 1
  const resend = !direct && maxAttempts === 1
  const events = EVENT_CATALOG[provider].map((e, i) => ({ id: `e${i + 1}`, type: e.type }))
  const endpoint = {
    slug: 'front',
    scheme: null,
    // Each event's own id: fail-first counts arrivals per event, retries included.
    dedupe: { type: 'header', name: pack.eventIdHeader },
    // The first arrivals of each event are answered 503 here; the next goes on to the consumer, which answers.
    rules: [{ name: `fail the first ${failing}, then forward`, sequence: { items: [...Array.from({ length: failing }, () => ({ type: 'reply', status: 503 })), { type: 'forward', url: consumerUrl }], then: 'repeat-last' } }],
  }
  const subscription = direct ? { id: provider, url: consumerUrl, provider, secrets: [judge.secret] } : { id: provider, endpoint: 'front', provider, secrets: [judge.secret] }
  const attempts = resend ? 1 : failing + 1
  const text = JSON.stringify({
    version: 1,
    name: `${pack.label}: catalog events through failing rules to ${judge.library}`,
    clock: { mode: 'virtual' },
    endpoints: direct ? [] : [endpoint],
    subscriptions: [subscription],
    events,
    actions: resend ? events.map((e) => ({ type: 'resend', at_ms: 60_000, event: e.id })) : [],
    expect: {
      deliveries: events.flatMap((e) =>
        resend
          ? [
              { event: e.id, status: 'failed', attempts: 1, outcomes: ['http_503'] },
              { event: e.id, resend: 1, status: 'succeeded', attempts: 1, outcomes: ['http_200'] },
            ]
          : [{ event: e.id, status: 'succeeded', attempts, outcomes: [...Array.from({ length: failing }, () => 'http_503'), 'http_200'] }],
      ),
    },
  })
  return { text, eventCount: events.length, expectedAttempts: attempts }
}

describe('every provider pack with an official-library judge, from a scenario', () => {
  it('has judges to run', () => {
    expect(judged.length).toBeGreaterThan(0)
  })

  it.each(judged)('%s: catalog events under its policy, faults in front, accepted by its library', async (provider, judge) => {
    const consumer = await judge.start()
    open.push(consumer)
    const { text, eventCount } = scenarioFor(provider, judge, consumer.url)
    const parsed = parseScenario(text)
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
    const report = await runScenario(parsed.scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
    // The library accepted every event once: failed attempts never reached it.
    expect(consumer.accepted).toHaveLength(eventCount)
    if (!judge.namesNoType) expect([...consumer.accepted].sort()).toEqual(EVENT_CATALOG[provider].map((e) => e.type).sort())
    // Each delivery names the id the consumer knows it by.
    for (const d of report.deliveries) expect(d.provider_event_id === null || d.provider_event_id.value.length > 0).toBe(true)
  })
})
