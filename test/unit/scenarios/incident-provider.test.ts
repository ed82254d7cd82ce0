// A customer's HAR from a real provider, signed by that provider's own library: the import
// recognises the provider, finds each request's event id where that provider puts it (Stripe's
// body `id`, GitHub's X-GitHub-Delivery) and keeps it, judges the signatures with the secret given,
// and flags the provider's retry of the same event as a duplicate.
import { sign as octokitSign } from '@octokit/webhooks-methods'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { fillPlaceholders } from '../../../shared/scenario'
import { validateScenario } from '../../../shared/scenario'
import { parseIncident } from '../../../electron/engine/exports/incident'
import { incidentToScenario } from '../../../electron/engine/scenarios/from-incident'
import { recogniseProvider } from '../../../electron/engine/scenarios/incident-provider'

const T0 = Date.parse('2026-03-02T08:00:00Z')

function har(entries: { at: number; headers: Record<string, string>; text: string; status: number }[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      entries: entries.map((e) => ({
        startedDateTime: new Date(T0 + e.at).toISOString(),
        time: 5,
        request: { method: 'POST', url: 'https://app.customer.example/webhooks', headers: Object.entries(e.headers).map(([name, value]) => ({ name, value })), postData: { mimeType: 'application/json', text: e.text } },
        response: { status: e.status },
      })),
    },
  })
}

function valid(scenario: unknown): void {
  const filled = fillPlaceholders(scenario, () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
  const checked = validateScenario(filled.ok ? filled.document : null)
  expect(checked.ok ? [] : checked.problems).toEqual([])
}

describe('a provider recognised in a HAR', () => {
  it("Stripe: the event id is the body's evt_…; a retry is dup #2; the verdicts come from the secret", () => {
    const stripe = new Stripe('sk_test_offline')
    const secret = 'whsec_customer_stripe_secret'
    const event = (id: string, type: string) => JSON.stringify({ id, object: 'event', type, api_version: '2024-06-20', created: T0 / 1000, data: { object: { id: 'in_1', object: 'invoice' } } })
    const stripeHeaders = (text: string, at: number, key = secret) => ({
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: text, secret: key, timestamp: Math.floor((T0 + at) / 1000) }),
    })
    const paid = event('evt_1Qa2Zb3', 'invoice.paid')
    const failed = event('evt_1Qa2Zc4', 'invoice.payment_failed')
    const { scenario, notes } = incidentToScenario(
      parseIncident(
        har([
          { at: 0, headers: stripeHeaders(paid, 0), text: paid, status: 500 },
          { at: 1_000, headers: stripeHeaders(failed, 1_000, 'whsec_rotated_out'), text: failed, status: 400 },
          { at: 3_600_000, headers: stripeHeaders(paid, 3_600_000), text: paid, status: 200 },
        ]),
      ),
      { secret },
    )
    valid(scenario)
    expect(scenario.events?.map((e) => [e.event_id, e.type, e.faults])).toEqual([
      ['evt_1Qa2Zb3', 'invoice.paid', undefined],
      ['evt_1Qa2Zc4', 'invoice.payment_failed', [{ type: 'wrong-secret' }]],
    ])
    expect(scenario.endpoints?.[0]).toMatchObject({ scheme: 'stripe', dedupe: { type: 'json-path', path: 'id' } })
    expect(scenario.subscriptions?.[0]).toMatchObject({ name: 'the requests Stripe sent to incident, sent again', scheme: 'stripe', envelope: 'payload', headers: { 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', 'content-type': 'application/json; charset=utf-8' } })
    expect(scenario.description).toContain('look like Stripe deliveries (stripe-signature, user agent Stripe)')
    expect(scenario.description).toContain("with Stripe's event id (body field id)")
    expect(scenario.expect?.endpoints?.[0]?.arrivals).toEqual([
      { run_ms: 0, signature: 'ok', duplicate: 1, body: { id: 'evt_1Qa2Zb3' } },
      { run_ms: 1_000, signature: 'signature_mismatch', duplicate: 1, body: { id: 'evt_1Qa2Zc4' } },
      { run_ms: 3_600_000, signature: 'ok', duplicate: 2 },
    ])
    expect(notes.filter((n) => /signature|event id/.test(n))).toEqual([])
  })

  it("GitHub: X-GitHub-Delivery's GUID is kept as it was (it is no UUID v4); the event header that changes per request gets a note", async () => {
    const secret = 'gh-secret-of-the-customer'
    const push = JSON.stringify({ ref: 'refs/heads/main', repository: { id: 1, full_name: 'acme/shop' } })
    const star = JSON.stringify({ action: 'created', repository: { id: 1, full_name: 'acme/shop' } })
    const headers = async (text: string, event: string, delivery: string) => ({
      'user-agent': 'GitHub-Hookshot/a1b2c3d',
      'x-github-event': event,
      'x-github-delivery': delivery,
      'x-github-hook-id': '4711',
      'x-hub-signature-256': await octokitSign(secret, text),
    })
    const incident = parseIncident(
      har([
        { at: 0, headers: await headers(push, 'push', '72d3162e-cc78-11e3-81ab-4c9367dc0958'), text: push, status: 200 },
        { at: 500, headers: await headers(star, 'star', '9b1c4e2a-cc78-11e3-8c5d-1a2b3c4d5e6f'), text: star, status: 200 },
      ]),
    )
    expect(recogniseProvider(incident.requests)?.pack.id).toBe('github')
    const { scenario, notes } = incidentToScenario(incident, { secret })
    valid(scenario)
    expect(scenario.events?.map((e) => e.event_id)).toEqual(['72d3162e-cc78-11e3-81ab-4c9367dc0958', '9b1c4e2a-cc78-11e3-8c5d-1a2b3c4d5e6f'])
    expect(scenario.subscriptions?.[0]).toMatchObject({ scheme: 'github', event_id_header: 'x-github-delivery', headers: { 'user-agent': 'GitHub-Hookshot/a1b2c3d', 'x-github-hook-id': '4711' } })
    expect(scenario.expect?.deliveries?.map((d) => d.signatures)).toEqual(['ok', 'ok'])
    expect(notes).toContain('endpoint incident: header x-github-event changed between requests or was not on every one, so it is not sent again (the scenario sends the headers every request had, the same)')
  })

  it('nothing recognisable: no provider named, and an id that cannot be sent as it was becomes a UUID with a note', () => {
    const text = JSON.stringify({ n: 1 })
    const incident = parseIncident(har([{ at: 0, headers: { 'user-agent': 'curl/8.5', 'webhook-id': 'id with spaces' }, text, status: 200 }]))
    expect(recogniseProvider(incident.requests)).toBeNull()
    const { scenario, notes } = incidentToScenario(incident)
    valid(scenario)
    expect(scenario.events?.[0]?.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/)
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/^log\.entries\[0\]: its event id "id with spaces" cannot be sent as it was \(an event id is 1 to 200/)]))
  })
})
