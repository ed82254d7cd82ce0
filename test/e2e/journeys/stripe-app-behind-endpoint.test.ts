// An afternoon wiring a real app: a subscription made in the UI delivers (Stripe-signed) to an
// endpoint of ours that fails the first two attempts in front and then forwards to the app — a
// node:http server checking signatures with the official `stripe` package — under Stripe's retry
// policy. It comes after "Try
// the loop", so the sender's clock is virtual: the waits pass at once, but what leaves Hookloop
// for the app is signed at wall time and the app accepts it. A second event the app answers 500
// fails. The subscription card's numbers and its 24 h badge equal the store's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { createSecretBox, secretKeyFileOf } from '../../../electron/engine/store/secret-box'
import { formatPercent } from '../../../renderer/src/lib/format'
import { rowSelector } from '../support/app'
import { startStripeWebhooksApp } from '../support/stripe-app'
import { axisLabels, journey, overlappingPieces, screenCard, screenRows, settle, shot, withStore, type Store } from '../support/journey'

const day = journey('stripe-app', { timeoutMs: 30_000 })
const FEED = 'payments feed'

/** The subscription's signing secret, as a person copies it into their app's settings. */
function signingSecret(store: Store): string {
  const [row] = store.all<{ secrets: string }>('SELECT secrets_json AS secrets FROM subscriptions WHERE name = ?', FEED)
  if (!row) throw new Error(`no subscription named ${FEED}`)
  const file = join(day.data, 'hookloop.db')
  const box = createSecretBox(Buffer.from(readFileSync(secretKeyFileOf(file), 'utf8').trim(), 'base64'))
  return (JSON.parse(box.open(row.secrets)) as string[])[0] ?? ''
}

interface StripeApp {
  url: string
  verdicts: { ok: boolean; why: string }[]
  /** The t= of each stripe-signature that reached the app, in ms. */
  signedAt: number[]
  close(): Promise<void>
}

/** The app: constructEvent on the raw body (Stripe's default 300 s tolerance); a refund makes it fail. */
async function startStripeApp(secret: () => string): Promise<StripeApp> {
  const stripe = new Stripe('sk_test_journey')
  const verdicts: StripeApp['verdicts'] = []
  const signedAt: number[] = []
  const app = await startStripeWebhooksApp((req, body, res) => {
    signedAt.push(Number(/t=(\d+)/.exec(String(req.headers['stripe-signature']))?.[1]) * 1000)
    let event: { event_type?: string }
    try {
      event = stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature'] ?? ''), secret()) as unknown as { event_type?: string }
    } catch (error) {
      verdicts.push({ ok: false, why: (error as Error).message })
      res.writeHead(400).end(`Webhook Error: ${(error as Error).message}`)
      return
    }
    verdicts.push({ ok: true, why: String(event.event_type) })
    if (event.event_type === 'refund.created') res.writeHead(500).end('refunds are broken today')
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
  })
  return { ...app, verdicts, signedAt }
}

