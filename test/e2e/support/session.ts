// What the e2e files set up alike: one headless Chromium per file, a fresh `hookloop serve` per
// test with the app open in the page, stopped after the test (with a screenshot first if it failed),
// and, if asked, a scratch folder for the file's downloads and reports.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { openApp, screenshot } from './app'
import { openBrowser, ready, type Browser } from './browser'
import { startServe, type Served } from './serve'

export interface Session {
  /** The file's page (open once the file's beforeAll has run). */
  readonly page: Page
  /** The scratch folder (with `work` given). */
  readonly work: string
  /** A fresh `hookloop serve`, the app opened on it in the page (given with it); it stops after the test. */
  fresh(): Promise<Served & { page: Page }>
}

export function browserSession(options: { timeoutMs?: number; work?: string } = {}): Session {
  let browser: Browser | undefined
  let served: Served | null = null
  let work: string | undefined
  beforeAll(async () => {
    browser = await openBrowser()
    // Waits end with Playwright's own message (what it waited for) well before the test's limit.
    browser.page.setDefaultTimeout(options.timeoutMs ?? 20_000)
    if (options.work) work = mkdtempSync(join(tmpdir(), `hookloop-e2e-${options.work}-`))
  })
  afterAll(async () => {
    await browser?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && browser) await screenshot(browser.page, `failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`)
    await served?.stop()
    served = null
  })
  const session: Session = {
    get page() { return ready(browser, 'the browser opens in the file’s beforeAll').page },
    get work() { return ready(work, 'browserSession({ work }) makes the scratch folder') },
    async fresh() {
      served = await startServe()
      await openApp(session.page, served.url)
      return { ...served, page: session.page }
    },
  }
  return session
}
