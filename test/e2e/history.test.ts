// History in real headless Chromium against `hookloop serve`: the store's size in the top bar
// follows real captures, Clear history for one endpoint and then for all empties the timeline
// and the size, and the retention settings are saved (and read back by the engine).
import { describe, expect, it } from 'vitest'
import { createEndpoint, rowSelector, screenshot } from './support/app'
import { postJson } from './support/post'
import { browserSession } from './support/session'

const session = browserSession()

// The event id header is the endpoints' dedupe key: it names each row in the timeline.
const post = (url: string, body: string): Promise<number> => postJson(url, body, { 'x-event': (JSON.parse(body) as { event_id: string }).event_id })

describe('history in the browser', () => {
  it('shows the store size, clears one endpoint then everything, and saves the retention', async () => {
    const served = await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'alpha', scheme: '', dedupeHeader: 'x-event' })
    await createEndpoint(page, { name: 'beta', scheme: '', dedupeHeader: 'x-event' })
    const pad = 'x'.repeat(100_000)
    for (let i = 0; i < 3; i++) expect(await post(`${served.receiverUrl}/h/alpha`, JSON.stringify({ event_id: `a-${i}`, event_type: 'alpha.sent', pad }))).toBe(200)
    for (let i = 0; i < 2; i++) expect(await post(`${served.receiverUrl}/h/beta`, JSON.stringify({ event_id: `b-${i}`, event_type: 'beta.sent', pad }))).toBe(200)
    await page.click('[data-testid=nav-timeline]')
    await page.locator(rowSelector('[data-event-id=b-1]')).waitFor()

    // The top bar shows the store's size; it follows the five captures (~500 kB of bodies).
    const size = page.locator('[data-testid=store-size][data-requests="5"]')
    await size.waitFor()
    expect(Number(await size.getAttribute('data-bytes'))).toBeGreaterThan(500_000)
    expect(await size.innerText()).toMatch(/^\d+(\.\d)? (kB|MB) · 5 requests$/)

    await size.click()
    await page.waitForSelector('[data-testid=history-panel]')
    expect(await page.locator('[data-testid=store-detail]').innerText()).toContain('5 captured requests')
    await screenshot(page, 'history-panel')

    // Clear beta's history: its rows leave the timeline, alpha's stay.
    const beta = await page.locator('[data-testid=clear-target] option', { hasText: 'beta' }).getAttribute('value')
    await page.selectOption('[data-testid=clear-target]', beta!)
    await page.click('[data-testid=clear-history]')
    await page.click('[data-testid=clear-confirm]')
    await page.locator('[data-testid=store-size][data-requests="3"]').waitFor()
    await page.locator(rowSelector('[data-event-id=b-1]')).waitFor({ state: 'detached' })
    expect(await page.locator(rowSelector('[data-event-id=a-2]')).count()).toBe(1)

    // Then everything.
    await page.selectOption('[data-testid=clear-target]', '')
    await page.click('[data-testid=clear-history]')
    await page.click('[data-testid=clear-confirm]')
    await page.locator('[data-testid=store-size][data-requests="0"]').waitFor()
    await page.locator(rowSelector('[data-event-id=a-2]')).waitFor({ state: 'detached' })
    await screenshot(page, 'history-cleared')

    // Capture goes on after a clear.
    expect(await post(`${served.receiverUrl}/h/alpha`, JSON.stringify({ event_id: 'a-after', event_type: 'alpha.sent' }))).toBe(200)
    await page.locator(rowSelector('[data-event-id=a-after]')).waitFor()

    // Retention: a bad value is named, a good one is saved and read back.
    await page.fill('[data-testid=retention-days]', '0')
    await page.waitForSelector('text=Days: from 1 to 3650')
    expect(await page.locator('[data-testid=retention-save]').isDisabled()).toBe(true)
    await page.fill('[data-testid=retention-days]', '7')
    await page.fill('[data-testid=retention-mb]', '')
    await page.click('[data-testid=retention-save]')
    await page.waitForSelector('text=Keeping 7 days, no size limit')
    // Closed and opened again, the panel shows what the engine now holds.
    await page.locator('[data-testid=history-panel]').waitFor()
    await page.click('[data-testid=store-size]')
    await page.locator('[data-testid=history-panel]').waitFor({ state: 'detached' })
    await page.click('[data-testid=store-size]')
    expect(await page.inputValue('[data-testid=retention-days]')).toBe('7')
    expect(await page.inputValue('[data-testid=retention-mb]')).toBe('')
  })
})
