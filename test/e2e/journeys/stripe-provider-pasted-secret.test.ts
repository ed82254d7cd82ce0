// A morning wiring Stripe: in the app, a subscription that delivers as Stripe does, with the
// signing secret pasted from the app's settings, sends a catalog event through an endpoint of ours
// that forwards to the app — a node:http server checking with the official `stripe` package
// (`constructEvent`). The app accepts it, sees Stripe's own headers and an `evt_…` id, and the
// inspector shows that id beside Hookloop's. The form is shot filled in, before it is sent.
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { PROVIDERS } from '../../../shared/providers'
import { rowSelector } from '../support/app'
import { startStripeWebhooksApp } from '../support/stripe-app'
import { journey, shot, withStore } from '../support/journey'

const day = journey('stripe-provider', { timeoutMs: 30_000 })
const FEED = 'billing events'
/** What a person copies from their app's settings (Stripe's endpoint secret). */
const OLD_VERSION = '2024-06-20'
const SECRET = `whsec_${Buffer.from('the endpoint secret the app was given').toString('base64')}`

interface Arrival {
  ok: boolean
  why: string
  eventId: string | null
  apiVersion: string | null
  userAgent: string
  contentType: string
}

async function startStripeApp(): Promise<{ url: string; arrivals: Arrival[]; stop(): Promise<void> }> {
  const stripe = new Stripe('sk_test_journey')
  const arrivals: Arrival[] = []
  const app = await startStripeWebhooksApp((req, body, res) => {
    const seen = { userAgent: String(req.headers['user-agent']), contentType: String(req.headers['content-type']) }
    try {
      const event = stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature'] ?? ''), SECRET)
      arrivals.push({ ok: true, why: event.type, eventId: event.id, apiVersion: event.api_version, ...seen })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
    } catch (error) {
      arrivals.push({ ok: false, why: (error as Error).message, eventId: null, apiVersion: null, ...seen })
      res.writeHead(400).end(`Webhook Error: ${(error as Error).message}`)
    }
  })
  return { url: app.url, arrivals, stop: app.close }
}

describe('journey: a Stripe subscription made in the app, with a pasted secret, to a real Stripe app', () => {
  it('the app accepts it with constructEvent, sees Stripe’s headers and evt_ id, and the inspector shows that id', async () => {
    await day.serve()
    const page = day.page
    const app = day.track(await startStripeApp())

    // The endpoint in front of the app: capture only, forward everything.
    await page.click('[data-testid=nav-endpoints]')
    await page.fill('[data-testid=endpoint-name]', 'stripe in')
    await page.selectOption('[data-testid=endpoint-scheme]', '')
    await page.fill('[data-testid=endpoint-forward-to]', app.url)
    await page.click('[data-testid=create-endpoint]')
    await page.locator('[data-testid=endpoint-card] h3:text-is("stripe in")').waitFor()

    // The subscription: Stripe picked, which fills scheme, policy and body; the secret pasted.
    await page.click('[data-testid=nav-subscriptions]')
    const form = page.locator('[data-testid=new-subscription]')
    await page.click('[data-testid=create-subscription]')
    expect.soft(await form.locator('[data-testid=name-problem]').innerText()).toMatch(/^Name the subscription/)
    await page.fill('[data-testid=subscription-name]', FEED)
    await page.selectOption('[data-testid=subscription-provider]', 'stripe')
    expect.soft(await page.inputValue('[data-testid=subscription-scheme]')).toBe('stripe')
    expect.soft(await page.inputValue('[data-testid=subscription-policy]')).toBe(PROVIDERS.stripe.policy)
    expect.soft(await form.locator('[data-testid=subscription-envelope]').innerText()).toContain('Stripe Event object')
    // The app's Stripe account is pinned to an older API version: the delivery follows it.
    expect.soft(await page.inputValue('[data-testid=subscription-api-version]')).toBe(PROVIDERS.stripe.apiVersions?.[0])
    await page.selectOption('[data-testid=subscription-api-version]', OLD_VERSION)
    await page.selectOption('[data-testid=subscription-target]', { label: 'our endpoint stripe in (loop)' })
    await page.fill('[data-testid=subscription-secret]', 'x'.repeat(501))
    expect.soft(await form.locator('[data-testid=secret-problem]').innerText()).toBe('A secret has at most 500 characters; this one has 501.')
    await page.click('[data-testid=generate-secret]')
    expect.soft(await page.inputValue('[data-testid=subscription-secret]')).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    await page.fill('[data-testid=subscription-secret]', SECRET)
    await form.scrollIntoViewIfNeeded()
    await shot(page, 'stripe-provider-1-form')
    await page.click('[data-testid=create-subscription]')
    const card = page.locator(`[data-testid=subscription-card]:has(h3:text-is("${FEED}"))`)
    await card.waitFor()
    // The full secret leaves the screen: the form is empty, the card shows a hint only.
    expect.soft(await page.inputValue('[data-testid=subscription-secret]')).toBe('')
    expect.soft(await card.locator('[data-testid=secret-hint]').innerText()).toBe(`Secret: ${SECRET.slice(0, 4)}…${SECRET.slice(-4)}`)
    expect.soft(await card.locator('[data-testid=subscription-provider-badge]').textContent()).toBe(`as Stripe · API ${OLD_VERSION}`)
    await shot(page, 'stripe-provider-2-card')
    const stored = withStore(day.data, (s) => s.all<{ id: string; provider: string | null; scheme: string }>('SELECT id, provider, scheme FROM subscriptions WHERE name = ?', FEED))
    expect(stored).toEqual([{ id: expect.any(String), provider: 'stripe', scheme: 'stripe' }])

    // The Sender: the subscription's event types are Stripe's catalog; the engine builds the payload.
    await page.click('[data-testid=nav-sender]')
    await page.selectOption('[data-testid=sender-subscription]', stored[0]!.id)
    await page.selectOption('[data-testid=sender-event-type]', 'payment_intent.succeeded')
    expect.soft(await page.getAttribute('[data-testid=sender-payload]', 'data-catalog')).toBe('true')
    await shot(page, 'stripe-provider-3-sender')
    await page.click('[data-testid=send]')
    await page.waitForSelector(`[data-testid=toast]:has-text("Sent 1 event to ${FEED}")`)

    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-status=succeeded]')).first()
    await row.waitFor()
    expect(app.arrivals).toHaveLength(1)
    const [arrival] = app.arrivals
    expect(arrival).toMatchObject({ ok: true, why: 'payment_intent.succeeded', contentType: 'application/json; charset=utf-8' })
    expect(arrival!.userAgent).toMatch(/^Stripe\/1\.0 /)
    expect(arrival!.eventId).toMatch(/^evt_/)
    expect(arrival!.apiVersion).toBe(OLD_VERSION)

    // The inspector: Hookloop's id and the id the app logged.
    await row.click()
    const shown = page.locator('[data-testid=inspector] [data-testid=provider-event-id]')
    await shown.waitFor()
    expect(await shown.innerText()).toContain(arrival!.eventId!)
    await shot(page, 'stripe-provider-4-inspector')
  })
})
