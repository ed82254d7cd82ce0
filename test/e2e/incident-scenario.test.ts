// "Make it a scenario" in real Chromium (browser mode, so the save is a download): a delivery on
// the timeline is exported as a case file, imported again, and turned into a scenario file that
// the dialog says where it went; that file then passes under `hookloop run` on a fresh data
// folder, with the endpoint's secret given as --secret (the file holds only a placeholder).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ScenarioInput } from '../../shared/scenario'
import { runCli } from '../support/run-cli'
import { openBrowser, type Browser } from './support/browser'
import { createEndpoint, createSubscription, openApp, rowSelector, screenshot, sendEvent } from './support/app'
import { startServe, type Served } from './support/serve'

let browser: Browser
let served: Served | null = null
let work: string
const SECRET = `whsec_${Buffer.from('incident-endpoint-secret-32bytes').toString('base64')}`

beforeAll(async () => {
  browser = await openBrowser()
  browser.page.setDefaultTimeout(30_000)
  work = mkdtempSync(join(tmpdir(), 'hookloop-e2e-incident-'))
})
afterAll(async () => {
  await browser?.close()
  rmSync(work, { recursive: true, force: true })
})
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(browser.page, `failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`)
  await served?.stop()
  served = null
})

describe('an imported incident becomes a scenario in the browser', () => {
  it('the button downloads a scenario, the dialog says where it went and how to run it, and hookloop run passes it', async () => {
    served = await startServe()
    const page = browser.page
    await openApp(page, served.url)
    await page.click('[data-testid=clock-mode] button:text-is("virtual")')
    await page.waitForSelector('[data-testid=clock-mode] button.active:text-is("virtual")')
    await createEndpoint(page, { name: 'orders', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    await createSubscription(page, { name: 'orders feed', policy: 'pandoktorek' })
    await sendEvent(page, 'order.paid')
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-status=succeeded]'))
    await row.waitFor()
    await row.click()

    // The incident as support gets it: a case file, secrets redacted.
    await page.click('[data-testid=export-open]')
    await page.check('[data-testid=export-format-case]')
    const [exported] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-download]')])
    const casePath = join(work, 'ticket.case.json')
    await exported.saveAs(casePath)
    await page.waitForSelector('[data-testid=export-dialog]', { state: 'detached' })

    await page.click('[data-testid=import-open]')
    expect(await page.isDisabled('[data-testid=import-make-scenario]')).toBe(true)
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import-pick]')])
    await chooser.setFiles({ name: 'ticket.case.json', mimeType: 'application/json', buffer: readFileSync(casePath) })
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=import-make-scenario]')])
    expect(download.suggestedFilename()).toBe('ticket.scenario.json')
    const scenarioPath = join(work, 'ticket.scenario.json')
    await download.saveAs(scenarioPath)

    const saved = page.locator('[data-testid=import-scenario-saved]')
    await saved.waitFor()
    expect(await saved.innerText()).toContain('Scenario saved to ticket.scenario.json in your downloads folder')
    expect(await page.innerText('[data-testid=import-scenario-command]')).toBe('hookloop run ticket.scenario.json --secret HOOKLOOP_SECRET_ORDERS=…')
    await page.waitForSelector('[data-testid=toast]:has-text("Scenario saved to ticket.scenario.json")')
    await screenshot(page, 'import-make-scenario')

    const text = readFileSync(scenarioPath, 'utf8')
    expect(text).not.toContain(SECRET)
    const scenario = JSON.parse(text) as ScenarioInput
    expect(scenario.expect?.deliveries?.[0]).toMatchObject({ status: 'succeeded', attempts: 1, outcomes: ['http_200'], decisions: ['succeeded'] })

    const passed = await runCli(['run', scenarioPath, '--data', join(work, 'run'), '--secret', `HOOKLOOP_SECRET_ORDERS=${SECRET}`])
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    expect(passed.stdout).toContain('PASS')
  })
})
