// The Sender page with a provider's subscription sends what `hookloop trigger` sends: both reach one
// real node:http server, and each provider's delivery from the page (`event.send` over the control
// socket with no payload: the catalog's, built per event) has the same header names, content type
// and body shape as trigger's for the same event type. Each event of a send is built afresh.
import type { IncomingHttpHeaders } from 'node:http'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { trigger } from '../../../electron/engine/trigger'
import { EVENT_CATALOG } from '../../../shared/event-catalog'
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { parseScenario } from '../../../shared/scenario'
import { freshSecret } from '../../../shared/secrets'
import { rawBody, serve, type Consumer } from '../providers/support'
import { settled, useHostSessions } from './support/session'

const openSession = useHostSessions()

interface Arrival {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

let consumer: Consumer | null = null
afterEach(async () => {
  await consumer?.close()
  consumer = null
})

async function collector(): Promise<{ base: string; arrivals: Arrival[] }> {
  const arrivals: Arrival[] = []
  consumer = await serve(async (req, res) => {
    arrivals.push({ path: req.url ?? '', headers: req.headers, body: (await rawBody(req)).toString('utf8') })
    res.writeHead(200).end()
  }, '')
  return { base: consumer.url, arrivals }
}

/** A body's shape: every key path with the JSON type of its value (form bodies: the parameter names). */
function shape(body: string, contentType: string): string[] {
  if (contentType.startsWith('application/x-www-form-urlencoded')) return [...new URLSearchParams(body).keys()].sort()
  const paths: string[] = []
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      paths.push(`${path}: array`)
      value.forEach((v) => walk(v, `${path}[]`))
    } else if (value !== null && typeof value === 'object') {
      paths.push(`${path}: object`)
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`)
    } else paths.push(`${path}: ${value === null ? 'null' : typeof value}`)
  }
  walk(JSON.parse(body), '$')
  return [...new Set(paths)].sort()
}

const headerNames = (a: Arrival) => Object.keys(a.headers).sort()

// Every provider with the first event type of its catalog, under each API version its pack lists.
const CASES: Array<[ProviderId, string, string | undefined]> = PROVIDER_IDS.flatMap((id) =>
  (PROVIDERS[id].apiVersions ?? [undefined]).map((version): [ProviderId, string, string | undefined] => [id, EVENT_CATALOG[id][0]!.type, version]),
)

describe('Sender page: a provider subscription sends what trigger sends', () => {
  it.each(CASES)('%s %s (API version %s): same header names, content type and body shape; fresh per event', async (provider, eventType, apiVersion) => {
    const { host, call } = await openSession()
    const { base, arrivals } = await collector()
    const secret = freshSecret(PROVIDERS[provider].scheme)
    const version = apiVersion ? { apiVersion } : {}
    const sub = await call('subscription.create', { name: `${provider} app`, target: { url: `${base}/ui` }, provider, secret, ...version })
    expect(sub.apiVersion).toBe(apiVersion ?? null)
    const sent = await call('event.send', { subscriptionId: sub.id, eventType, count: 2, faults: [] })
    await settled(host, sent.deliveryIds)
    await trigger({ provider, eventType, url: `${base}/cli`, secrets: [secret], clock: { mode: 'real' }, ...version })

    const fromPage = arrivals.filter((a) => a.path === '/ui')
    const fromTrigger = arrivals.filter((a) => a.path === '/cli')
    expect(fromPage).toHaveLength(2)
    expect(fromTrigger).toHaveLength(1)
    const cli = fromTrigger[0]!
    const contentType = String(cli.headers['content-type'])
    for (const page of fromPage) {
      expect(headerNames(page)).toEqual(headerNames(cli))
      expect(page.headers['content-type']).toBe(contentType)
      expect(page.headers['user-agent']).toBe(cli.headers['user-agent'])
      expect(shape(page.body, contentType)).toEqual(shape(cli.body, contentType))
      // The version travels the same way: Stripe's api_version in the body, Shopify's and Square's in a header.
      for (const name of Object.keys(cli.headers).filter((h) => h.includes('version'))) expect(page.headers[name], name).toBe(cli.headers[name])
      if (provider === 'stripe') expect((JSON.parse(page.body) as { api_version: string }).api_version).toBe(apiVersion)
    }
    // Each event of the send was built afresh: the two bodies differ (new ids and times).
    expect(fromPage[0]!.body).not.toBe(fromPage[1]!.body)
  })

  it('a Stripe subscription with a pasted secret: the official stripe package accepts each event, with an evt_ id', async () => {
    const { host, call } = await openSession()
    const { base, arrivals } = await collector()
    const secret = `whsec_${Buffer.from('the secret from the Stripe dashboard').toString('base64')}`
    const sub = await call('subscription.create', { name: 'billing', target: { url: `${base}/stripe` }, provider: 'stripe', secret })
    expect(sub).toMatchObject({ provider: 'stripe', scheme: 'stripe' })
    expect(sub.secretHints).toEqual([`${secret.slice(0, 4)}…${secret.slice(-4)}`])
    await call('record.start', {})
    const sent = await call('event.send', { subscriptionId: sub.id, eventType: 'payment_intent.succeeded', count: 2, faults: [] })
    await settled(host, sent.deliveryIds)
    // A recording keeps what each event sent: two catalog payloads, each its own.
    const recorded = parseScenario((await call('record.stop', {})).text)
    if (!recorded.ok) throw new Error(JSON.stringify(recorded.problems))
    const payloads = recorded.scenario.events.map((e) => (e.payload as { object: { id: string } }).object)
    expect(payloads).toHaveLength(2)
    expect(payloads[0]!.id).toMatch(/^pi_/)
    expect(payloads[0]!.id).not.toBe(payloads[1]!.id)
    const [arrival] = arrivals
    const event = new Stripe('sk_test_sender_page').webhooks.constructEvent(arrival!.body, String(arrival!.headers['stripe-signature']), secret)
    expect(event.id).toMatch(/^evt_/)
    expect(event.type).toBe('payment_intent.succeeded')
    expect(arrival!.headers['user-agent']).toMatch(/^Stripe\/1\.0 /)
  })

  it('without a payload: refused by name for a subscription without a provider, and for a type the catalog lacks', async () => {
    const { call } = await openSession()
    const own = await call('subscription.create', { name: 'own shape', target: { url: 'http://127.0.0.1:9/none' }, scheme: 'standard-webhooks', policyId: 'pandoktorek' })
    await expect(call('event.send', { subscriptionId: own.id, eventType: 'booking.created', count: 1, faults: [] })).rejects.toThrow(/^bad_request: event\.send: payload: subscription own shape has no provider/)
    const stripe = await call('subscription.create', { name: 'stripe', target: { url: 'http://127.0.0.1:9/none' }, provider: 'stripe' })
    await expect(call('event.send', { subscriptionId: stripe.id, eventType: 'booking.created', count: 1, faults: [] })).rejects.toThrow(/^bad_request: event\.send: eventType: Stripe's catalog has no "booking.created" \(known: .*payment_intent\.succeeded/)
  })
})
