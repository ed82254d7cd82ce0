// An admin's API tokens in real headless Chromium: the Tokens panel beside Members makes a token
// whose secret is shown once with a Copy button, the token works for a machine (a WebSocket with
// `Authorization: Bearer`), the list shows its role, prefix and last use, and revoking it (after a
// confirmation) refuses it at once.
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { screenshot } from './support/app'
import { openBrowser, type Browser } from './support/browser'
import { startServe, type Served } from './support/serve'

const PASSWORD = 'correct horse battery'
let served: Served | undefined
let browser: Browser | undefined
afterEach(async () => {
  await browser?.close()
  await served?.stop()
})

/** A machine's socket with the token: its first command's answer, or the status it was refused with. */
function machine(origin: string, secret: string): Promise<boolean | number> {
  return new Promise((done) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/control`, { headers: { authorization: `Bearer ${secret}` } })
    ws.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0))
    ws.on('error', () => undefined)
    ws.once('open', () => ws.send(JSON.stringify({ t: 'cmd', id: 1, name: 'snapshot', req: {} })))
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { t: string; ok?: boolean }
      if (frame.t !== 'res') return
      ws.close()
      done(frame.ok === true)
    })
  })
}

describe('API tokens in the browser', () => {
  it('makes a token shown once with Copy, lists it with its last use, and revokes it after a confirmation', async () => {
    served = await startServe(['--accounts', '--admin', 'ada@example.com'], { env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD } })
    browser = await openBrowser()
    const { page, context } = browser
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.origin })
    await page.goto(served.url)
    await page.fill('input[name=email]', 'ada@example.com')
    await page.fill('input[name=password]', PASSWORD)
    await page.click('button[type=submit]')
    await page.waitForSelector('[data-testid=app]', { timeout: 20_000 })

    // The top bar holds the admin's buttons without widening the page.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
    await page.click('[data-testid=tokens-button]')
    await page.waitForSelector('[data-testid=no-tokens]')
    await page.fill('[data-testid=token-name]', 'GitHub Actions')
    await page.selectOption('[data-testid=token-role]', 'editor')
    await page.click('[data-testid=token-create]')
    const box = page.locator('[data-testid=token-secret-box]')
    await box.waitFor()
    expect(await box.innerText()).toContain('It will not be shown again.')
    const secret = await page.locator('[data-testid=token-secret]').innerText()
    expect(secret).toMatch(/^hlk_[A-Za-z0-9_-]{43}$/)
    await box.locator('button:text-is("Copy")').click()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)
    const row = page.locator('[data-testid=token][data-name="GitHub Actions"]')
    expect(await row.innerText()).toContain('editor')
    expect(await row.innerText()).toContain(`${secret.slice(0, 10)}…`)
    expect(await row.innerText()).toContain('never')
    await screenshot(page, 'tokens-created')

    // A machine uses it; the panel, opened again, no longer shows the secret and says when it was used.
    expect(await machine(served.origin, secret)).toBe(true)
    await page.click('[data-testid=token-secret-done]')
    await page.click('[data-testid=tokens-button]')
    await page.click('[data-testid=tokens-button]')
    await row.waitFor()
    expect(await page.locator('[data-testid=tokens]').innerText()).not.toContain(secret)
    await expect.poll(async () => {
      await page.click('[data-testid=tokens-button]')
      await page.click('[data-testid=tokens-button]')
      return row.locator('td').nth(4).innerText()
    }).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/)

    // Revoking asks first; Cancel keeps it.
    const confirm = page.locator('[data-testid=token-confirm]')
    await row.locator('[data-testid=token-revoke]').click()
    expect(await confirm.innerText()).toContain('Revoke GitHub Actions?')
    await confirm.locator('button:text-is("Cancel")').click()
    await confirm.waitFor({ state: 'detached' })
    expect(await row.getAttribute('data-revoked')).toBe('false')
    await row.locator('[data-testid=token-revoke]').click()
    await screenshot(page, 'tokens-confirm-revoke')
    await confirm.locator('[data-testid=token-revoke-confirm]').click()
    await page.waitForSelector('[data-testid=token][data-name="GitHub Actions"][data-revoked=true]')
    expect(await row.locator('.badge').innerText()).toMatch(/^revoked \d{4}-\d\d-\d\d \d\d:\d\d$/)
    await screenshot(page, 'tokens-revoked')
    expect(await machine(served.origin, secret)).toBe(401)
  })
})
