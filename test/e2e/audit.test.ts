// The audit in real headless Chromium: the admin of a served Hookloop with accounts creates an
// endpoint with a signing secret, opens Audit beside Members, sees that change at the top with
// who made it, and opens its detail: the secret is redacted, on the screen as in the store.
import { afterEach, describe, expect, it } from 'vitest'
import { createEndpoint, screenshot } from './support/app'
import { openBrowser, type Browser } from './support/browser'
import { startServe, type Served } from './support/serve'

const PASSWORD = 'correct horse battery'
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
let served: Served | undefined
let browser: Browser | undefined
afterEach(async () => {
  await browser?.close()
  await served?.stop()
})

describe('the audit in the browser', () => {
  it('shows the admin the change just made, who made it, and its detail without the secret', async () => {
    served = await startServe(['--accounts', '--admin', 'ada@example.com'], { env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD } })
    browser = await openBrowser()
    const { page } = browser
    await page.goto(served.url)
    await page.fill('input[name=email]', 'ada@example.com')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('button[type=submit]')
    await page.waitForSelector('[data-testid=app]', { timeout: 20_000 })

    await createEndpoint(page, { name: 'Shop', scheme: 'standard-webhooks', secret: SECRET })
    await page.click('[data-testid=audit-button]')
    const newest = page.locator('[data-testid=audit-entry]').first()
    await newest.waitFor()
    expect(await newest.getAttribute('data-command')).toBe('endpoint.create')
    expect(await newest.innerText()).toContain('ada@example.com')
    expect(await newest.innerText()).toContain('"Shop"')
    // The first admin, made at start, is the oldest entry.
    expect(await page.locator('[data-testid=audit-entry]').last().getAttribute('data-command')).toBe('account.firstAdmin')

    await newest.locator('button').click()
    const detail = page.locator('[data-testid=audit-detail]')
    await detail.waitFor()
    expect(await detail.innerText()).toContain('[redacted]')
    expect(await page.locator('[data-testid=audit]').innerText()).not.toContain(SECRET)
    await screenshot(page, 'audit-panel')

    // Audit and Members take turns in the same place.
    await page.click('[data-testid=members-button]')
    await page.waitForSelector('[data-testid=members]')
    expect(await page.locator('[data-testid=audit]').count()).toBe(0)
  })
})
