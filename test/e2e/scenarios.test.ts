// Record → save → replay, end to end: a session recorded in real Chromium against `hookloop
// serve`, the scenario saved as a download, then played headless by `hookloop run` as a separate
// process, which must judge it the same (exit 0). The same file also runs from the UI.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { recordFailFirstLoop, rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'
import { runCli } from '../support/run-cli'

const session = browserSession({ work: 'scenario' })

describe('scenarios in the browser', () => {
  it('record → save → hookloop run: the recorded session replays headless with the same outcome', async () => {
    await session.fresh()
    const page = session.page
    const eventId = await recordFailFirstLoop(page)
    await page.waitForSelector('[data-testid=record-stop]:has-text("1 event")')
    await page.click('[data-testid=record-stop]')

    // Stop opens the scenario: valid, with what happened as its expectations.
    await page.waitForSelector('[data-testid=scenario-valid]')
    const recorded = JSON.parse(await page.locator('[data-testid=scenario-text]').inputValue()) as {
      clock: { mode: string }
      events: { event_id: string; type: string }[]
      expect: { deliveries: { status: string; attempts: number; at_ms: number[]; outcomes: string[]; duplicates: number[] }[] }
    }
    expect(recorded.clock.mode).toBe('virtual')
    expect(recorded.events).toHaveLength(1)
    expect(recorded.events[0]?.event_id).toBe(eventId)
    expect(recorded.expect.deliveries[0]).toMatchObject({
      status: 'succeeded',
      attempts: 4,
      at_ms: [0, 120_000, 360_000, 840_000],
      outcomes: ['http_503', 'http_503', 'http_503', 'http_200'],
      duplicates: [1, 2, 3, 4],
    })
    // Its expectations counted as `hookloop run` and `import` count them: one per ✓ / ✗ line.
    const summary = await page.locator('[data-testid=scenario-summary]').innerText()
    const counted = /· (\d+) expectations$/.exec(summary)
    expect(summary, 'the summary counts expectations, not delivery entries').toMatch(/^virtual clock · 1 event · 0 panel actions · \d+ expectations$/)
    const expectations = Number(counted?.[1])
    await screenshot(page, 'scenario-recorded')

    // Save: a browser download of the very text in the editor.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=scenario-save]')])
    const file = join(session.work, 'recorded.json')
    await download.saveAs(file)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(recorded)

    // Headless, as CI would: same outcome, every expectation holds.
    const report = join(session.work, 'report.json')
    const cli = await runCli(['run', file, '--report', report])
    expect(cli.stderr + cli.stdout).not.toContain('✗')
    expect(cli.code).toBe(0)
    expect(cli.stdout).toContain(`PASS: ${expectations} of ${expectations} expectations hold`)
    expect(cli.stdout.split('\n').filter((line) => line.startsWith('  ✓ ')).length).toBe(expectations)
    const written = JSON.parse(readFileSync(report, 'utf8')) as { ok: boolean; expectations: { ok: boolean }[]; deliveries: { event_id: string }[] }
    expect(written.ok).toBe(true)
    expect(written.expectations.length).toBeGreaterThanOrEqual(6)
    expect(written.deliveries[0]?.event_id).toBe(eventId)

    // And from the UI: progress, a passing report, ✓ on the run's own delivery; the recorded row of
    // the timeline shares its event id but is not the run's, and carries no mark.
    await page.click('[data-testid=scenario-run]')
    const card = page.locator('[data-testid=scenario-run-card][data-state=done]')
    await card.waitFor()
    expect(await card.getAttribute('data-ok')).toBe('true')
    expect(await page.locator('[data-testid=scenario-progress]').innerText()).toBe('1 / 1 deliveries settled')
    expect(await page.locator('[data-testid=expectation][data-ok=false]').count()).toBe(0)
    expect(await page.locator('[data-testid=expectation]').count()).toBe(expectations)
    expect(await page.locator('[data-testid=scenario-verdict]').innerText()).toBe(`PASS: ${expectations} of ${expectations} expectations hold`)
    await screenshot(page, 'scenario-run-passed')
    await page.locator(`[data-testid=run-delivery][data-event-id="${eventId}"] [data-testid=row-verdict][data-ok=true]`).waitFor()
    await page.click('[data-testid=nav-timeline]')
    await page.locator(rowSelector(`[data-event-id="${eventId}"]`)).waitFor()
    expect(await page.locator(`${rowSelector(`[data-event-id="${eventId}"]`)} [data-testid=row-verdict]`).count()).toBe(0)
  })

  it('an edit that breaks the file is shown by JSON path and blocks Run; opening a file loads it', async () => {
    await session.fresh()
    const page = session.page
    await page.click('[data-testid=nav-scenarios]')
    const text = JSON.stringify({ version: 1, name: 'typo', subscriptions: [{ id: 's', url: 'http://127.0.0.1:9/x', policy: 'pandoktorek' }], events: [{ type: 'a', payload: {} }], expect: { deliveries: [{ event: 'e1', attemps: 3 }] } })
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=scenario-open]')])
    await chooser.setFiles({ name: 'typo.json', mimeType: 'application/json', buffer: Buffer.from(text) })
    await page.waitForSelector('[data-testid=scenario-problems]')
    expect(await page.locator('[data-testid=scenario-problems]').innerText()).toContain('expect.deliveries[0].attemps')
    expect(await page.locator('[data-testid=scenario-run]').isDisabled()).toBe(true)
    await page.locator('[data-testid=scenario-text]').fill(text.replace('attemps', 'attempts'))
    await page.waitForSelector('[data-testid=scenario-valid]')
    expect(await page.locator('[data-testid=scenario-run]').isDisabled()).toBe(false)
  })
})
