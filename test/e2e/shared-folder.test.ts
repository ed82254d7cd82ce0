// `hookloop listen --data D` and `hookloop serve --data D` running at once, the app open in real
// Chromium: the endpoint listen defines appears in the app without a reload, the requests listen
// captures render on the timeline, and "Show on timeline" on that endpoint shows them (before, the
// app's lists never learnt of the endpoint and its requests only showed after a restart).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startListen } from '../support/listen-cli'
import { rowSelector, screenshot } from './support/app'
import { postJson } from './support/post'
import { browserSession } from './support/session'

const session = browserSession()

const post = (url: string, id: string): Promise<number> => postJson(url, JSON.stringify({ id }), { 'webhook-id': id })

describe('listen and the app on one data folder', () => {
  it("listen's endpoint and captures show in the open app, and Show on timeline lands on them", async () => {
    const served = await session.fresh()
    const page = session.page
    const config = join(served.dataDir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'shop', name: 'shop', dedupe: 'standard-webhooks' }] }))
    const listen = await startListen(['--config', config, '--data', served.dataDir])
    try {
      const url = `http://127.0.0.1:${listen.port}/h/shop`
      expect([await post(url, 'evt_shop_a'), await post(url, 'evt_shop_b'), await post(url, 'evt_shop_a')]).toEqual([200, 200, 200])

      await page.click('[data-testid=nav-timeline]')
      await page.locator(rowSelector('[data-event-id=evt_shop_a][data-attempts="2"]')).waitFor()
      await page.locator(rowSelector('[data-event-id=evt_shop_b]')).waitFor()

      await page.click('[data-testid=nav-endpoints]')
      const card = page.locator('[data-testid=endpoint-card][data-endpoint=shop]')
      await card.waitFor()
      await card.locator('button:text-is("Show on timeline")').click()
      await page.locator(rowSelector('[data-event-id=evt_shop_a]')).waitFor()
      await page.locator(rowSelector('[data-event-id=evt_shop_b]')).waitFor()
      expect(await page.locator('text=Nothing matches these filters').count()).toBe(0)
      expect(await page.locator('[data-testid=timeline-row]').count()).toBe(2)
      await screenshot(page, 'listen-captures-in-the-app')
    } finally {
      listen.kill()
      await listen.exited
    }
  })
})
