// Marks on the right rows: a broken scenario run's ✗ is on the run's own delivery, never on a
// timeline row that shares its event id (the session it was recorded from, a live request); and
// four fast requests on one row can be counted at a zoom where they fall on one spot. Real
// `hookloop serve`, real requests to its receiver, real Chromium.
import { describe, expect, it } from 'vitest'
import { recordFailFirstLoop, rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'
import { screenRows } from './support/journey'

const session = browserSession()

describe('marks on the right rows', () => {
  it('a broken run marks its own delivery ✗ and no timeline row that shares the event id', async () => {
    const { receiverUrl, page } = await session.fresh()
    const eventId = await recordFailFirstLoop(page)
    await page.click('[data-testid=record-stop]')
    await page.waitForSelector('[data-testid=scenario-valid]')
    // Break it: the recorded delivery succeeded, the file now expects it to fail.
    const text = await page.locator('[data-testid=scenario-text]').inputValue()
    expect(text).toContain('"status": "succeeded"')
    await page.locator('[data-testid=scenario-text]').fill(text.replace('"status": "succeeded"', '"status": "failed"'))
    await page.waitForSelector('[data-testid=scenario-valid]')

    // A live request elsewhere under the same event id: a row of its own, on the wall clock.
    const live = await fetch(`${receiverUrl}/h/bookings`, { method: 'POST', body: '{"type":"booking.created"}', headers: { 'content-type': 'application/json', 'webhook-id': eventId } })
    await live.arrayBuffer()

    await page.click('[data-testid=scenario-run]')
    const card = page.locator('[data-testid=scenario-run-card][data-state=done]')
    await card.waitFor()
    expect(await card.getAttribute('data-ok')).toBe('false')
    // The run's own delivery carries the ✗.
    const own = card.locator(`[data-testid=run-delivery][data-event-id="${eventId}"] [data-testid=row-verdict][data-ok=false]`)
    await own.waitFor()
    await own.scrollIntoViewIfNeeded()
    await screenshot(page, 'row-marks-run-broken')

    // On the timeline, every row with that event id (the recorded session's, the live one) carries no verdict.
    await page.click('[data-testid=nav-timeline]')
    await page.selectOption('[data-testid=clock-select]', '')
    await page.locator(rowSelector(`[data-event-id="${eventId}"][data-clock=wall]`)).waitFor()
    const sharing = page.locator(rowSelector(`[data-event-id="${eventId}"]`))
    expect(await sharing.count()).toBeGreaterThanOrEqual(2)
    expect(await page.locator('[data-testid=timeline] [data-testid=row-verdict]').count()).toBe(0)
    await screenshot(page, 'row-marks-timeline-no-verdict')
  })

  it('four fast requests on one row read as a count where they fall on one spot', async () => {
    const { receiverUrl, page } = await session.fresh()
    await page.click('[data-testid=try-the-loop]')
    await page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]')).waitFor({ timeout: 20_000 })
    // A client retrying at once: 503, 503, 503 (the endpoint fails the first three), then 200.
    for (let i = 0; i < 4; i++) {
      const answer = await fetch(`${receiverUrl}/h/try-the-loop`, { method: 'POST', body: '{"type":"ping"}', headers: { 'content-type': 'application/json', 'x-pandoktorek-event-id': 'evt-fast' } })
      expect(answer.status).toBe(i < 3 ? 503 : 200)
      await answer.arrayBuffer()
    }
    await page.selectOption('[data-testid=clock-select]', 'wall')
    const row = page.locator(rowSelector('[data-event-id="evt-fast"][data-attempts="4"]'))
    await row.waitFor()
    // Zoomed out until the four requests (within a second) share a few pixels.
    for (let i = 0; i < 10; i++) await page.click('button[title="Zoom out (−)"]')
    const counted = row.locator('.mark[data-count="3"]')
    await counted.waitFor()
    expect(await counted.innerText()).toMatch(/^(503 )?×3$/)
    expect(await counted.getAttribute('title')).toMatch(/^3 requests, too close to tell apart at this zoom \(click again for the next\):\n#1 503 at .*\n#2 503 at .*\n#3 503 at /)
    // Every request is counted on the row, none hidden behind another.
    const shown = (await screenRows(page)).find((r) => r.eventId === 'evt-fast')
    expect(shown?.marks).toEqual(['503', '503', '503', '200'])
    expect(await row.locator('.mark[data-hides]').count()).toBe(0)
    await screenshot(page, 'row-marks-fast-retries')
  })
})
