// Live traffic is never hidden: after Try the loop, a real request shows on the timeline with no
// reload and no click; while a simulation's clock, a search or a zoomed window (Live off) hides
// them, requests that arrive are counted in a notice that says where they are and shows them in
// one click; scrolled down the list, rows that arrive above leave the row being read in place and
// are counted in a pill that goes up to them. Real `hookloop serve`, real HTTP requests to its
// receiver, real Chromium.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { createEndpoint, rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'

const session = browserSession()

/** A request from outside into an endpoint (the loop's unless named), as curl would send it, under its own event id. */
async function post(receiverUrl: string, eventId: string, slug = 'try-the-loop'): Promise<void> {
  const response = await fetch(`${receiverUrl}/h/${slug}`, { method: 'POST', body: JSON.stringify({ type: 'ping', id: eventId }), headers: { 'content-type': 'application/json', 'x-pandoktorek-event-id': eventId } })
  await response.arrayBuffer()
}

describe('live arrivals on the timeline', () => {
  it('after Try the loop real traffic shows beside it; under a picked simulation or a search, a notice counts what arrived and one click shows it', async () => {
    const { receiverUrl, page } = await session.fresh()
    await page.click('[data-testid=try-the-loop]')
    const loop = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
    await loop.waitFor({ timeout: 20_000 })
    const simulation = (await loop.getAttribute('data-clock'))!
    expect(simulation).not.toBe('wall')
    // The loop reads on its own clock, but no clock was picked for the person: every clock shows.
    await page.waitForSelector(`[data-testid=timeline-clock][data-clock="${simulation}"]`)
    expect(await page.locator('[data-testid=clock-select]').inputValue()).toBe('')

    // A real request after the simulation: on screen at once, in a group of its own on the wall clock.
    await post(receiverUrl, 'live-first')
    await page.locator(rowSelector('[data-event-id="live-first"][data-clock=wall]')).waitFor()
    expect(await page.locator('[data-testid=clock-group]').evaluateAll((els) => els.map((e) => e.getAttribute('data-clock')))).toEqual(['wall', simulation])
    expect(await page.locator('[data-testid=hidden-arrivals]').count()).toBe(0)
    await screenshot(page, 'live-after-loop-grouped')

    // The person picks the loop's clock; three requests arrive meanwhile: hidden, and counted.
    await page.selectOption('[data-testid=clock-select]', simulation)
    await page.waitForSelector(`[data-testid=timeline-clock][data-clock="${simulation}"]`)
    for (const id of ['live-2', 'live-3', 'live-4']) await post(receiverUrl, id)
    const notice = page.locator('[data-testid=hidden-arrivals][data-count="3"]')
    await notice.waitFor()
    expect(await notice.innerText()).toMatch(/^3 rows with new activity on Live traffic · wall clock, hidden by the clock picked\.\s*Show them$/)
    expect(await page.locator(rowSelector('[data-clock=wall]')).count()).toBe(0)
    await screenshot(page, 'live-hidden-by-clock')

    // One click: the live clock, the three rows there, the latest one open in the inspector.
    await page.click('[data-testid=hidden-arrivals-show]')
    await page.waitForSelector('[data-testid=timeline-clock][data-clock=wall]')
    expect(await page.locator('[data-testid=clock-select]').inputValue()).toBe('wall')
    for (const id of ['live-2', 'live-3', 'live-4']) await page.locator(rowSelector(`[data-event-id="${id}"]`)).waitFor()
    await page.locator(`${rowSelector('[data-event-id="live-4"]')}.selected`).waitFor()
    expect(await page.locator('[data-testid=hidden-arrivals]').count()).toBe(0)
    await screenshot(page, 'live-shown')

    // A search hides what arrives too: the notice names it, and the click lets the search go.
    await page.fill('#search', 'live-2')
    await page.locator(rowSelector('[data-event-id="live-3"]')).waitFor({ state: 'detached' })
    await post(receiverUrl, 'live-5')
    await page.locator('[data-testid=hidden-arrivals][data-count="1"]').waitFor()
    expect(await page.locator('[data-testid=hidden-arrivals]').innerText()).toMatch(/^1 row with new activity on Live traffic · wall clock, hidden by the search\.\s*Show it$/)
    await page.click('[data-testid=hidden-arrivals-show]')
    await page.locator(`${rowSelector('[data-event-id="live-5"]')}.selected`).waitFor()
    expect(await page.locator('#search').inputValue()).toBe('')
    expect(await page.locator('[data-testid=hidden-arrivals]').count()).toBe(0)

    // Zoomed in (Live off), a request after the window shown: its row is there, its mark is not.
    await page.click('button[title="Zoom in (+)"]')
    await page.locator('[data-testid=live-toggle]:not(.on)').waitFor()
    await post(receiverUrl, 'live-6')
    await page.locator('[data-testid=hidden-arrivals][data-count="1"]').waitFor()
    expect(await page.locator('[data-testid=hidden-arrivals]').innerText()).toMatch(/^1 row with new activity on Live traffic · wall clock, hidden by the time window shown \(Live is off\)\.\s*Show it$/)
    await screenshot(page, 'live-hidden-by-window')
    await page.click('[data-testid=hidden-arrivals-show]')
    await page.locator('[data-testid=live-toggle].on').waitFor()
    await page.locator(`${rowSelector('[data-event-id="live-6"]')}.selected .mark[data-tone]`).waitFor()
    expect(await page.locator('[data-testid=hidden-arrivals]').count()).toBe(0)
  })

  it('scrolled down the list, rows that arrive above keep the row being read in place, a pill counts them and one click goes up to the newest', async () => {
    const { receiverUrl, page } = await session.fresh()
    await createEndpoint(page, { name: 'feed', scheme: '' })
    await page.click('[data-testid=nav-timeline]')
    const ids = Array.from({ length: 40 }, (_, i) => `feed-${String(i + 1).padStart(2, '0')}`)
    for (const id of ids) await post(receiverUrl, id, 'feed')
    await page.locator('[data-testid=row-count][data-count="40"]').waitFor()
    const viewport = page.locator(VIEWPORT)
    expect(await viewport.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)

    // At the top, a row that arrives is in view: no pill.
    await post(receiverUrl, 'feed-41', 'feed')
    await page.locator(rowSelector('[data-event-id="feed-41"]')).waitFor()
    expect(await rowTop(page, 'feed-41')).toBe(await viewportTop(page))
    expect(await page.locator('[data-testid=new-rows-above]').count()).toBe(0)

    // The person scrolls ten rows down and reads feed-31, the row at the top of the view.
    await wheel(page, 400, 400)
    const reading = await rowTop(page, 'feed-31')
    expect(reading).toBe(await viewportTop(page))

    // Three requests arrive: their rows go above, out of view; the row being read does not move.
    for (const id of ['feed-42', 'feed-43', 'feed-44']) await post(receiverUrl, id, 'feed')
    const pill = page.locator('[data-testid=new-rows-above][data-count="3"]')
    await pill.waitFor()
    expect(await pill.innerText()).toBe('↑ 3 new rows')
    expect(await page.locator('[data-testid=row-count]').getAttribute('data-count')).toBe('44')
    expect(await rowTop(page, 'feed-31')).toBe(reading)
    await screenshot(page, 'live-new-rows-above')

    // One click: up to the top, the newest row first in view, and the pill gone.
    await pill.click()
    await page.locator('[data-testid=new-rows-above]').waitFor({ state: 'detached' })
    expect(await viewport.evaluate((el) => el.scrollTop)).toBe(0)
    expect(await rowTop(page, 'feed-44')).toBe(await viewportTop(page))

    // Scrolled down again, one more arrives (one row, said so); scrolling back up by hand clears it.
    await wheel(page, 600, 600)
    await post(receiverUrl, 'feed-45', 'feed')
    await page.locator('[data-testid=new-rows-above][data-count="1"]').waitFor()
    expect(await page.locator('[data-testid=new-rows-above]').innerText()).toBe('↑ 1 new row')
    await wheel(page, -2000, 0)
    await page.locator('[data-testid=new-rows-above]').waitFor({ state: 'detached' })
    expect(await rowTop(page, 'feed-45')).toBe(await viewportTop(page))

    // The table is the same list: scrolled down, an arrival above is counted there too.
    await page.click('[data-testid=table-toggle]')
    await wheel(page, 400, 400, TABLE_VIEWPORT)
    const tableTop = (await page.locator(TABLE_VIEWPORT).boundingBox())!.y
    const tableRowTop = async (eventId: string) => (await page.locator(`[data-testid=table-row][data-event-id="${eventId}"]`).boundingBox())!.y
    expect(await tableRowTop('feed-35')).toBe(tableTop)
    await post(receiverUrl, 'feed-46', 'feed')
    const tablePill = page.locator('[data-testid=new-rows-above][data-count="1"]')
    await tablePill.waitFor()
    expect(await tableRowTop('feed-35')).toBe(tableTop)
    await screenshot(page, 'live-new-rows-above-table')
    await tablePill.click()
    await page.locator('[data-testid=new-rows-above]').waitFor({ state: 'detached' })
    expect(await tableRowTop('feed-46')).toBe(tableTop)
  })
})

const VIEWPORT = '[data-testid=timeline-viewport]'
const TABLE_VIEWPORT = '[data-testid=table-viewport]'

/** The person turns the mouse wheel over a list by `deltaY`; resolves once it has scrolled to `top` px. */
async function wheel(page: Page, deltaY: number, top: number, viewport = VIEWPORT): Promise<void> {
  await page.locator(viewport).hover()
  await page.mouse.wheel(0, deltaY)
  // The page's own scroll events say when it got there (the app's policy allows no evaluated strings).
  await page.locator(viewport).evaluate(
    (el, at) =>
      new Promise<void>((done) => {
        const check = () => {
          if (el.scrollTop !== at) return
          el.removeEventListener('scroll', check)
          done()
        }
        el.addEventListener('scroll', check)
        check()
      }),
    top,
  )
}

/** Where a row's box starts on the page (px). */
async function rowTop(page: Page, eventId: string): Promise<number> {
  return (await page.locator(rowSelector(`[data-event-id="${eventId}"]`)).boundingBox())!.y
}

async function viewportTop(page: Page): Promise<number> {
  return (await page.locator(VIEWPORT).boundingBox())!.y
}
