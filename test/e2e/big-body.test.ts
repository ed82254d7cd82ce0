// A 25 MB body in real Chromium against `hookloop serve`: posted to an endpoint that forwards to a
// real app, it reaches the app whole; the inspector shows its size and its start (a control frame
// carries no more), the download gives back the same bytes, and a resend with a file as the new
// body, re-signed, sends that whole file (the app verifies it with the Standard Webhooks library).
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { startApp, type App } from '../support/forward-apps'
import { createEndpoint, rowSelector, screenshot } from './support/app'
import { browserSession } from './support/session'

const session = browserSession({ timeoutMs: 60_000, work: 'big-body' })
const SECRET = `whsec_${Buffer.from('big-body-e2e-secret-of-32-bytes!').toString('base64')}`
const SIZE = 25_000_000

let app: App | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

/** A JSON body of exactly `size` bytes whose start reads as a webhook. */
function bigJson(size: number, type: string, fill: string): Buffer {
  const head = `{"type":"${type}","data":"`
  const tail = '"}'
  return Buffer.from(head + fill.repeat(Math.ceil(size / fill.length)).slice(0, size - head.length - tail.length) + tail)
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

describe('a 25 MB body', () => {
  it('shows its size and start, downloads whole, and resends a file whole', async () => {
    app = await startApp((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('stored'))
    const { page, receiverUrl } = await session.fresh()
    await createEndpoint(page, { name: 'uploads', scheme: 'standard-webhooks', secret: SECRET, dedupeHeader: 'webhook-id' })
    const card = page.locator('[data-testid=endpoint-card][data-endpoint=uploads]')
    await card.locator('[data-testid=forward-to-input]').fill(`${app.url}/files`)
    await card.locator('[data-testid=forward-to-save]').click()
    await card.locator('[data-testid=forward-to-state]:has-text("goes to your app")').waitFor()

    const original = bigJson(SIZE, 'file.uploaded', '0123456789abcdef')
    const sent = await fetch(`${receiverUrl}/h/uploads`, { method: 'POST', body: original, headers: { 'content-type': 'application/json', 'webhook-id': 'evt_big_1' } })
    expect(sent.status).toBe(200)
    expect(sha256((await app.received(1)).body)).toBe(sha256(original))

    // The inspector: the size in full, the start, and a note that it is the start.
    await page.click('[data-testid=nav-timeline]')
    const row = page.locator(rowSelector('[data-event-id=evt_big_1]'))
    await row.locator('.mark').first().click()
    const size = page.locator('[data-testid=inspector] [data-testid=body-size]')
    await size.waitFor()
    expect(await size.getAttribute('data-bytes')).toBe(String(SIZE))
    // Both bodies say their whole size: the one received, and the one forwarded to the app.
    expect(await page.locator('[data-testid=inspector] .section-title:has-text("Body (25,000,000 bytes, 25.0 MB")').count()).toBe(1)
    expect(await page.locator('[data-testid=inspector] .section-title:has-text("Body (25,000,000 bytes; the first 262 kB shown")').count()).toBe(1)
    expect(await size.locator('[data-testid=body-partial]').innerText()).toMatch(/^Showing the first 262 kB of 25\.0 MB/)
    expect((await page.locator('[data-testid=inspector] [data-testid=body]').innerText()).startsWith('{"type":"file.uploaded","data":"0123456789abcdef')).toBe(true)
    await screenshot(page, 'big-body-inspector')

    // The download is the whole body, byte for byte.
    const [download] = await Promise.all([page.waitForEvent('download'), size.locator('[data-testid=body-download]').click()])
    expect(download.suggestedFilename()).toMatch(/^request-\d+\.body$/)
    const saved = join(session.work, 'downloaded.body')
    await download.saveAs(saved)
    expect(sha256(readFileSync(saved))).toBe(sha256(original))

    // Resend with a file as the new body, re-signed: the app gets the whole file, signed.
    const replacement = bigJson(SIZE - 1, 'file.replaced', 'fedcba9876543210')
    const file = join(session.work, 'replacement.json')
    writeFileSync(file, replacement)
    const legs = page.locator('[data-testid=forward-legs]')
    await legs.locator('[data-testid=resend-open]').click()
    await page.selectOption('[data-testid=resend-mode]', 'resign')
    // The stored body is too big to edit in place: it says so, and a file replaces it.
    await page.locator('[data-testid=resend-body-whole]').waitFor()
    await page.setInputFiles('[data-testid=resend-body-file]', file)
    await page.locator('[data-testid=resend-body-chosen]:has-text("replacement.json · 25.0 MB")').waitFor()
    await page.click('[data-testid=resend-send]')
    await page.locator('[data-testid=forward-legs][data-legs="2"] [data-testid=leg-detail][data-kind=resend]').waitFor()
    const resent = await app.received(2)
    expect(resent.body.length).toBe(replacement.length)
    expect(sha256(resent.body)).toBe(sha256(replacement))
    expect(() => new Webhook(SECRET).verify(resent.body.toString('utf8'), resent.headers as Record<string, string>)).not.toThrow()
    await screenshot(page, 'big-body-resent')
  })
})
