// Forward mode in real headless Chromium against `hookloop serve`, with a real app on loopback that
// checks the signature with the provider's official library: set the endpoint's "Forward to your
// app" (refusals shown, named), send through it, see both legs in the inspector and "app saw it" on
// the timeline, add a forward preset, resend edited with the signature broken and see the new leg.
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type App } from '../support/forward-apps'
import { openBrowser, type Browser } from './support/browser'
import { createEndpoint, openApp, rowSelector, screenshot } from './support/app'
import { startServe, type Served } from './support/serve'

const SECRET = `whsec_${Buffer.from('forward-e2e-secret-of-32-bytes!!').toString('base64')}`

let browser: Browser
let served: Served | null = null
let app: App | null = null

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

describe('forward mode in the browser', () => {
  it('forwards to a real app, shows both legs and what the app saw, adds a forward preset, resends', async () => {
    // The app: verifies with the official Standard Webhooks library, answers 200 or 401.
    app = await startApp((req, res) => {
      try {
        new Webhook(SECRET).verify(req.body.toString('utf8'), req.headers as Record<string, string>)
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
      } catch {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('bad signature')
      }
    })
    served = await startServe()
    const page = browser.page
    await openApp(page, served.url)
    await createEndpoint(page, { name: 'orders', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=orders]')
    // No target yet: the forward presets are not offered.
    expect(await card.locator('[data-testid=preset-fail-then-forward]').count()).toBe(0)

    // Refusals come back naming the field and show on the card; nothing is saved.
    const input = card.locator('[data-testid=forward-to-input]')
    await input.fill('ftp://127.0.0.1/hooks')
    await card.locator('[data-testid=forward-to-save]').click()
    expect(await card.locator('[data-testid=forward-to-error]').innerText()).toMatch(/forwardTo\.0: a forward target must be http:\/\/ or https:\/\//)
    await input.fill(`${served.receiverUrl}/h/orders`)
    await card.locator('[data-testid=forward-to-save]').click()
    await card.locator('[data-testid=forward-to-error]:has-text("points back at this receiver")').waitFor()
    expect(await card.locator('[data-testid=forward-to-error]').innerText()).toMatch(/forwardTo: /)

    await input.fill(`${app.url}/webhooks`)
    await card.locator('[data-testid=forward-to-save]').click()
    await card.locator('[data-testid=forward-to-state]:has-text("goes to your app")').waitFor()

    // Send a signed request through Hookloop: the app sees it, valid, and answers.
    const body = JSON.stringify({ type: 'order.paid', data: { order_id: 'o_5521' } })
    const sent = new Date()
    const answer = await fetch(`${served.receiverUrl}/h/orders`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'webhook-id': 'evt_fwd_1', 'webhook-timestamp': String(Math.floor(sent.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign('evt_fwd_1', sent, body) },
    })
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe('{"received":true}')
    expect((await app.received(1)).body.toString()).toBe(body)

    // The timeline says the app saw it and what it answered.
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id=evt_fwd_1]'))
    await row.locator('[data-testid=app-saw]:has-text("app: 200 in")').waitFor()

    // The inspector: both legs side by side.
    await row.locator('.mark').first().click()
    const legs = page.locator('[data-testid=forward-legs][data-legs="1"]')
    await legs.waitFor()
    expect(await legs.locator('[data-testid=hop-in]').innerText()).toContain('POST /h/orders')
    expect(await legs.locator('[data-testid=hop-out] [title]').getAttribute('title')).toBe(`${app.url}/webhooks`)
    expect(await legs.locator('[data-testid=leg-url]').innerText()).toBe(`${app.url}/webhooks`)
    expect(await legs.locator('[data-testid=leg-summary]').innerText()).toMatch(/^your app answered 200 in \d+ ms$/)
    expect(await legs.locator('[data-testid=sender-answer]').innerText()).toMatch(/^200/)
    expect(await legs.locator('[data-testid=leg-status]').innerText()).toBe('200')
    expect(await legs.locator('[data-testid=leg-request-body]').innerText()).toContain('"order_id": "o_5521"')
    expect(await legs.locator('[data-testid=leg-response-body]').innerText()).toContain('"received": true')
    await screenshot(page, 'forward-both-legs')

    // Resend, edited with the signature left broken on purpose: the app refuses it; a new leg.
    await legs.locator('[data-testid=resend-open]').click()
    await page.selectOption('[data-testid=resend-mode]', 'broken')
    await page.fill('[data-testid=resend-body]', JSON.stringify({ type: 'order.paid', data: { order_id: 'o_9999' } }))
    await page.click('[data-testid=resend-send]')
    const two = page.locator('[data-testid=forward-legs][data-legs="2"]')
    await two.waitFor()
    await two.locator('[data-testid=leg-detail][data-kind=resend]').waitFor()
    expect(await two.locator('[data-testid=leg-summary]').innerText()).toMatch(/^your app answered 401/)
    expect(await two.locator('[data-testid=leg-chip]').count()).toBe(2)
    expect((await app.received(2)).body.toString()).toContain('o_9999')
    await row.locator('[data-testid=app-saw]:has-text("×2")').waitFor()
    await screenshot(page, 'forward-resend')

    // A forward preset now appears, and adds a rule that reads as a sentence.
    await page.click('[data-testid=nav-endpoints]')
    await card.locator('[data-testid=preset-fail-then-forward]').click()
    await card.locator('[data-testid=rule-sentence]:has-text("503")').waitFor()
    expect(await card.locator('[data-testid=rule-sentence]').innerText()).toContain(`forward to ${new URL(app.url).host}`)

    // Under it, the next request is failed before the app sees it: "not forwarded".
    const failed = await fetch(`${served.receiverUrl}/h/orders`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'webhook-id': 'evt_fwd_2' } })
    expect(failed.status).toBe(503)
    await page.click('[data-testid=nav-timeline]')
    const second = page.locator(rowSelector('[data-event-id=evt_fwd_2]'))
    await second.locator('[data-testid=app-saw]:has-text("not forwarded")').waitFor()
    await second.locator('.mark').first().click()
    await page.locator('[data-testid=not-forwarded]').waitFor()
    expect(app.seen).toHaveLength(2)
  })
})
