// The app end to end in real headless Chromium against `hookloop serve` spawned as a process:
// every assertion is on the DOM, every test leaves a screenshot in test-results/e2e/.
import { describe, expect, it } from 'vitest'
import { sign } from '../../electron/engine/signatures'
import { createEndpoint, openApp, rowSelector, screenshot, sendEvent, sendThroughLoop } from './support/app'
import { browserSession } from './support/session'

const session = browserSession()

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })
  await response.arrayBuffer()
  return response.status
}

describe('Hookloop in the browser', () => {
  it('first run: "Try the loop" shows four attempts of one event, three 503s then a 200', async () => {
    const { page } = await session.fresh()
    await page.waitForSelector('[data-testid=first-run]')
    await page.click('[data-testid=try-the-loop]')
    const row = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
    await row.waitFor({ timeout: 20_000 })
    const tones = await row.locator('.mark[data-tone]').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-tone')))
    expect(tones).toEqual(['retrying', 'retrying', 'retrying', 'ok'])
    expect(await row.locator('.mark[data-tone]').allInnerTexts()).toEqual(['503', '503', '503', '200'])
    expect(await row.locator('[data-signature]').getAttribute('data-signature')).toBe('valid')
    expect(await row.locator('[data-duplicates]').innerText()).toBe('3 dup')
    // The waits between attempts are provider A's: 2, 4 and 8 minutes.
    expect(await row.locator('.wait-label').allInnerTexts()).toEqual(['2 min', '4 min', '8 min'])
    await screenshot(page, 'first-run-loop')
  })

  it('a fault rule: an endpoint answering 410 makes the delivery fail at once, final, no retry', async () => {
    const { page } = await session.fresh()
    await sendThroughLoop(page, {
      endpoint: { name: 'orders', scheme: 'standard-webhooks' },
      preset: { id: 'always-410', sentence: ':has-text("reply 410")' },
      subscription: { name: 'orders feed', policy: 'pandoktorek' },
      eventType: 'order.paid',
    })
    const row = page.locator(rowSelector('[data-status=failed]'))
    await row.waitFor({ timeout: 20_000 })
    expect(await row.getAttribute('data-attempts')).toBe('1')
    expect(await row.locator('.mark').getAttribute('data-tone')).toBe('final')
    await row.click()
    await page.waitForSelector('[data-testid=fault]:has-text("reply 410")')
    expect(await page.locator('[data-testid=response-status]').innerText()).toBe('410')
    await screenshot(page, 'fault-rule-410')
  })

  it('a rule edited as data reads as its new sentence; an invalid edit is refused with the reason', async () => {
    const { page } = await session.fresh()
    await createEndpoint(page, { name: 'editable', scheme: 'standard-webhooks' })
    await page.click('[data-testid=preset-always-500]')
    await page.waitForSelector('[data-testid=rule-sentence]:has-text("reply 500")')
    await page.click('[data-testid=rule] button:text-is("Edit")')
    const editor = page.locator('[data-testid=rule-editor]')
    const definition = JSON.parse(await editor.inputValue()) as { steps: { type: string; status?: number }[] }
    await editor.fill(JSON.stringify({ ...definition, steps: [{ type: 'reply', status: 200 }, { type: 'delay', ms: 10 }] }))
    await page.click('[data-testid=rule-save]')
    await page.waitForSelector('[data-testid=rule] .error-text:has-text("final")')
    await editor.fill(JSON.stringify({ ...definition, steps: [{ type: 'delay', ms: 250 }, { type: 'reply', status: 429 }] }))
    await page.click('[data-testid=rule-save]')
    await page.waitForSelector('[data-testid=rule-sentence]:has-text("wait 250 ms, then reply 429")')
    await screenshot(page, 'rule-edited')
  })

  it('one rule edited in two windows: the later save is refused as a conflict, and offers the rule as it is now', async () => {
    const { page, url } = await session.fresh()
    await createEndpoint(page, { name: 'shared', scheme: 'standard-webhooks' })
    await page.click('[data-testid=preset-always-500]')
    await page.waitForSelector('[data-testid=rule-sentence]:has-text("reply 500")')
    await page.click('[data-testid=rule] button:text-is("Edit")')
    const editor = page.locator('[data-testid=rule-editor]')
    const definition = JSON.parse(await editor.inputValue()) as Record<string, unknown>

    // A colleague's window on the same Hookloop edits the rule and saves first.
    const other = await page.context().newPage()
    try {
      await openApp(other, url)
      await other.click('[data-testid=nav-endpoints]')
      await other.click('[data-testid=rule] button:text-is("Edit")')
      await other.locator('[data-testid=rule-editor]').fill(JSON.stringify({ ...definition, steps: [{ type: 'reply', status: 429 }] }))
      await other.click('[data-testid=rule-save]')
      await other.waitForSelector('[data-testid=rule-sentence]:has-text("reply 429")')
    } finally {
      await other.close()
    }

    await editor.fill(JSON.stringify({ ...definition, steps: [{ type: 'reply', status: 410 }] }))
    await page.click('[data-testid=rule-save]')
    const refusal = page.locator('[data-testid=rule] .error-text')
    await refusal.waitFor()
    expect(await refusal.innerText()).toMatch(/changed elsewhere .* revision 1, it is now at revision 2\. Nothing was saved/)
    await screenshot(page, 'rule-edit-conflict')
    await page.click('[data-testid=rule-reload]')
    expect(JSON.parse(await editor.inputValue())).toMatchObject({ steps: [{ type: 'reply', status: 429 }] })
    await editor.fill(JSON.stringify({ ...definition, steps: [{ type: 'reply', status: 410 }] }))
    await page.click('[data-testid=rule-save]')
    await page.waitForSelector('[data-testid=rule-sentence]:has-text("reply 410")')
  })

  it('a duplicate from a real provider retrying is flagged on its dedupe key row', async () => {
    const { receiverUrl, page } = await session.fresh()
    await createEndpoint(page, { name: 'inbox', scheme: '', dedupeHeader: 'webhook-id' })
    const body = JSON.stringify({ event_id: 'evt_dup_1', event_type: 'booking.created', payload: {} })
    expect(await post(`${receiverUrl}/h/inbox`, body, { 'webhook-id': 'evt_dup_1' })).toBe(200)
    expect(await post(`${receiverUrl}/h/inbox`, body, { 'webhook-id': 'evt_dup_1' })).toBe(200)
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id=evt_dup_1][data-attempts="2"]'))
    await row.waitFor({ timeout: 20_000 })
    expect(await row.getAttribute('data-status')).toBe('received')
    expect(await row.locator('[data-duplicates]').innerText()).toBe('1 dup')
    // Two arrivals a moment apart may be one counted mark: a second click on it shows the second.
    const marks = row.locator('.mark')
    if ((await marks.count()) === 1) {
      await marks.click()
      await page.waitForSelector('[data-testid=duplicate-number]:has-text("first arrival")')
    }
    await marks.last().click()
    await page.waitForSelector('[data-testid=duplicate-number]:has-text("duplicate arrival #2")')
    await screenshot(page, 'duplicate-flagged')
  })

  it('a bad signature is explained: reason, sentence, expected vs received', async () => {
    const { receiverUrl, page } = await session.fresh()
    const secret = `whsec_${Buffer.from('the-endpoint-secret-32-bytes-ok!').toString('base64')}`
    const wrong = `whsec_${Buffer.from('a-different-secret-32-bytes-yes!').toString('base64')}`
    await createEndpoint(page, { name: 'signed', scheme: 'standard-webhooks', secret, dedupeHeader: 'webhook-id' })
    const body = JSON.stringify({ event_id: 'evt_sig_1', event_type: 'booking.created', payload: {} })
    const headers = sign('standard-webhooks', { body: Buffer.from(body), secret: wrong, id: 'evt_sig_1' })
    await post(`${receiverUrl}/h/signed`, body, headers)
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id=evt_sig_1]'))
    await row.waitFor({ timeout: 20_000 })
    await row.locator('[data-signature=invalid]').waitFor()
    await row.click()
    const verdict = page.locator('[data-testid=verdict]')
    await verdict.waitFor()
    expect(await verdict.getAttribute('data-state')).toBe('invalid')
    expect(await verdict.getAttribute('data-reason')).toBe('signature_mismatch')
    expect((await page.locator('[data-testid=verdict-detail]').innerText()).length).toBeGreaterThan(20)
    expect(await verdict.innerText()).toContain('expected')
    await screenshot(page, 'bad-signature-explained')
  })

  it('pause holds new deliveries until resumed; rotate makes the old secret fail at once', async () => {
    const { page } = await session.fresh()
    await page.click('[data-testid=try-the-loop]')
    await page.locator(rowSelector('[data-status=succeeded]')).waitFor({ timeout: 20_000 })
    await page.click('[data-testid=nav-subscriptions]')
    await page.click('[data-testid=pause-toggle]')
    await page.waitForSelector('[data-testid=subscription-card][data-paused=true]')
    await screenshot(page, 'subscription-paused')
    await sendEvent(page, 'booking.updated')
    await page.click('[data-testid=nav-timeline]')
    const waiting = page.locator(rowSelector('[data-status=pending][data-attempts="0"]'))
    await waiting.waitFor({ timeout: 20_000 })
    await page.click('[data-testid=nav-subscriptions]')
    await page.click('[data-testid=pause-toggle]')
    await page.waitForSelector('[data-testid=subscription-card][data-paused=false]')
    await page.click('[data-testid=nav-timeline]')
    await page.locator(rowSelector('[data-status=succeeded]')).nth(1).waitFor({ timeout: 20_000 })
    expect(await page.locator(rowSelector('[data-status=pending]')).count()).toBe(0)

    // Rotate: the subscription signs with a new secret; the endpoint still knows only the old one.
    await page.click('[data-testid=nav-subscriptions]')
    const before = await page.locator('[data-testid=secret-hint]').innerText()
    page.once('dialog', (dialog) => void dialog.accept())
    await page.click('[data-testid=rotate-secret]')
    await page.locator('[data-testid=secret-hint]').filter({ hasNotText: before }).waitFor()
    await sendEvent(page, 'booking.cancelled')
    await page.click('[data-testid=nav-timeline]')
    await page.locator(`${rowSelector('')} [data-signature=invalid]`).first().waitFor({ timeout: 20_000 })
    await screenshot(page, 'rotated-secret-invalid')
  })

  it('retry now after failed makes one more attempt', async () => {
    const { page } = await session.fresh()
    await sendThroughLoop(page, { endpoint: { name: 'gone', scheme: 'standard-webhooks' }, preset: { id: 'always-410' }, subscription: { name: 'gone feed', policy: 'pandoktorek' } })
    const row = page.locator(rowSelector('[data-status=failed][data-attempts="1"]'))
    await row.waitFor({ timeout: 20_000 })
    await row.click()
    await page.click('[data-testid=retry-now]')
    await page.locator(rowSelector('[data-status=failed][data-attempts="2"]')).waitFor({ timeout: 20_000 })
    expect(await page.locator(`${rowSelector('')} .mark`).count()).toBe(2)
    await screenshot(page, 'retry-now-after-failed')
  })
})
