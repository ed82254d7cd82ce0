// "Make it a scenario" in real Chromium (browser mode, so the save is a download): a delivery on
// the timeline is exported as a case file, imported again, and turned into a scenario file that
// the dialog says where it went; that file then passes under `hookloop run` on a fresh data
// folder, with the endpoint's secret given as --secret (the file holds only a placeholder).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScenarioInput } from '../../shared/scenario'
import { runCli } from '../support/run-cli'
import { ORDERS, rowSelector, screenshot, sendThroughLoop, useVirtualClock } from './support/app'
import { browserSession } from './support/session'

const session = browserSession({ timeoutMs: 30_000, work: 'incident' })
const SECRET = `whsec_${Buffer.from('incident-endpoint-secret-32bytes').toString('base64')}`

describe('an imported incident becomes a scenario in the browser', () => {
  it('the button downloads a scenario, the dialog says where it went and how to run it, and hookloop run passes it', async () => {
    await session.fresh()
    const page = session.page
    const work = session.work
    await useVirtualClock(page)
    await sendThroughLoop(page, ORDERS(SECRET))
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
    // The dialog counts expectations as the run does: one per ✓ line.
    const counted = /(\d+) expectations? from what was observed/.exec(await saved.innerText())?.[1]
    expect(passed.stdout).toContain(`PASS: ${counted} of ${counted} expectations hold`)
  })
})
