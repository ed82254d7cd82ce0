// bench:scale in the real UI (the built app in headless Chromium): time to the first painted
// timeline, and how long a request takes from being sent to the receiver to its row painted.
import type { Browser, Page } from 'playwright-core'
import { request } from 'undici'

/** Opens the app; ms from navigation to the frame after the first timeline rows are in the DOM. */
export async function firstPaint(browser: Browser, url: string): Promise<{ ms: number; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await context.newPage()
  const t0 = Date.now()
  await page.goto(url)
  await page.waitForSelector('[data-testid=timeline-row]', { timeout: 300_000 })
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
  return { ms: Date.now() - t0, page }
}

/**
 * Marks in the page, for every row whose event id starts with `prefix`, the first animation frame
 * in which it is in the DOM (a MutationObserver, then requestAnimationFrame), as epoch ms on the
 * page's clock: performance.timeOrigin + performance.now().
 */
const WATCH_SCRIPT = (prefix: string) => `(() => {
  const painted = (window.__painted = window.__painted || {})
  const seen = () => {
    for (const row of document.querySelectorAll('[data-testid=timeline-row][data-event-id^="${prefix}"]')) {
      const id = row.getAttribute('data-event-id')
      if (id in painted) continue
      painted[id] = null
      requestAnimationFrame(() => { painted[id] = performance.timeOrigin + performance.now() })
    }
  }
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-event-id'] })
})()`

/**
 * How far the page's clock (performance.timeOrigin + now()) is ahead of this process's: read in the
 * middle of a round trip, the best of several (the shortest round trip bounds the error).
 */
async function pageClockOffset(page: Page): Promise<{ offsetMs: number; errorMs: number }> {
  let best = { offsetMs: 0, errorMs: Number.POSITIVE_INFINITY }
  for (let i = 0; i < 20; i++) {
    const before = performance.timeOrigin + performance.now()
    const inPage = (await page.evaluate('performance.timeOrigin + performance.now()')) as number
    const after = performance.timeOrigin + performance.now()
    if ((after - before) / 2 < best.errorMs) best = { offsetMs: inPage - (before + after) / 2, errorMs: (after - before) / 2 }
  }
  return best
}

/**
 * Sends `probes` requests (one at a time, each after the last one's row was painted) to `target`,
 * a JSON body whose `id` is the endpoint's dedupe key, so the row's event id is known before it
 * exists; returns, per probe, ms from just before the send to the frame that painted its row,
 * with the page's time brought onto this process's clock.
 */
export async function arrivalToPaint(page: Page, target: string, probes: number, tag: string): Promise<{ samples: number[]; clockErrorMs: number }> {
  const prefix = `evt_probe_${tag}_`
  await page.evaluate(WATCH_SCRIPT(prefix))
  const clock = await pageClockOffset(page)
  const samples: number[] = []
  for (let i = 0; i < probes; i++) {
    const eventId = `${prefix}${i}`
    const sentAt = performance.timeOrigin + performance.now()
    const res = await request(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: eventId, type: 'latency.probe', data: { object: {} } }) })
    await res.body.dump()
    if (res.statusCode >= 300) throw new Error(`probe ${eventId}: the receiver answered ${res.statusCode}`)
    const handle = await page.waitForFunction((id) => (globalThis as unknown as { __painted: Record<string, number | null> }).__painted[id] ?? undefined, eventId, { timeout: 30_000, polling: 5 })
    const paintedAt = (await handle.jsonValue()) as number
    samples.push(paintedAt - clock.offsetMs - sentAt)
    // A beat between probes, as traffic arrives, so each is measured on its own.
    await page.waitForTimeout(20)
  }
  return { samples, clockErrorMs: clock.errorMs }
}