describe('journey: a UI subscription through a failing endpoint to a real Stripe app', () => {
  it('the app accepts what the endpoint forwards; the card and the 24 h badge equal the store', async () => {
    await day.serve()
    const page = day.page
    await page.click('[data-testid=try-the-loop]')
    await page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]')).waitFor()

    let secret = ''
    const app = await startStripeApp(() => secret)
    day.track({ stop: app.close })

    // The endpoint: capture only, forward to the app, the first two arrivals of each event failed in front.
    await page.click('[data-testid=nav-endpoints]')
    await page.fill('[data-testid=endpoint-name]', 'payments')
    await page.selectOption('[data-testid=endpoint-scheme]', '')
    // The event id header of a Stripe-signed subscription outside provider A's policy.
    await page.selectOption('[data-testid=endpoint-dedupe-type]', 'header')
    await page.fill('[data-testid=endpoint-dedupe-text]', 'x-hookloop-event-id')
    await page.fill('[data-testid=endpoint-forward-to]', app.url)
    await page.click('[data-testid=create-endpoint]')
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=payments]')
    await card.waitFor()
    await card.locator('[data-testid=rule-presets] label:has-text("N =") input').fill('2')
    await card.locator('[data-testid=preset-fail-then-forward]').click()
    await card.locator('[data-testid=rule-sentence]:has-text("503")').waitFor()

    // The subscription, Stripe-signed, to that endpoint.
    await page.click('[data-testid=nav-subscriptions]')
    await page.fill('[data-testid=subscription-name]', FEED)
    await page.selectOption('[data-testid=subscription-target]', { label: 'our endpoint payments (loop)' })
    await page.selectOption('[data-testid=subscription-scheme]', 'stripe')
    // Stripe's own schedule: up to ten attempts over about three days.
    await page.selectOption('[data-testid=subscription-policy]', 'stripe')
    await page.click('[data-testid=create-subscription]')
    await page.locator(`[data-testid=subscription-card] h3:text-is("${FEED}")`).waitFor()
    secret = withStore(day.data, signingSecret)
    expect(secret).toMatch(/^whsec_/)

    const send = async (eventType: string) => {
      await page.click('[data-testid=nav-sender]')
      const subscriptionId = withStore(day.data, (s) => s.all<{ id: string }>('SELECT id FROM subscriptions WHERE name = ?', FEED))[0]!.id
      await page.selectOption('[data-testid=sender-subscription]', subscriptionId)
      await page.fill('[data-testid=sender-event-type]', eventType)
      await page.fill('[data-testid=sender-payload]', JSON.stringify({ amount: 4200, currency: 'eur' }))
      await page.click('[data-testid=send]')
      await page.waitForSelector(`[data-testid=toast]:has-text("Sent 1 event to ${FEED}")`)
      return withStore(day.data, (s) => s.all<{ eventId: string }>('SELECT d.event_id AS eventId FROM deliveries d JOIN events e ON e.id = d.event_id JOIN subscriptions s ON s.id = d.subscription_id WHERE s.name = ? AND e.event_type = ?', FEED, eventType))[0]!.eventId
    }
    const settled = (eventId: string) => page.locator(`${rowSelector(`[data-event-id="${eventId}"]`)}:is([data-status=succeeded], [data-status=failed])`)

    const sendingFrom = Date.now()
    // A payment: 503, 503 in front, then the app, which accepts the signature.
    const paid = await send('payment_intent.succeeded')
    await page.click('[data-testid=nav-timeline]')
    await settled(paid).waitFor()
    const paidRow = page.locator(rowSelector(`[data-event-id="${paid}"]`))
    await shot(page, 'stripe-app-1-paid')
    expect.soft(app.verdicts, 'what the app made of each forwarded attempt').toEqual([{ ok: true, why: 'payment_intent.succeeded' }])
    expect.soft(await paidRow.getAttribute('data-status')).toBe('succeeded')
    expect.soft(await paidRow.locator('.mark[data-tone]').allInnerTexts()).toEqual(['503', '503', '200'])
    expect.soft(await paidRow.locator('[data-testid=app-saw]').allInnerTexts()).toEqual(['not forwarded', 'not forwarded', expect.stringMatching(/^app: 200 in \d+ ms$/)])

    // A look at the endpoint's own rows ("Show on timeline"), then a refund the app accepts and
    // then fails on, watched from the Sender ("Watch on timeline"): that link shows the feed's rows.
    await page.click('[data-testid=nav-endpoints]')
    await card.locator('button:text-is("Show on timeline")').click()
    // The endpoint's rows: the payment's attempts reached it.
    await settle(async () => (await page.locator(rowSelector(`[data-event-id="${paid}"]`)).count()) === 1)
    expect.soft(await page.locator(rowSelector(`[data-event-id="${paid}"]`)).count(), '"Show on timeline" of the endpoint shows the delivery that reached it').toBe(1)
    const refund = await send('refund.created')
    await page.click('[data-testid=sender-form] button:text-is("Watch on timeline")')
    const feedDeliveries = withStore(day.data, (s) => s.count('SELECT COUNT(*) FROM deliveries WHERE subscription_id = (SELECT id FROM subscriptions WHERE name = ?)', FEED))
    await settle(async () => (await page.locator(rowSelector(`[data-event-id="${refund}"]`)).count()) === 1)
    await shot(page, 'stripe-app-2-watch')
    expect.soft(await page.locator('[data-testid=row-count]').innerText(), '"Watch on timeline" shows the feed’s deliveries').toMatch(new RegExp(`^${feedDeliveries} rows?`))
    await page.click('[data-testid=nav-timeline]')
    if ((await page.locator(rowSelector(`[data-event-id="${refund}"]`)).count()) === 0) await page.locator('[data-testid=timeline-toolbar] button:text-is("Clear filters"), .empty button:text-is("Clear filters")').first().click()
    await settled(refund).waitFor()
    expect.soft(await page.locator(rowSelector(`[data-event-id="${refund}"]`)).getAttribute('data-status')).toBe('failed')
    expect.soft(app.verdicts.filter((v) => !v.ok), 'the app refused a signature').toEqual([])
    // What left Hookloop for the app was signed at wall time (Stripe's t= has whole seconds).
    const sendingTo = Date.now()
    expect(app.signedAt.length).toBeGreaterThan(0)
    for (const at of app.signedAt) {
      expect.soft(at, `signed at ${new Date(at).toISOString()}, sent from ${new Date(sendingFrom).toISOString()} to ${new Date(sendingTo).toISOString()}`).toBeGreaterThanOrEqual(Math.floor(sendingFrom / 1000) * 1000)
      expect.soft(at).toBeLessThanOrEqual(sendingTo)
    }

    // Each delivery's row holds exactly its own attempts, as the store has them.
    const store = withStore(day.data, (s) => {
      const sub = `SELECT id FROM subscriptions WHERE name = '${FEED}'`
      const since = Date.now() - 24 * 3600 * 1000
      return {
        deliveries: s.count(`SELECT COUNT(*) FROM deliveries WHERE subscription_id = (${sub})`),
        attempts: s.count(`SELECT COUNT(*) FROM attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE subscription_id = (${sub}))`),
        // Attempts classified: success, or failure (retried or final). The card counts attempts.
        successes: s.count(`SELECT COUNT(*) FROM attempts WHERE decision = 'succeeded' AND delivery_id IN (SELECT id FROM deliveries WHERE subscription_id = (${sub}))`),
        failures: s.count(`SELECT COUNT(*) FROM attempts WHERE decision IN ('retry', 'failed') AND delivery_id IN (SELECT id FROM deliveries WHERE subscription_id = (${sub}))`),
        succeeded: s.count(`SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded' AND subscription_id = (${sub})`),
        failed: s.count(`SELECT COUNT(*) FROM deliveries WHERE status = 'failed' AND subscription_id = (${sub})`),
        // Arrivals at the endpoint of an event id already seen there: the receiver's duplicates.
        duplicates: s.count(`SELECT COUNT(*) FROM requests WHERE duplicate_number > 1 AND dedupe_key IN (SELECT event_id FROM deliveries WHERE subscription_id = (${sub}))`),
        failed24h: s.count(`SELECT COUNT(*) FROM deliveries WHERE status = 'failed' AND subscription_id = (${sub}) AND created_at >= ?`, since),
        total24h: s.count(`SELECT COUNT(*) FROM deliveries WHERE subscription_id = (${sub}) AND created_at >= ?`, since),
        perDelivery: s.all<{ eventId: string; attempts: number }>(`SELECT d.event_id AS eventId, COUNT(a.id) AS attempts FROM deliveries d JOIN attempts a ON a.delivery_id = d.id WHERE d.subscription_id = (${sub}) GROUP BY d.id`),
      }
    })
    expect(store.deliveries).toBe(2)
    // The endpoint keyed every arrival by its event id (the rule's "first two" are per event).
    expect(withStore(day.data, (s) => s.count("SELECT COUNT(*) FROM requests WHERE dedupe_key IS NULL AND endpoint_id = (SELECT id FROM endpoints WHERE slug = 'payments')"))).toBe(0)
    expect.soft(store.succeeded).toBe(1)
    expect.soft(store.failed).toBe(1)
    const shown = await screenRows(page)
    // Three days of retries on one axis: its ticks name the day (no two read the same), and no
    // mark or label of a row covers another.
    const ticks = await axisLabels(page)
    await shot(page, 'stripe-app-3-axis')
    expect.soft(ticks.length).toBeGreaterThan(1)
    expect.soft(ticks.filter((t, i) => ticks.indexOf(t) !== i), `axis ticks ${JSON.stringify(ticks)}`).toEqual([])
    for (const eventId of [paid, refund]) expect.soft(await overlappingPieces(page, rowSelector(`[data-event-id="${eventId}"]`)), `overlapping marks and labels in the row of ${eventId}`).toEqual([])
    for (const { eventId, attempts } of store.perDelivery) {
      const row = shown.find((r) => r.eventId === eventId)
      expect.soft(row?.attempts, `row of ${eventId}`).toBe(attempts)
      expect.soft(row?.marks.length, `marks of ${eventId}`).toBe(attempts)
    }

    // The top bar counts every captured request (the loop's, and each attempt that reached the endpoint).
    const captured = withStore(day.data, (st) => st.count('SELECT COUNT(*) FROM requests'))
    await settle(async () => (await page.locator('[data-testid=store-size]').getAttribute('data-requests')) === String(captured))
    expect.soft(await page.locator('[data-testid=store-size]').getAttribute('data-requests'), 'the top bar’s request count').toBe(String(captured))

    // The card and its badge: the same numbers, the badge the seed's (failed deliveries over 24 h of wall time, red above 5 %).
    await page.click('[data-testid=nav-subscriptions]')
    // The card follows the store (its figures are recounted at most every half second while
    // deliveries move): wait for it to catch up with the settled store, then compare every figure.
    const expected = { deliveries: store.deliveries, attempts: store.attempts, successes: store.successes, failures: store.failures, duplicates: store.duplicates }
    const rate = store.total24h === 0 ? 0 : store.failed24h / store.total24h
    const badge = `${formatPercent(rate)} failed / 24 h`
    await settle(async () => {
      const card = await screenCard(page, FEED)
      const same = Object.keys(card.metrics).length === Object.keys(expected).length && Object.entries(expected).every(([k, v]) => card.metrics[k] === v)
      return same && card.badge === badge
    })
    const shownCard = await screenCard(page, FEED)
    await shot(page, 'stripe-app-4-card')
    expect.soft(shownCard.metrics).toEqual(expected)
    expect.soft(shownCard.badge).toBe(badge)
    expect.soft(shownCard.red).toBe(rate > 0.05)
  })
})
