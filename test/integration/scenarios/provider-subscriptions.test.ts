// A scenario subscription that names a provider delivers as that provider (the pack's scheme,
// policy, headers and envelope), and an event without a payload takes the catalog's for its type,
// with overrides in the `trigger --set` path syntax: "GitHub sends pull_request.opened under
// GitHub's policy (no retries), the attempt fails, a person redelivers it; Stripe retries after a
// failure", written without a header or an envelope by hand.
// Real sockets and a real SQLite file through runScenario; the validator's errors name what is wrong.
import { describe, expect, it } from 'vitest'
import { parseScenario } from '../../../shared/scenario'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { PROVIDERS } from '../../../shared/providers'
import { formatSummary } from '../../../electron/engine/scenarios/summary'

const GITHUB_SECRET = 'github-scenario-secret'
const STRIPE_SECRET = 'whsec_scenarioProviderSecret'

function scenarioText(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 1,
    name: 'GitHub and Stripe as themselves',
    clock: { mode: 'virtual', start: '2026-03-02T09:00:00Z' },
    endpoints: [
      { slug: 'gh', scheme: 'github', secrets: [GITHUB_SECRET], dedupe: 'github', rules: [{ preset: 'fail-first', n: 1, status: 502 }] },
      { slug: 'pay', scheme: 'stripe', secrets: [STRIPE_SECRET], dedupe: 'stripe', rules: [{ preset: 'fail-first', n: 1 }] },
    ],
    subscriptions: [
      { id: 'github', endpoint: 'gh', provider: 'github' },
      { id: 'stripe', endpoint: 'pay', provider: 'stripe', api_version: '2024-06-20' },
    ],
    events: [
      { id: 'pr', type: 'pull_request.opened', subscriptions: ['github'], overrides: { 'pull_request.title': 'Checkout times out' } },
      { id: 'paid', type: 'charge.succeeded', subscriptions: ['stripe'], overrides: ['data.object.amount=4200'] },
    ],
    actions: [{ type: 'resend', at_ms: 60_000, event: 'pr' }],
    expect: {
      deliveries: [
        { event: 'pr', status: 'failed', attempts: 1, outcomes: ['http_502'], duplicates: [1], signatures: 'ok' },
        { event: 'pr', resend: 1, status: 'succeeded', attempts: 1, outcomes: ['http_200'], duplicates: [2], signatures: 'ok' },
        { event: 'paid', status: 'succeeded', attempts: 2, signatures: 'ok' },
      ],
      endpoints: [
        {
          endpoint: 'gh',
          requests: 2,
          arrivals: [
            { headers: { 'x-github-event': 'pull_request', 'user-agent': { matches: '^GitHub-Hookshot/' } }, body: { action: 'opened', 'pull_request.title': 'Checkout times out' } },
            { signature: 'ok', duplicate: 2 },
          ],
        },
        { endpoint: 'pay', requests: 2, arrivals: [{ body: { object: 'event', api_version: '2024-06-20', type: 'charge.succeeded', 'data.object.amount': 4200 } }, { signature: 'ok' }] },
      ],
    },
    ...overrides,
  })
}

function problemsOf(text: string): string[] {
  const parsed = parseScenario(text)
  if (parsed.ok) throw new Error('expected the scenario to be refused')
  return parsed.problems.map((p) => `${p.path}: ${p.message}`)
}

