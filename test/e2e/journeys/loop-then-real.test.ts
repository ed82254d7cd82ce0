// A first day: "Try the loop" (a simulation on the virtual clock), then a real provider's signed
// POSTs from outside (signed now with the official `standardwebhooks` package), then those rows
// exported as HAR. The real requests are on the wall clock whatever the loop did to its own clock:
// recorded at the wall time they arrived, their signatures valid, and the HAR's times those times.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import type { Har } from '../../../shared/contract'
import { createEndpoint, rowSelector } from '../support/app'
import { clockText, journey, screenPicked, screenRows, settle, shot, showClock, withStore } from '../support/journey'

const day = journey('loop-then-real')
const SECRET = `whsec_${Buffer.from('loop-then-real-secret-of-32-byte').toString('base64')}`
const REAL = ['evt_real_1', 'evt_real_2', 'evt_real_3']

describe('journey: Try the loop, then real traffic, then an export', () => {
  it('real requests after the loop are on the wall clock, valid, and exported with their own times', async () => {
    const served = await day.serve()
    const page = day.page
    await page.click('[data-testid=try-the-loop]')
    await page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]')).waitFor()
    await shot(page, 'loop-then-real-1-loop')

    await createEndpoint(page, { name: 'inbox', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const before = Date.now()
    for (const id of REAL) {
      const body = JSON.stringify({ type: 'invoice.paid', data: { id } })
      const now = new Date()
      const answer = await fetch(`${served.receiverUrl}/h/inbox`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign(id, now, body) },
      })
      expect(answer.status).toBe(200)
      await answer.arrayBuffer()
    }
    const after = Date.now()

    // Soft: a wrong time is reported and the day goes on, so every later screen is checked too.
    // The store: each real request at the wall time it arrived, its signature judged on that clock.
    const real = withStore(day.data, (s) =>
      s.all<{ id: number; key: string; receivedAt: number; valid: number | null; reason: string | null }>(
        "SELECT r.id, r.dedupe_key AS key, r.received_at AS receivedAt, r.verify_valid AS valid, r.verify_reason AS reason FROM requests r JOIN endpoints e ON e.id = r.endpoint_id WHERE e.slug = 'inbox' ORDER BY r.id",
      ),
    )
    expect(real.map((r) => r.key)).toEqual(REAL)
    for (const request of real) {
      expect.soft(request.receivedAt, `${request.key} recorded at ${new Date(request.receivedAt).toISOString()}, sent between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`).toBeGreaterThanOrEqual(before)
      expect.soft(request.receivedAt).toBeLessThanOrEqual(after)
      expect.soft([request.valid, request.reason]).toEqual([1, 'ok'])
    }

    // The screen: live traffic shows beside the loop's simulation with no click (no clock was
    // picked after the loop), and on the wall clock, where a person looks for it: a row each,
    // signature valid, the mark at the wall time the store holds, and none of the loop's
    // simulated rows laid on that axis.
    await page.click('[data-testid=nav-timeline]')
    await page.waitForSelector('[data-testid=clock-group][data-clock=wall]')
    await showClock(page, 'wall')
    for (const request of real) {
      const row = page.locator(rowSelector(`[data-event-id=${request.key}]`))
      await row.waitFor()
      expect.soft(await row.locator('[data-signature]').getAttribute('data-signature')).toBe('valid')
      expect.soft(await row.locator('.mark').first().getAttribute('title')).toContain(`at ${clockText(request.receivedAt)}`)
    }
    const shown = await screenRows(page)
    expect(shown.filter((r) => REAL.includes(r.eventId)).map((r) => r.attempts)).toEqual([1, 1, 1])
    expect.soft(await page.locator(rowSelector(':not([data-clock=wall])')).count(), 'simulated rows on the wall-clock axis').toBe(0)
    // The top bar counts every captured request in the store: the loop's and the real ones.
    const captured = withStore(day.data, (st) => st.count('SELECT COUNT(*) FROM requests'))
    await settle(async () => (await page.locator('[data-testid=store-size]').getAttribute('data-requests')) === String(captured))
    expect.soft(await page.locator('[data-testid=store-size]').getAttribute('data-requests'), 'the top bar’s request count').toBe(String(captured))
    await shot(page, 'loop-then-real-2-real-rows')

    // Pick the three real rows (Ctrl-click): the toolbar and the Export dialog say the same number.
    for (const id of REAL) await page.locator(`${rowSelector(`[data-event-id=${id}]`)} .tl-meta`).click({ modifiers: ['Control'] })
    expect(await screenPicked(page)).toBe(3)
    await page.click('[data-testid=export-open]')
    expect(await page.locator('[data-testid=export-dialog] h2').innerText()).toMatch(/^Export 3 (selected )?rows$/)
    await page.check('[data-testid=export-format-har]')
    await shot(page, 'loop-then-real-3-export')
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-download]')])
    const file = join(day.work, 'real.har')
    await download.saveAs(file)
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har

    // The HAR: one entry per real request, each at its own wall time, exactly the store's.
    expect(har.log.entries).toHaveLength(real.length)
    const started = har.log.entries.map((e) => e.startedDateTime).sort()
    expect(started).toEqual(real.map((r) => new Date(r.receivedAt).toISOString()).sort())
    expect.soft(new Set(started).size).toBe(real.length)
    for (const at of started) {
      expect.soft(Date.parse(at), `HAR entry at ${at}`).toBeGreaterThanOrEqual(before)
      expect.soft(Date.parse(at), `HAR entry at ${at}`).toBeLessThanOrEqual(after)
    }
  })
})
