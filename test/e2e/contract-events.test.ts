// The send form offers a contract's event types in real headless Chromium against `hookloop serve`:
// `hookloop contract add` made the shop spec's endpoints in the data folder, a subscription delivers
// to one of them, the form lists the spec's event types with their example payloads beside the
// provider catalog, and the one picked is sent, captured at the endpoint and judged against the spec.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../support/run-cli'
import { openBrowser, type Browser } from './support/browser'
import { openApp, rowSelector, screenshot } from './support/app'
import { startServe, type Served } from './support/serve'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')

let browser: Browser
let served: Served | null = null
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'hookloop-e2e-contract-'))
  const added = await runCli(['contract', 'add', SHOP, '--data', dataDir])
  expect(added.code).toBe(0)
  browser = await openBrowser()
  browser.page.setDefaultTimeout(20_000)
  served = await startServe([], { dataDir })
  await openApp(browser.page, served.url)
}, 60_000)
afterAll(async () => {
  await served?.stop()
  await browser?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('sender: a contract\'s event types', () => {
  it('a subscription to a contract endpoint is offered the spec\'s events; the spec\'s example is sent and judged valid against it', async () => {
    const page = browser.page
    // The endpoint says what its bodies are judged against.
    await page.click('[data-testid=nav-endpoints]')
    const said = page.locator('[data-testid=endpoint-card][data-endpoint=order-created] [data-testid=endpoint-contract]')
    expect(await said.innerText()).toContain('Bodies judged against order.created in Shop webhooks 1.2.0')
    await page.click('[data-testid=nav-subscriptions]')
    await page.fill('[data-testid=subscription-name]', 'shop consumer')
    await page.selectOption('[data-testid=subscription-target]', { label: 'our endpoint order.created (loop)' })
    await page.selectOption('[data-testid=subscription-envelope]', 'payload')
    await page.click('[data-testid=create-subscription]')
    await page.waitForSelector('[data-testid=subscription-card] h3:text-is("shop consumer")')

    await page.click('[data-testid=nav-sender]')
    const picker = page.locator('[data-testid=contract-picker]')
    await picker.waitFor()
    expect(await picker.innerText()).toContain('Shop webhooks 1.2.0')
    // The endpoint's own operation first, then the spec's other one; the provider catalog beside them.
    const offered = await page.locator('[data-testid=contract-event] option').allInnerTexts()
    expect(offered.slice(1)).toEqual(["order.created (the spec's example)", 'order.cancelled (made from the schema)'])
    await page.locator('[data-testid=catalog-picker]').waitFor()

    await page.selectOption('[data-testid=contract-event]', 'order.created')
    expect(await page.inputValue('[data-testid=sender-event-type]')).toBe('order.created')
    const payload = JSON.parse(await page.inputValue('[data-testid=sender-payload]')) as { type: string; id: string; data: { order_id: string } }
    expect(payload).toMatchObject({ type: 'order.created', id: 'evt_1001', data: { order_id: 'ord_1' } })
    await screenshot(page, 'sender-contract-events')
    await page.click('[data-testid=send]')
    await page.waitForSelector('[data-testid=toast]:has-text("Sent 1 event")')

    // Captured at the contract endpoint and held against the spec's order.created.
    await page.click('[data-testid=nav-timeline]')
    const badge = page.locator(`${rowSelector('')} [data-schema]`).first()
    await badge.waitFor()
    expect(await badge.getAttribute('data-schema')).toBe('valid')
    await page.locator(rowSelector(':has([data-schema])')).first().click()
    const verdict = page.locator('[data-testid=schema-verdict][data-state=valid]')
    await verdict.waitFor()
    expect(await verdict.innerText()).toContain('Shop webhooks 1.2.0')
  })
})
