// Breakpoints in real headless Chromium against `hookloop serve`: a breakpoint is added on the
// Breakpoints page, a signed Stripe delivery stops at it (its sender has no answer yet) and shows
// at once with its body; the body is edited, re-signed and released; the Stripe app (checking with
// the `stripe` package's constructEvent) sees the edit, and the timeline row and its inspector
// show the hold beside the original.
import Stripe from 'stripe'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser, type Browser } from './support/browser'
import { createEndpoint, openApp, rowSelector, screenshot } from './support/app'
import { startServe, type Served } from './support/serve'
import { startStripeWebhooksApp } from './support/stripe-app'

const SECRET = 'whsec_breakpoints_e2e_secret'
const stripe = new Stripe('sk_test_unused')

let browser: Browser
let served: Served | null = null
let app: Awaited<ReturnType<typeof startStripeWebhooksApp>> | null = null

beforeAll(async () => {
  browser = await openBrowser()
  browser.page.setDefaultTimeout(20_000)
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(browser.page, `failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`)
  await served?.stop()
  await app?.close()
  served = null
  app = null
})

describe('breakpoints in the browser', () => {
  it('holds a Stripe delivery, edits its body, re-signs and releases it; the app and the row show the edit', async () => {
    const seen: string[] = []
    app = await startStripeWebhooksApp((req, body, res) => {
      try {
        const event = stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), SECRET)
        seen.push(`verified ${JSON.stringify(event.data.object)}`)
        res.writeHead(200).end('ok')
      } catch (error) {
        seen.push(`rejected: ${(error as Error).message}`)
        res.writeHead(400).end('bad signature')
      }
    })
    served = await startServe()
    const page = browser.page
    await openApp(page, served.url)
    await createEndpoint(page, { name: 'payments', scheme: 'stripe', secret: SECRET })
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=payments]')
    await card.locator('[data-testid=forward-to-input]').fill(app.url)
    await card.locator('[data-testid=forward-to-save]').click()
    await card.locator('[data-testid=forward-to-state]:has-text("goes to your app")').waitFor()

    await page.click('[data-testid=nav-breakpoints]')
    expect(await page.locator('[data-testid=provider-waits]').innerText()).toMatch(/Stripe\s+20 s/)
    await page.fill('[data-testid=bp-json-path]', 'type')
    await page.fill('[data-testid=bp-json-value]', 'charge.succeeded')
    await page.fill('[data-testid=bp-limit]', '60')
    await page.click('[data-testid=bp-add]')
    await page.locator('[data-testid=breakpoint]:has-text("type is \\"charge.succeeded\\"")').waitFor()

    // The delivery waits: no answer until the person releases it.
    const body = JSON.stringify({ id: 'evt_bp_1', object: 'event', type: 'charge.succeeded', data: { object: { id: 'ch_1', amount: 100 } } })
    let answered = false
    const answer = fetch(`${served.receiverUrl}/h/payments`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }) } }).then((r) => {
      answered = true
      return r
    })
    const held = page.locator('[data-testid=held-request]')
    await held.waitFor()
    expect(await held.locator('[data-testid=held-body]').inputValue()).toBe(body)
    expect(await held.locator('[data-testid=held-countdown]').innerText()).toMatch(/^released as it came in \d+ s$/)
    expect(answered).toBe(false)
    expect(seen).toEqual([])
    await screenshot(page, 'breakpoint-held')

    const edited = body.replace('"amount":100', '"amount":5')
    await held.locator('[data-testid=held-body]').fill(edited)
    expect(await held.locator('[data-testid=held-resign]').isChecked()).toBe(true)
    await held.locator('[data-testid=held-release]').click()
    expect((await answer).status).toBe(200)
    expect(seen).toEqual(['verified {"id":"ch_1","amount":5}'])
    await page.locator('[data-testid=held-request]').waitFor({ state: 'detached' })

    // The row says it was held; its inspector has the edit beside the original.
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id=evt_bp_1]'))
    const mark = row.locator('.mark:has-text("held · 200")')
    await mark.waitFor()
    await mark.click()
    await page.locator('[data-testid=hold-summary]:has-text("edited and re-signed, released")').waitFor()
    expect(await page.locator('[data-testid=hold-edited-body]').innerText()).toBe(edited)
    await screenshot(page, 'breakpoint-released-row')
  })
})
