// A provider fans one event out to two of our endpoints (billing and crm), and retries it at each
// as each answers: the same event id at two endpoints is two rows, each numbering its own
// duplicates. The timeline, the inspector, the table and the top bar say what the store holds.
// Last, a web page on another origin POSTs to one of them, through the browser's CORS preflight.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createEndpoint, rowSelector } from '../support/app'
import { postStandardWebhook } from '../support/post'
import { journey, screenRowCount, screenRows, shot, withStore } from '../support/journey'

const day = journey('two-endpoints', { timeoutMs: 30_000 })
const SECRET = `whsec_${Buffer.from('two-endpoints-one-event-32-bytes').toString('base64')}`

async function deliver(url: string, id: string): Promise<void> {
  expect(await postStandardWebhook(url, SECRET, id, JSON.stringify({ type: 'customer.updated', data: { id: 'cus_9' } }))).toBe(200)
}

describe('journey: two endpoints receiving the same event id', () => {
  it('two rows, duplicates counted per endpoint, every view equal to the store', async () => {
    const served = await day.serve()
    const page = day.page
    for (const name of ['billing', 'crm']) await createEndpoint(page, { name, scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const billing = `${served.receiverUrl}/h/billing`
    const crm = `${served.receiverUrl}/h/crm`
    // Interleaved as a fan-out with retries arrives: the shared id 3× at billing, 2× at crm.
    for (const [url, id] of [[billing, 'msg_shared'], [crm, 'msg_shared'], [billing, 'msg_shared'], [crm, 'msg_crm_only'], [crm, 'msg_shared'], [billing, 'msg_shared']] as const) await deliver(url, id)

    const store = withStore(day.data, (s) => ({
      requests: s.count('SELECT COUNT(*) FROM requests'),
      rows: s.all<{ slug: string; key: string; n: number; last: number }>('SELECT e.slug, r.dedupe_key AS key, COUNT(*) AS n, MAX(r.duplicate_number) AS last FROM requests r JOIN endpoints e ON e.id = r.endpoint_id GROUP BY r.endpoint_id, r.dedupe_key ORDER BY e.slug, key'),
    }))
    // The store numbers arrivals per endpoint: billing's third is #3, crm's second is #2.
    expect(store.rows).toEqual([
      { slug: 'billing', key: 'msg_shared', n: 3, last: 3 },
      { slug: 'crm', key: 'msg_crm_only', n: 1, last: 1 },
      { slug: 'crm', key: 'msg_shared', n: 2, last: 2 },
    ])

    await page.click('[data-testid=nav-timeline]')
    const shared = page.locator(rowSelector('[data-event-id=msg_shared]'))
    await page.locator(rowSelector('[data-event-id=msg_shared][data-attempts="3"]')).waitFor()
    await page.locator(rowSelector('[data-event-id=msg_shared][data-attempts="2"]')).waitFor()
    await page.locator(rowSelector('[data-event-id=msg_crm_only]')).waitFor()
    await shot(page, 'two-endpoints-1-rows')
    expect(await shared.count()).toBe(2)
    expect(await screenRowCount(page)).toBe(store.rows.length)
    await page.locator(`[data-testid=store-size][data-requests="${store.requests}"]`).waitFor()
    const shown = await screenRows(page)
    expect(shown.map((r) => [r.eventId, r.attempts, r.duplicates]).sort()).toEqual(
      store.rows.map((r) => [r.key, r.n, r.n - 1]).sort(),
    )
    expect(shown.every((r) => r.signature === 'valid' && r.status === 'received')).toBe(true)

    // The inspector numbers each arrival within its endpoint's row.
    const billingRow = page.locator(rowSelector('[data-event-id=msg_shared][data-attempts="3"]'))
    await billingRow.locator('.tl-meta').click()
    await page.locator('[data-testid=attempt-chip]').nth(2).click()
    await page.locator('[data-testid=duplicate-number]', { hasText: /duplicate (arrival )?#3\b/ }).waitFor()
    const crmRow = page.locator(rowSelector('[data-event-id=msg_shared][data-attempts="2"]'))
    await crmRow.locator('.tl-meta').click()
    await page.locator('[data-testid=attempt-chip]').nth(1).click()
    await page.locator('[data-testid=duplicate-number]', { hasText: /duplicate (arrival )?#2\b/ }).waitFor()
    await shot(page, 'two-endpoints-2-inspector')

    // Each endpoint's "Show on timeline" shows its own rows only.
    for (const slug of ['billing', 'crm']) {
      await page.click('[data-testid=nav-endpoints]')
      await page.locator(`[data-testid=endpoint-card][data-endpoint=${slug}] button:text-is("Show on timeline")`).click()
      const mine = store.rows.filter((r) => r.slug === slug)
      await page.locator(rowSelector(`[data-event-id=msg_shared][data-attempts="${mine.find((r) => r.key === 'msg_shared')!.n}"]`)).waitFor()
      await expect.poll(() => screenRowCount(page)).toBe(mine.length)
      expect((await screenRows(page)).map((r) => [r.eventId, r.attempts]).sort()).toEqual(mine.map((r) => [r.key, r.n]).sort())
    }

    // The table: the same rows, its headers in words.
    await page.click('[data-testid=table-toggle]')
    await page.locator('[data-testid=table-row]').first().waitFor()
    expect(await page.locator('[data-testid=table-row]').count()).toBe(store.rows.filter((r) => r.slug === 'crm').length)
    await shot(page, 'two-endpoints-3-table')
    const headers = await page.locator('[data-testid=table] .vt-head span').allInnerTexts()
    expect.soft(headers.filter((h) => /_/.test(h)), 'table headers in snake_case').toEqual([])

    // The team's dashboard, a web page on another origin, POSTs to billing: the browser's CORS
    // preflight gets a preflight answer, so the POST itself reaches the endpoint.
    const dashboard = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dashboard</title>'))
    await new Promise<void>((resolve) => dashboard.listen(0, '127.0.0.1', resolve))
    day.track({ stop: () => new Promise<void>((resolve) => (dashboard.close(() => resolve()), dashboard.closeAllConnections())) })
    const web = await page.context().newPage()
    day.track({ stop: () => web.close() })
    await web.goto(`http://127.0.0.1:${(dashboard.address() as AddressInfo).port}/`)
    const fromPage = await web.evaluate(async (url) => {
      try {
        const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'msg_from_page' }, body: '{"type":"customer.updated"}' })
        return `status ${answer.status}`
      } catch (error) {
        return `refused: ${String(error)}`
      }
    }, billing)
    const preflights = withStore(day.data, (s) => s.all<{ status: number | null; headers: string | null }>("SELECT response_status AS status, response_headers_json AS headers FROM requests WHERE method = 'OPTIONS'"))
    expect.soft(withStore(day.data, (s) => s.count("SELECT COUNT(*) FROM requests WHERE method = 'POST' AND dedupe_key = 'msg_from_page'")), `the page's POST reached billing (the page saw: ${fromPage}; preflights: ${JSON.stringify(preflights)})`).toBe(1)
    expect.soft(preflights.length, 'the preflight is recorded').toBe(1)
    expect.soft(preflights[0]?.headers ?? '', 'the preflight is answered as one').toMatch(/access-control-allow-methods/i)
  })
})