describe('provider subscriptions and catalog events in a scenario', () => {
  it('delivers as the provider under its policy, with the catalog payload and the overrides', async () => {
    const parsed = parseScenario(scenarioText())
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    expect(parsed.scenario.subscriptions.map((s) => [s.scheme, s.policy, s.api_version])).toEqual([
      ['github', PROVIDERS.github.policy, undefined],
      ['stripe', PROVIDERS.stripe.policy, '2024-06-20'],
    ])
    const report = await runScenario(parsed.scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)

    // Each delivery names the id the consumer saw beside Hookloop's: the report and the summary.
    const [pr, paid] = [report.deliveries.find((d) => d.event === 'pr')!, report.deliveries.find((d) => d.event === 'paid')!]
    const ghArrival = (report.arrivals ?? []).find((a) => a.endpoint === 'gh')!
    expect(pr.provider_event_id).toEqual({ value: ghArrival.headers['x-github-delivery'], where: 'x-github-delivery' })
    const payArrival = (report.arrivals ?? []).find((a) => a.endpoint === 'pay')!
    expect(paid.provider_event_id).toEqual({ value: (payArrival.body as { id: string }).id, where: 'body.id' })
    expect(paid.provider_event_id?.value).toMatch(/^evt_/)
    expect(formatSummary(report)).toContain(`paid charge.succeeded ${paid.provider_event_id!.value} (body.id; Hookloop event ${paid.event_id}) → stripe (loop): succeeded`)
  })

  it('lets what the file gives override the pack', () => {
    const parsed = parseScenario(
      scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'github', policy: 'stripe', scheme: 'standard-webhooks' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe' }] }),
    )
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
    expect(parsed.scenario.subscriptions.map((s) => [s.scheme, s.policy, s.api_version])).toEqual([
      ['standard-webhooks', 'stripe', undefined],
      ['stripe', 'stripe', PROVIDERS.stripe.apiVersions![0]],
    ])
  })

  it('names what is wrong: an unknown provider, a type not in the catalog, no payload without a provider, a bad API version', () => {
    expect(problemsOf(scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'gitbub' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe' }] })).join('\n')).toMatch(
      /subscriptions\[0\]\.provider: .*github/,
    )
    expect(problemsOf(scenarioText({ events: [{ id: 'pr', type: 'pull_request.merged', subscriptions: ['github'] }, { id: 'paid', type: 'charge.succeeded', subscriptions: ['stripe'] }] }))).toEqual([
      expect.stringMatching(/^events\[0\]\.type: GitHub has no event type "pull_request\.merged" in the catalog \(known: push, .*pull_request\.opened.*\)/),
    ])
    const plain = problemsOf(
      scenarioText({
        subscriptions: [{ id: 'plain', endpoint: 'gh', scheme: 'github', policy: 'github' }],
        events: [{ id: 'pr', type: 'pull_request.opened' }],
        actions: [],
        expect: { deliveries: [{ event: 'pr', status: 'succeeded' }] },
      }),
    )
    expect(plain).toEqual([expect.stringMatching(/^events\[0\]\.payload: no payload, and subscription plain names no provider whose catalog could give one/)])
    expect(problemsOf(scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'github' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe', api_version: '2020-08-27' }] }))).toEqual([
      `subscriptions[1].api_version: Stripe has no API version "2020-08-27" (known: ${PROVIDERS.stripe.apiVersions!.join(', ')})`,
    ])
    expect(problemsOf(scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh', provider: 'github', envelope: 'payload' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe' }] }))).toEqual([
      'subscriptions[0].envelope: the github provider gives the body shape; leave "envelope" out',
    ])
    expect(problemsOf(scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh', provder: 'github' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe' }] })).join('\n')).toMatch(/did you mean "provider"/)
    expect(problemsOf(scenarioText({ subscriptions: [{ id: 'github', endpoint: 'gh' }, { id: 'stripe', endpoint: 'pay', provider: 'stripe' }] }))[0]).toMatch(/^subscriptions\[0\]\.policy: give a "policy", or a "provider"/)
    expect(problemsOf(scenarioText({ events: [{ id: 'pr', type: 'pull_request.opened', subscriptions: ['github'] }, { id: 'paid', type: 'charge.succeeded', subscriptions: ['stripe'], overrides: { 'object.amount': 1 } }] }))).toEqual([
      expect.stringMatching(/^events\[1\]\.overrides: event paid: override object\.amount: the payload sits at "data"/),
    ])
  })
})
