// A scenario run into a data folder, then the app opened on that folder, in real headless
// Chromium against `hookloop serve`. The run is stamped on its virtual clock (January 2026, months
// before now): the folder's retention, which every start applies, keeps it (ages are wall ages of
// when a row was stored), and the inspector marks the run's times as simulated, with the wall
// time beside them, never as a date (docs/time.md).
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startApp } from '../support/forward-apps'
import { runCli } from '../support/run-cli'
import { openApp, rowSelector, screenshot } from './support/app'
import { startServe } from './support/serve'
import { browserSession } from './support/session'

const session = browserSession({ work: 'run-clocks' })

describe('a scenario run opened in the app', () => {
  it('keeps the run’s rows when the folder is started again', async () => {
    const dir = join(session.work, 'kept')
    const run = await runCli(['run', 'examples/provider-a-fail-first-3.json', '--data', dir])
    expect(run.code, run.stderr).toBe(0)
    // The folder's saved retention (30 days by default), as listen, serve and the app apply it on start.
    const pruned = await runCli(['prune', '--data', dir, '--json'])
    expect(pruned.code, pruned.stderr).toBe(0)
    expect(JSON.parse(pruned.stdout)).toMatchObject({ deleted: 0, deliveries: 0, attempts: 0, events: 0, size: { requests: 4 } })

    const served = await startServe([], { dataDir: dir })
    try {
      const page = session.page
      await openApp(page, served.url)
      await page.locator('[data-testid=store-size][data-requests="4"]').waitFor()
      await page.click('[data-testid=nav-timeline]')
      const row = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
      await row.waitFor()
      expect(await row.getAttribute('data-clock')).not.toBe('wall')
      await screenshot(page, 'run-kept-after-restart')
    } finally {
      await served.stop()
    }
  })

  it('marks a simulated time as simulated, with the wall time beside it, and takes no duration across the clocks', async () => {
    const app = await startApp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"received":true}')
    })
    const dir = join(session.work, 'through-app')
    try {
      const run = await runCli(['run', 'examples/forward/provider-a-through-your-app.json', '--app', app.url, '--data', dir])
      expect(run.code, run.stderr).toBe(0)
    } finally {
      await app.close()
    }
    const served = await startServe([], { dataDir: dir })
    try {
      const page = session.page
      await openApp(page, served.url)
      await page.click('[data-testid=nav-timeline]')
      const row = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
      await row.waitFor()
      // The fourth attempt (14 min into the run) reached the app through the endpoint.
      await row.locator('.mark[data-tone] >> nth=3').click()
      const started = page.locator('[data-testid=attempt-started]')
      await started.waitFor()
      expect(await started.innerText()).toMatch(/^\+14 m 00 s simulated · sent \d\d:\d\d:\d\d wall$/)

      const legs = page.locator('[data-testid=forward-legs][data-legs="1"]')
      await legs.waitFor()
      const arrived = await legs.locator('[data-testid=hop-in-time]').innerText()
      expect(arrived).toMatch(/ · \+14 m 00 s simulated · \d\d:\d\d:\d\d wall$/)
      // The simulated instant (2026-01-05 09:14) is not shown as a date; the wall clock beside it may
      // read anything, 09:14 included, so only the part before it is checked.
      expect(arrived.replace(/\d\d:\d\d:\d\d wall$/, '')).not.toMatch(/2026-01-05|09:14/)
      expect(await legs.locator('[data-testid=hop-out-time]').innerText()).toMatch(/^forward · \+14 m 00 s simulated$/)
      expect(await page.locator('[data-testid=request-received]').innerText()).toMatch(/^\+14 m 00 s simulated · \d\d:\d\d:\d\d wall$/)
      // The sender's answer is on the virtual clock, which stands still during a request: no "in 0 ms"
      // beside the app's real milliseconds.
      const sender = await legs.locator('[data-testid=sender-answer]').innerText()
      expect(sender).toMatch(/^200 \(simulated/)
      expect(sender).not.toMatch(/in 0 ms/)
      expect(await legs.locator('[data-testid=leg-summary]').innerText()).toMatch(/^your app answered 200 in \d+ ms$/)
      await screenshot(page, 'run-simulated-times')
    } finally {
      await served.stop()
    }
  })
})
