// QA's afternoon: a session recorded in the app, saved as a scenario file, played headless by
// `hookloop run` (its own process and store, as CI runs it), then broken on purpose — an edited
// expectation, an edited rule, a typo — and each break fails clearly: exit code, the ✗ line with
// the expectation's JSON path and expected vs actual, the typo named by its path before anything
// runs; in the app, the old passing report leaves when the file gains problems.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli'
import { recordFailFirstLoop } from '../support/app'
import { journey, screenRows, shot, withStore } from '../support/journey'

const day = journey('record-run-break', { timeoutMs: 30_000 })

interface Scenario {
  expect: { deliveries: Record<string, unknown>[] }
}

describe('journey: record, save, run headless, break it', () => {
  it('the recording replays under hookloop run; every break fails with the reason', async () => {
    await day.serve()
    const page = day.page
    const eventId = await recordFailFirstLoop(page)
    // The row is the store's delivery: as many marks as attempts, in order.
    const stored = withStore(day.data, (s) => s.all<{ outcome: string }>('SELECT a.outcome FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.n', eventId))
    expect((await screenRows(page)).find((r) => r.eventId === eventId)?.marks).toEqual(stored.map((a) => a.outcome.replace('http_', '')))
    await page.waitForSelector('[data-testid=record-stop]:has-text("1 event")')
    await page.click('[data-testid=record-stop]')
    await page.waitForSelector('[data-testid=scenario-valid]')
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=scenario-save]')])
    const file = join(day.work, 'recorded.json')
    await download.saveAs(file)
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as Scenario
    expect(recorded.expect.deliveries[0]).toMatchObject({ status: 'succeeded', attempts: stored.length, outcomes: stored.map((a) => a.outcome) })

    // Headless, on a store of its own: it passes, and its report is what its store holds.
    const runData = join(day.work, 'run-passes')
    const report = join(day.work, 'report.json')
    const passed = await runCli(['run', file, '--report', report, '--data', runData])
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    const written = JSON.parse(readFileSync(report, 'utf8')) as { ok: boolean; deliveries: { event_id: string; attempts: unknown[] }[] }
    expect(written.ok).toBe(true)
    expect(written.deliveries[0]?.event_id).toBe(eventId)
    expect(withStore(runData, (s) => s.count('SELECT COUNT(*) FROM attempts'))).toBe(written.deliveries[0]?.attempts.length)

    // Break 1: the expectation edited (the delivery is expected to fail; it succeeds).
    const wrongCount = join(day.work, 'expects-failed.json')
    writeFileSync(wrongCount, JSON.stringify({ ...recorded, expect: { deliveries: [{ ...recorded.expect.deliveries[0], status: 'failed' }] } }, null, 2))
    const one = await runCli(['run', wrongCount])
    expect(one.code, one.stdout + one.stderr).toBe(1)
    const failedLine = one.stdout.split('\n').find((line) => line.includes('✗'))
    expect(failedLine, one.stdout).toBeDefined()
    expect(failedLine).toContain('expect.deliveries[0].status')
    expect(failedLine).toContain('failed')
    expect(failedLine).toContain('succeeded')

    // Break 2: the rule edited by hand (the endpoint now answers 410 where it answered 200): what
    // was recorded no longer happens.
    const harsher = join(day.work, 'gone.json')
    const fileText = readFileSync(file, 'utf8')
    expect(fileText.match(/"status":\s*200/g)).toHaveLength(1)
    writeFileSync(harsher, fileText.replace(/"status":\s*200/, '"status": 410'))
    const two = await runCli(['run', harsher])
    expect(two.code, two.stdout + two.stderr).toBe(1)
    expect(two.stdout).toMatch(/✗ .*expect\.deliveries\[0\]\.(attempts|outcomes)/)

    // Break 3: a typo. Nothing runs; the problem is named by its JSON path, exit 2.
    const typo = join(day.work, 'typo.json')
    const typoText = JSON.stringify(recorded, null, 2).replace('"attempts"', '"attemps"')
    writeFileSync(typo, typoText)
    const three = await runCli(['run', typo])
    expect(three.code).toBe(2)
    expect(three.stdout + three.stderr).toContain('expect.deliveries[0].attemps')

    // In the app: the recorded file runs and passes; typed broken, the old pass leaves with it.
    await page.click('[data-testid=scenario-run]')
    const card = page.locator('[data-testid=scenario-run-card][data-state=done]')
    await card.waitFor()
    expect(await card.getAttribute('data-ok')).toBe('true')
    await page.locator('[data-testid=scenario-text]').fill(typoText)
    await page.waitForSelector('[data-testid=scenario-problems]')
    expect(await page.locator('[data-testid=scenario-problems]').innerText()).toContain('expect.deliveries[0].attemps')
    expect(await page.locator('[data-testid=scenario-run]').isDisabled()).toBe(true)
    await shot(page, 'record-run-break-1-typo')
    expect.soft(await page.locator('[data-testid=scenario-run-card][data-ok=true]').count(), 'a passing report shown under new problems').toBe(0)
  })
})
