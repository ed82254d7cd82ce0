// Signing in through the team's identity provider in real headless Chromium: a served Hookloop
// with accounts and a real OpenID Connect provider (oidc-provider) on another site (localhost
// beside 127.0.0.1). The sign-in page shows the provider's button; through the provider's own
// login and consent pages the admin lands in the app, signed in with their role: the SameSite=Strict
// session cookie reaches the app although the way back began at the provider's site.
import { afterEach, describe, expect, it } from 'vitest'
import { startIdentityProvider, type IdentityProvider } from '../support/identity-provider'
import { screenshot } from './support/app'
import { openBrowser, type Browser } from './support/browser'
import { startServe, type Served } from './support/serve'

const CLIENT_SECRET = 'the client secret of hookloop at the provider'
let served: Served | undefined
let browser: Browser | undefined
let provider: IdentityProvider | undefined
afterEach(async () => {
  await browser?.close()
  await served?.stop()
  await provider?.close()
})

describe('signing in through an identity provider in the browser', () => {
  it('shows "Sign in with" the provider, and its sign-in lands in the app as the member', async () => {
    provider = await startIdentityProvider({ ada: { email: 'ada@example.com', email_verified: true, name: 'Ada' } }, 'localhost')
    served = await startServe(['--accounts', '--admin', 'ada@example.com', '--oidc-issuer', provider.issuer, '--oidc-client-id', 'hookloop', '--oidc-name', 'Acme ID'], {
      env: { ...process.env, HOOKLOOP_ADMIN_PASSWORD: 'correct horse battery', HOOKLOOP_OIDC_CLIENT_SECRET: CLIENT_SECRET },
    })
    provider.open({ clientId: 'hookloop', clientSecret: CLIENT_SECRET, redirectUris: [`${served.origin}/auth/oidc/callback`] })
    browser = await openBrowser()
    const { page } = browser
    await page.goto(served.url)
    const button = page.locator('a.provider')
    expect(await button.innerText()).toBe('Sign in with Acme ID')
    await screenshot(page, 'oidc-sign-in-page')

    await button.click()
    // The provider's pages: its login (any password), then its consent.
    await page.waitForSelector('input[name=login]', { timeout: 20_000 })
    expect(new URL(page.url()).hostname).toBe('localhost')
    await page.fill('input[name=login]', 'ada')
    await page.fill('input[name=password]', 'any password the dev login takes')
    await page.click('button[type=submit]')
    await page.waitForSelector('button[type=submit]:has-text("Continue")', { timeout: 20_000 })
    await page.click('button[type=submit]')

    await page.waitForSelector('[data-testid=app]', { timeout: 20_000 })
    expect(new URL(page.url()).origin).toBe(served.origin)
    const signedIn = page.locator('[data-testid=signed-in]')
    await signedIn.waitFor()
    expect(await signedIn.innerText()).toContain('ada@example.com')
    expect(await signedIn.innerText()).toContain('admin')
    await screenshot(page, 'oidc-signed-in')
  })
})
