// What the screen shows is what it names, and nothing covers what a person needs: links land on
// rows, toasts leave every control clickable, badges are whole, a report speaks for its own file,
// every schedule label is drawn. Real `hookloop serve`, real Chromium; each test leaves a screenshot.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createEndpoint, createSubscription, ORDERS, rowSelector, screenshot, sendThroughLoop } from './support/app'
import { browserSession } from './support/session'

const session = browserSession()
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

type Box = { x: number; y: number; width: number; height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect()
      return { x: r.x, y: r.y, width: r.width, height: r.height }
    }),
  )
}

async function rowCount(page: Page): Promise<string> {
  return page.locator('[data-testid=row-count]').innerText()
}

describe('the screen shows what it names', () => {
  it('"Show on timeline" and "Watch on timeline" each land on their rows, whatever filter was set before', async () => {
    const { receiverUrl } = await session.fresh()
    const page = session.page
    await sendThroughLoop(page, ORDERS(SECRET))
    await page.locator(rowSelector('[data-attempts]')).first().waitFor()
    // A real request into a second endpoint: a received row of its own.
    await createEndpoint(page, { name: 'inbox', scheme: '' })
    const response = await fetch(`${receiverUrl}/h/inbox`, { method: 'POST', body: '{"type":"ping"}', headers: { 'content-type': 'application/json' } })
    await response.arrayBuffer()
    await page.click('[data-testid=nav-timeline]')
    // Filters that hide both, as a person might have left them.
    await page.selectOption('select[aria-label="subscription filter"]', { index: 1 })
    await page.click('[data-testid=filter-failed]')
    await page.waitForSelector('text=Nothing matches these filters')

    // Endpoints → Show on timeline: only the endpoint's filter, so its row shows.
    await page.click('[data-testid=nav-endpoints]')
    await page.click('[data-testid=endpoint-card][data-endpoint=inbox] button:has-text("Show on timeline")')
    await page.locator(rowSelector('[data-status=received]')).first().waitFor()
    expect(await rowCount(page)).toBe('1 row')
    expect(await page.locator('[data-testid=filter-failed].on').count()).toBe(0)
    expect(await page.locator('select[aria-label="subscription filter"]').inputValue()).toBe('')

    // Sender → Watch on timeline right after: the subscription's filter alone (the endpoint's left over gave 0 rows).
    await page.click('[data-testid=nav-sender]')
    await page.click('button:has-text("Watch on timeline")')
    await page.locator(rowSelector('[data-status=succeeded], [data-testid=timeline-row][data-status=retrying]')).first().waitFor()
    expect(await rowCount(page)).toBe('1 row')
    expect(await page.locator('select[aria-label="endpoint filter"]').inputValue()).toBe('')
    await screenshot(page, 'watch-on-timeline')
  })

  it('a toast never covers a rule\'s Edit / ↑ / ↓ / ✕ buttons', async () => {
    await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'orders', scheme: 'standard-webhooks' })
    for (const preset of ['always-500', 'always-410', 'fail-first']) {
      await page.click(`[data-testid=preset-${preset}]`)
      await page.waitForSelector(`[data-testid=rule] >> nth=${['always-500', 'always-410', 'fail-first'].indexOf(preset)}`)
    }
    await page.click('[data-testid=preset-always-500]')
    await page.waitForSelector('[data-testid=rule] >> nth=3')
    await page.waitForSelector('[data-testid=toast]')
    // The last rule at the very bottom of the page, where a floating toast would sit.
    await page.locator('[data-testid=rule]').last().evaluate((el) => el.scrollIntoView({ block: 'end' }))
    const toastBoxes = await boxes(page, '[data-testid=toast]')
    expect(toastBoxes.length).toBeGreaterThan(0)
    const buttons = page.locator('[data-testid=rule] button')
    const n = await buttons.count()
    expect(n).toBeGreaterThanOrEqual(16)
    for (let i = 0; i < n; i++) {
      const button = buttons.nth(i)
      const box = await button.boundingBox()
      if (!box) continue
      for (const t of toastBoxes) expect(overlap(box, t), `rule button ${i} under a toast`).toBe(false)
      // And what a click there would reach is the button itself.
      const reached = await button.evaluate((el) => {
        const r = el.getBoundingClientRect()
        const hit = el.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
        // A button below the fold is not covered, only out of view.
        return r.bottom > (el.ownerDocument.defaultView?.innerHeight ?? 0) || (hit !== null && (el === hit || el.contains(hit)))
      })
      expect(reached, `rule button ${i} reachable`).toBe(true)
    }
    await screenshot(page, 'toast-beside-rules')
  })

  it('with the inspector open, a row\'s badges stay whole inside the row, and marks milliseconds apart are one counted mark, not one over the other', async () => {
    const { receiverUrl } = await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'signed', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_badges_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' }
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${receiverUrl}/h/signed`, { method: 'POST', body: '{"type":"order.paid"}', headers })
      await response.arrayBuffer()
    }
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-attempts="2"]'))
    await row.waitFor()
    await row.locator('[data-signature=invalid]').waitFor()
    await row.click()
    await page.waitForSelector('[data-testid=inspector]')
    const meta = (await row.locator('.tl-meta').boundingBox()) as Box
    const rowBox = (await row.boundingBox()) as Box
    const badges = await boxes(page, `${rowSelector('[data-attempts="2"]')} .tl-meta .badge`)
    expect(badges.length).toBeGreaterThanOrEqual(3) // status, signature, duplicates
    for (const b of badges) {
      expect(b.x + b.width).toBeLessThanOrEqual(meta.x + meta.width)
      expect(b.x).toBeGreaterThanOrEqual(rowBox.x)
      expect(b.y).toBeGreaterThanOrEqual(rowBox.y)
      expect(b.y + b.height).toBeLessThanOrEqual(rowBox.y + rowBox.height)
    }
    await screenshot(page, 'inspector-open-badges')
    // Its two arrivals came milliseconds apart: zoomed out, they are one mark with their count
    // ("×2") rather than one over the other, whole inside the row.
    for (let i = 0; i < 8; i++) await page.click('button[title="Zoom out (−)"]')
    const marks = await boxes(page, `${rowSelector('[data-attempts="2"]')} .mark[data-tone]`)
    expect(marks).toHaveLength(1)
    expect(await row.locator('.mark[data-tone][data-count="2"]').innerText()).toMatch(/×2$/)
    for (const m of marks) expect(m.y + m.height).toBeLessThanOrEqual(rowBox.y + rowBox.height)
    await screenshot(page, 'marks-stacked-zoomed-out')
  })

  it('zoomed out past a day, the axis names the days instead of reading 00:00:00 on every tick', async () => {
    const { receiverUrl } = await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'inbox', scheme: '' })
    const response = await fetch(`${receiverUrl}/h/inbox`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    await response.arrayBuffer()
    await page.click('[data-testid=nav-timeline]')
    await page.locator(rowSelector('')).first().waitFor()
    for (let i = 0; i < 50; i++) await page.click('button[title="Zoom out (−)"]')
    const ticks = await page.locator('.tl-head .tl-axis .tick').allInnerTexts()
    expect(ticks.length).toBeGreaterThanOrEqual(2)
    expect(new Set(ticks).size).toBe(ticks.length)
    expect(ticks.some((t) => /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d+/.test(t))).toBe(true)
    await screenshot(page, 'axis-days')
  })

  it('the Sender\'s schedule chart labels every attempt, none over another', async () => {
    await session.fresh()
    const page = session.page
    await createEndpoint(page, { name: 'orders', scheme: 'standard-webhooks' })
    await createSubscription(page, { name: 'orders feed', policy: 'pandoktorek' })
    await page.click('[data-testid=nav-sender]')
    const chart = page.locator('[data-testid=schedule-chart]')
    await chart.waitFor()
    const texts = await chart.locator('text').allTextContents()
    expect(texts.filter((t) => /^#\d+$/.test(t))).toEqual(Array.from({ length: 10 }, (_, i) => `#${i + 1}`))
    expect(texts.filter((t) => t === '0' || t.startsWith('+')).slice(0, 3)).toEqual(['0', '+2 min', '+6 min'])
    const labels = await boxes(page, '[data-testid=schedule-chart] text')
    for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) expect(overlap(labels[i]!, labels[j]!), `chart labels ${texts[i]} and ${texts[j]}`).toBe(false)
    await chart.screenshot({ path: 'test-results/e2e/schedule-chart.png' })
  })

  it('the scenario editor drops the last run\'s report once the file changes', async () => {
    await session.fresh()
    const page = session.page
    await page.click('[data-testid=nav-scenarios]')
    const text = readFileSync('examples/provider-a-fail-first-3.json', 'utf8')
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=scenario-open]')])
    await chooser.setFiles({ name: 'fail-first-3.json', mimeType: 'application/json', buffer: Buffer.from(text) })
    await page.waitForSelector('[data-testid=scenario-valid]')
    await page.click('[data-testid=scenario-run]')
    const card = page.locator('[data-testid=scenario-run-card][data-state=done]')
    await card.waitFor({ timeout: 30_000 })
    expect(await card.getAttribute('data-ok')).toBe('true')
    // A view switch and back keeps the report: the file is the one that ran.
    await page.click('[data-testid=nav-timeline]')
    await page.click('[data-testid=nav-scenarios]')
    await card.waitFor()

    await page.locator('[data-testid=scenario-text]').fill(text.replace('"attempts": 4', '"attemps": 4'))
    await page.waitForSelector('[data-testid=scenario-problems]')
    expect(await page.locator('[data-testid=scenario-run-card]').count()).toBe(0)
    await page.waitForSelector('[data-testid=scenario-report-stale]')
    await screenshot(page, 'scenario-stale-report-cleared')
  })
})
