// The sender's catalog picker in real headless Chromium against `hookloop serve`: provider →
// event type fills the composer with that event's payload, fresh ids on refresh, and it sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openBrowser, type Browser } from './support/browser'
import { openApp, rowSelector, screenshot } from './support/app'
import { startServe, type Served } from './support/serve'

let browser: Browser
let served: Served | null = null

beforeAll(async () => {
  browser = await openBrowser()
  browser.page.setDefaultTimeout(20_000)
  served = await startServe()
  await openApp(browser.page, served.url)
})
afterAll(async () => {
  await served?.stop()
  await browser?.close()
})

describe('sender: the event catalog picker', () => {
  it('Stripe → payment_intent.succeeded prefills type and payload; refresh makes new ids; the event is sent', async () => {
    const page = browser.page
    await page.waitForSelector('[data-testid=first-run]')
    await page.click('[data-testid=try-the-loop]')
    await page.locator(rowSelector('[data-status=succeeded]')).first().waitFor()
    await page.click('[data-testid=nav-sender]')
    await page.selectOption('[data-testid=catalog-provider]', 'stripe')
    await page.selectOption('[data-testid=catalog-event]', 'payment_intent.succeeded')
    expect(await page.inputValue('[data-testid=sender-event-type]')).toBe('payment_intent.succeeded')
    const first = JSON.parse(await page.inputValue('[data-testid=sender-payload]')) as { object: { id: string; object: string; amount: number } }
    expect(first.object).toMatchObject({ object: 'payment_intent', amount: 2000 })
    expect(first.object.id).toMatch(/^pi_/)
    await page.click('[data-testid=catalog-refresh]')
    const second = JSON.parse(await page.inputValue('[data-testid=sender-payload]')) as { object: { id: string } }
    expect(second.object.id).not.toBe(first.object.id)
    await expect(page.locator('[data-testid=catalog-picker]').innerText()).resolves.toContain('A PaymentIntent was paid in full.')
    await screenshot(page, 'sender-catalog-picker')
    await page.click('[data-testid=send]')
    await page.waitForSelector('[data-testid=toast]:has-text("Sent 1 event")')
  })
})
