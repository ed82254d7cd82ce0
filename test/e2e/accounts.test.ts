// A served Hookloop with accounts in real headless Chromium: the address it prints is the sign-in
// page; a wrong password is told; the admin signs in, sees the app with their name and role in the
// top bar with the workspace they are in, switches to a second workspace they belong to (the page
// reloads into it) where the controls of the store-wide commands (Try the loop, Record, the sender
// clock, the tunnel's Start, the retention) are absent and back in default, signs out, and the
// app's page sends them back to sign in.
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { ARTIFACTS, screenshot } from './support/app'
import { openBrowser, type Browser } from './support/browser'
import { startServe, type Served } from './support/serve'

const PASSWORD = 'correct horse battery'

/** The controls of the store-wide commands each screen shows, counted where they would be (0: absent, not just disabled). */
async function storeWideControls(page: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const id of ['try-the-loop', 'record', 'clock-mode']) counts[id] = await page.locator(`[data-testid=${id}]`).count()
  await page.click('[data-testid=tunnel-state]')
  counts['tunnel-start'] = await page.locator('[data-testid=tunnel-start]').count()
  await page.click('[data-testid=tunnel-state]')
  await page.click('[data-testid=store-size]')
  counts['retention-save'] = await page.locator('[data-testid=retention-save]').count()
  await page.click('[data-testid=store-size]')
  return counts
}
const SHOWN = { 'try-the-loop': 1, record: 1, 'clock-mode': 1, 'tunnel-start': 1, 'retention-save': 1 }
const HIDDEN = { 'try-the-loop': 0, record: 0, 'clock-mode': 0, 'tunnel-start': 0, 'retention-save': 0 }
let served: Served | undefined
let browser: Browser | undefined
afterEach(async () => {
  await browser?.close()
  await served?.stop()
})

describe('accounts in the browser', () => {
  it('signs in on the page, shows the app and who is signed in, invites a member, and signs out', async () => {
    served = await startServe(['--accounts', '--admin', 'ada@example.com'], { env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: PASSWORD } })
    expect(served.url).toBe(`${served.origin}/signin`)
    browser = await openBrowser()
    const { page } = browser
    await page.goto(served.url)
    await page.fill('input[name=email]', 'ada@example.com')
    await page.fill('input[name=password]', 'not the password')
    await page.click('button[type=submit]')
    await page.waitForSelector('.notice:has-text("Wrong email or password.")')

    await page.fill('input[name=password]', PASSWORD)
    await page.click('button[type=submit]')
    await page.waitForSelector('[data-testid=app]', { timeout: 20_000 })
    const signedIn = page.locator('[data-testid=signed-in]')
    await signedIn.waitFor()
    expect(await signedIn.innerText()).toContain('ada@example.com')
    expect(await signedIn.innerText()).toContain('admin')
    await screenshot(page, 'accounts-signed-in')
    // In default, everything: the store-wide commands run here.
    await page.waitForSelector('[data-testid=try-the-loop]')
    await page.waitForSelector('[data-testid=store-size]')
    expect(await storeWideControls(page)).toEqual(SHOWN)
    await page.locator('header.topbar').screenshot({ path: join(ARTIFACTS, 'accounts-topbar-default.png') })

    // The admin's members: herself, and an invite link made for an editor, shown once.
    await page.click('[data-testid=members-button]')
    await page.waitForSelector('[data-testid=member][data-email="ada@example.com"]')
    await page.selectOption('select[aria-label="the new member\'s role"]', 'editor')
    await page.click('[data-testid=invite]')
    const link = await page.locator('[data-testid=invite-link]').innerText()
    expect(link).toMatch(new RegExp(`^${served.origin}/join\\?link=[A-Za-z0-9_-]{43}$`))
    expect(await (await fetch(link)).text()).toContain('You are invited as an editor')
    await screenshot(page, 'accounts-members')
    await page.click('[data-testid=members-button]')

    // One workspace: no switcher. She makes a second in her Members panel: the page reloads into
    // it, she its admin, with a switcher beside her admin's buttons that does not widen the page;
    // switching back reloads the page into default.
    expect(await page.locator('[data-testid=workspace]').count()).toBe(0)
    await page.click('[data-testid=members-button]')
    await page.fill('[data-testid=workspace-name]', 'Payments')
    await Promise.all([page.waitForEvent('load'), page.click('[data-testid=create-workspace]')])
    await page.waitForSelector('select[data-testid=workspace]', { timeout: 20_000 })
    expect(await page.locator('select[data-testid=workspace] option:checked').innerText()).toBe('Payments')
    expect(await signedIn.innerText()).toContain('admin')
    expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true)
    // Payments cannot run the store-wide commands: their controls are gone, and the empty timeline
    // and the tunnel's card say where they are.
    await page.waitForSelector('[data-testid=first-run]')
    await page.waitForSelector('[data-testid=store-size]')
    expect(await storeWideControls(page)).toEqual(HIDDEN)
    expect(await page.locator('[data-testid=first-run] h2').innerText()).toBe('Nothing has arrived in this workspace yet')
    await page.click('[data-testid=tunnel-state]')
    expect(await page.locator('[data-testid=store-wide-elsewhere]').innerText()).toContain('workspace default')
    await screenshot(page, 'accounts-workspace-tunnel')
    await page.click('[data-testid=tunnel-state]')
    // The Scenarios page opens and checks a file there, and says where one is recorded and run.
    await page.click('[data-testid=nav-scenarios]')
    await page.waitForSelector('[data-testid=scenarios-elsewhere]')
    expect(await page.locator('[data-testid=scenario-run]').count()).toBe(0)
    expect(await page.locator('[data-testid=scenario-open]').count()).toBe(1)
    await page.click('[data-testid=nav-timeline]')
    await page.waitForSelector('[data-testid=first-run]')
    await screenshot(page, 'accounts-workspace')
    await page.locator('header.topbar').screenshot({ path: join(ARTIFACTS, 'accounts-topbar-workspace.png') })
    await Promise.all([page.waitForEvent('load'), page.selectOption('select[data-testid=workspace]', 'default')])
    await page.waitForSelector('select[data-testid=workspace]', { timeout: 20_000 })
    expect(await page.locator('select[data-testid=workspace]').inputValue()).toBe('default')
    await page.waitForSelector('[data-testid=try-the-loop]')
    await page.waitForSelector('[data-testid=store-size]')
    expect(await storeWideControls(page)).toEqual(SHOWN)

    await signedIn.locator('button:text-is("Sign out")').click()
    await page.waitForURL(`${served.origin}/signin`)
    await page.goto(`${served.origin}/`)
    expect(new URL(page.url()).pathname).toBe('/signin')
    await page.waitForSelector('input[name=password]')
  })
})
