// Support's ticket: a customer's HAR (their server's view of a provider retrying, signed with the
// customer's secret) is imported in the app and made a scenario, the scenario runs headless, what
// the run captured is exported as HAR with secrets redacted, and that export is imported again and
// replayed, re-signed, into an endpoint of ours: on screen, its rows equal the store's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { REDACTED, type Har } from '../../../shared/contract'
import { runCli } from '../../support/run-cli'
import { createEndpoint, replayImported, rowSelector } from '../support/app'
import { journey, screenRowCount, screenRows, shot, withStore } from '../support/journey'

const day = journey('har-to-scenario', { timeoutMs: 30_000 })
const CUSTOMER_SECRET = `whsec_${Buffer.from('customer-shop-secret-of-32-bytes').toString('base64')}`
const RUN_SECRET = `whsec_${Buffer.from('the-run-secret-given-in-ci-32byt').toString('base64')}`
const SUPPORT_SECRET = `whsec_${Buffer.from('support-desk-endpoint-secret-32b').toString('base64')}`

/** What the customer's browser tools saved: one order retried twice after 500s, then another order. */
function customerHar(): string {
  const webhook = new Webhook(CUSTOMER_SECRET)
  const t0 = Date.parse('2026-11-30T09:00:00.000Z')
  const arrivals = [
    { id: 'msg_order_1', at: 0, status: 500 },
    { id: 'msg_order_1', at: 5_000, status: 500 },
    { id: 'msg_order_1', at: 305_000, status: 200 },
    { id: 'msg_order_2', at: 310_000, status: 200 },
  ]
  const entries = arrivals.map((a) => {
    const body = JSON.stringify({ type: 'order.paid', data: { id: a.id, amount: 4200 } })
    const when = new Date(t0 + a.at)
    return {
      startedDateTime: when.toISOString(),
      time: 12,
      request: {
        method: 'POST',
        url: 'https://shop.example.com/webhooks/orders',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'webhook-id', value: a.id },
          { name: 'webhook-timestamp', value: String(Math.floor(when.getTime() / 1000)) },
          { name: 'webhook-signature', value: webhook.sign(a.id, when, body) },
        ],
        queryString: [],
        postData: { mimeType: 'application/json', text: body },
        headersSize: -1,
        bodySize: body.length,
      },
      response: { status: a.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: 'text/plain', text: '' }, redirectURL: '', headersSize: -1, bodySize: 0 },
      cache: {},
      timings: { send: 0, wait: 12, receive: 0 },
    }
  })
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'Chrome DevTools', version: '131' }, entries } }, null, 2)
}

function harOf(text: string): Har {
  return JSON.parse(text) as Har
}

describe('journey: a HAR becomes a scenario, runs, and is exported redacted', () => {
  it('import → scenario → hookloop run → redacted export → imported and replayed, on screen as in the store', async () => {
    await day.serve()
    const page = day.page
    const har = customerHar()

    // The ticket's HAR, made a scenario in the app.
    await page.click('[data-testid=nav-timeline]')
    await page.click('[data-testid=import-open]')
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import-pick]')])
    await chooser.setFiles({ name: 'ticket-4711.har', mimeType: 'application/json', buffer: Buffer.from(har) })
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=import-make-scenario]')])
    const scenarioFile = join(day.work, download.suggestedFilename())
    await download.saveAs(scenarioFile)
    const command = await page.locator('[data-testid=import-scenario-command]').innerText()
    await shot(page, 'har-to-scenario-1-made')
    const secretName = /--secret (HOOKLOOP_SECRET_[A-Z0-9_]+)=/.exec(command)?.[1]
    expect(secretName, command).toBeDefined()
    const scenarioText = readFileSync(scenarioFile, 'utf8')
    expect(scenarioText).not.toContain(CUSTOMER_SECRET)
    await page.keyboard.press('Escape')

    // Headless, as CI runs it: every observation of the ticket holds again.
    const runData = join(day.work, 'run')
    const ran = await runCli(['run', scenarioFile, '--data', runData, '--secret', `${secretName}=${RUN_SECRET}`])
    expect(ran.code, ran.stdout + ran.stderr).toBe(0)
    const captured = withStore(runData, (s) => s.all<{ id: number; status: number }>('SELECT id, response_status AS status FROM requests ORDER BY id'))
    expect(captured.map((r) => r.status)).toEqual([500, 500, 200, 200])

    // What the run captured, exported for the ticket: HAR, secrets and signatures redacted.
    const exportFile = join(day.work, 'run-export.har')
    const exported = await runCli(['export', '--data', runData, '--format', 'har', '--requests', captured.map((r) => r.id).join(','), '--out', exportFile])
    expect(exported.code, exported.stderr).toBe(0)
    const exportText = readFileSync(exportFile, 'utf8')
    const redacted = harOf(exportText)
    expect(redacted.log.entries).toHaveLength(captured.length)
    expect(redacted.log.entries.map((e) => e.response.status)).toEqual([500, 500, 200, 200])
    const signatures = redacted.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === 'webhook-signature').map((h) => h.value))
    expect(signatures).toHaveLength(captured.length)
    expect(signatures.every((v) => v === REDACTED)).toBe(true)
    for (const secret of [RUN_SECRET, CUSTOMER_SECRET, RUN_SECRET.slice('whsec_'.length)]) expect(exportText).not.toContain(secret)

    // Support imports the redacted export and replays it, re-signed, into an endpoint of theirs.
    await createEndpoint(page, { name: 'support', scheme: 'standard-webhooks', secret: SUPPORT_SECRET, dedupeHeader: 'webhook-id' })
    await page.click('[data-testid=nav-timeline]')
    await replayImported(page, { name: 'run-export.har', text: exportText }, SUPPORT_SECRET)
    await page.locator('[data-testid=replay-result]').nth(captured.length - 1).waitFor()
    await shot(page, 'har-to-scenario-2-replayed')
    await page.keyboard.press('Escape')

    // On screen as in the store: one row per message id at the endpoint, its arrivals numbered, signatures valid.
    const store = withStore(day.data, (s) => ({
      requests: s.count("SELECT COUNT(*) FROM requests WHERE endpoint_id = (SELECT id FROM endpoints WHERE slug = 'support')"),
      valid: s.count("SELECT COUNT(*) FROM requests WHERE verify_valid = 1 AND endpoint_id = (SELECT id FROM endpoints WHERE slug = 'support')"),
      rows: s.all<{ key: string; n: number }>("SELECT dedupe_key AS key, COUNT(*) AS n FROM requests WHERE endpoint_id = (SELECT id FROM endpoints WHERE slug = 'support') GROUP BY dedupe_key ORDER BY key"),
    }))
    expect(store.requests).toBe(captured.length)
    expect(store.valid).toBe(captured.length)
    expect(store.rows.map((r) => r.n).sort()).toEqual([1, 3])
    for (const { key, n } of store.rows) await page.locator(rowSelector(`[data-event-id="${key}"][data-attempts="${n}"]`)).waitFor()
    const shown = await screenRows(page)
    expect(shown.map((r) => [r.eventId, r.attempts]).sort()).toEqual(store.rows.map((r) => [r.key, r.n]))
    expect(shown.every((r) => r.signature === 'valid')).toBe(true)
    expect(shown.map((r) => r.duplicates).sort()).toEqual([0, 2])
    expect(await screenRowCount(page)).toBe(store.rows.length)
    await page.locator(`[data-testid=store-size][data-requests="${store.requests}"]`).waitFor()
  })
})
