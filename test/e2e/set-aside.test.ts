// A data folder with an endpoint, a rule and a subscription that no longer parse, opened in the app
// (`hookloop serve`, real Chromium): the app starts, a banner names each row set aside (table, id,
// field) and says how to repair it, and the rows that parse are listed as usual.
import { afterEach, describe, expect, it } from 'vitest'
import { fillFolderWithBadRows } from '../support/bad-rows'
import { makeTempDir } from '../support/temp-dir'
import { openBrowser } from './support/browser'
import { startServe } from './support/serve'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.()
})

describe('rows set aside', () => {
  it('the app starts on the rest and a banner names each row and the command that repairs it', async () => {
    const temp = makeTempDir('hookloop-set-aside-')
    cleanups.push(temp.cleanup)
    const { badSubscriptionId, badEndpointId, badRuleId } = await fillFolderWithBadRows(temp.dir)
    const served = await startServe([], { dataDir: temp.dir })
    cleanups.push(() => served.stop())
    const browser = await openBrowser()
    cleanups.push(() => browser.close())
    await browser.page.goto(served.url)

    const banners = browser.page.getByTestId('warning')
    await banners.first().waitFor()
    const texts = await banners.allTextContents()
    expect(texts).toHaveLength(4)
    expect(texts.find((t) => t.includes(`subscriptions row ${badSubscriptionId} ("invoices"): policy_json is not a retry policy`))).toContain('hookloop doctor --repair')
    expect(texts.some((t) => t.includes(`endpoints row ${badEndpointId} ("broken"): config_json`))).toBe(true)
    expect(texts.some((t) => t.includes(`rules row ${badRuleId} ("/h/shop"): definition_json`))).toBe(true)

    await browser.page.getByTestId('nav-subscriptions').click()
    await browser.page.getByText('orders', { exact: true }).first().waitFor()
    expect(await browser.page.getByText('invoices', { exact: true }).count()).toBe(0)
  })
})
