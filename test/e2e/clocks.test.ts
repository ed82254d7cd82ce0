// The screen says which clock the rows are on, and never lays a simulation's rows on the wall
// clock's axis: Try the loop shows its simulation on an axis of time since it started, an attempt
// shows its simulated moment and its wall time, and a real request beside it is grouped apart.
// Real `hookloop serve` and Chromium; the engine fills RowClock and Snapshot.simulations.
import { describe, expect, it } from 'vitest'
import { rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'

const session = browserSession()

describe('clocks on the timeline', () => {
  it('Try the loop reads on its own clock; a real request beside it stays on the wall clock, grouped apart', async () => {
    const { receiverUrl } = await session.fresh()
    const page = session.page
    await page.waitForSelector('[data-testid=first-run]')
    await page.click('[data-testid=try-the-loop]')
    const loop = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
    await loop.waitFor({ timeout: 20_000 })
    const simulation = await loop.getAttribute('data-clock')
    expect(simulation).not.toBe('wall')

    // After Try the loop the timeline reads on that simulation, on time since it started (no clock
    // is picked for the person: what arrives on another clock later shows beside it).
    await page.waitForSelector(`[data-testid=timeline-clock][data-clock="${simulation}"]`)
    expect(await page.locator('[data-testid=clock-select]').inputValue()).toBe('')
    expect(await page.locator('[data-testid=timeline-clock]').innerText()).toMatch(/^Try the loop · virtual clock · started \d\d:\d\d$/)
    const ticks = await page.locator('[data-testid=timeline-axis] [data-testid=axis-tick]').allInnerTexts()
    expect(ticks[0]).toBe('+0 s')
    for (const t of ticks) expect(t).toMatch(/^\+/)
    // The top bar says the clock mode is the simulations' only.
    await page.waitForSelector('[data-testid=clock-mode-scope]:has-text("simulations only")')

    // An attempt shows both times: its moment in the simulation and when it was sent on the wall clock.
    await loop.locator('.mark[data-tone] >> nth=2').click()
    const started = page.locator('[data-testid=attempt-started]')
    await started.waitFor()
    expect(await started.innerText()).toMatch(/^\+6 m 00 s simulated · sent \d\d:\d\d:\d\d wall$/)
    // No simulated time passes during a request on the virtual clock: no "0 ms" as if measured.
    expect(await page.locator('[data-testid=attempt-duration]').innerText()).not.toBe('0 ms')
    await screenshot(page, 'clock-loop-simulation')

    // A real request into the loop's endpoint: recorded on the wall clock, a row of its own, on
    // screen beside the loop's with no click.
    const response = await fetch(`${receiverUrl}/h/try-the-loop`, { method: 'POST', body: '{"type":"ping"}', headers: { 'content-type': 'application/json' } })
    await response.arrayBuffer()
    const groups = page.locator('[data-testid=clock-group]')
    await page.waitForSelector('[data-testid=clock-group] >> nth=1')
    expect(await groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-clock')))).toEqual(['wall', simulation])
    expect(await groups.first().innerText()).toContain('Live traffic · wall clock')
    await screenshot(page, 'clock-grouped')

    // Live traffic alone: only wall-clock rows, the axis in wall time.
    await page.selectOption('[data-testid=clock-select]', 'wall')
    await page.waitForSelector('[data-testid=timeline-clock][data-clock=wall]')
    await page.locator(rowSelector('[data-clock=wall]')).first().waitFor()
    expect(await page.locator(rowSelector(`[data-clock="${simulation}"]`)).count()).toBe(0)
    for (const t of await page.locator('[data-testid=timeline-axis] [data-testid=axis-tick]').allInnerTexts()) expect(t).toMatch(/\d\d:\d\d/)
  })
})
