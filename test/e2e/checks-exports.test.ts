// The Checks view and exports in real Chromium: the consumer check graded against a careful local
// consumer (verifies raw bytes with the standardwebhooks library, rejects bad input with 4xx,
// tolerates duplicates), and a HAR export downloaded, parsed, validated and checked for redaction.
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv from 'ajv'
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { REDACTED, type Har } from '../../shared/contract'
import { ORDERS, replayImported, rowSelector, screenshot, sendThroughLoop, useVirtualClock } from './support/app'
import { browserSession } from './support/session'
import { CAREFUL_CHECKS } from '../support/consumers/verdicts'

const session = browserSession({ timeoutMs: 30_000, work: 'exports' })
const SECRET = `whsec_${Buffer.from('careful-consumer-secret-32-bytes').toString('base64')}`

/** A consumer that does everything right: verify the raw bytes, 4xx on bad input, 2xx on a duplicate. */
async function startCarefulConsumer(): Promise<{ url: string; server: Server }> {
  const webhook = new Webhook(SECRET)
  const seen = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      try {
        webhook.verify(body, req.headers as Record<string, string>)
      } catch {
        res.writeHead(401).end('bad signature')
        return
      }
      try {
        JSON.parse(body)
      } catch {
        res.writeHead(400).end('malformed')
        return
      }
      seen.add(String(req.headers['webhook-id']))
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, server }
}

function harValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false })
  ajv.addMetaSchema(draft6)
  const schemas = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>
  for (const schema of Object.values(schemas)) ajv.addSchema(schema)
  return ajv.getSchema('har.json#')!
}

describe('checks and exports in the browser', () => {
  it('the consumer check grades a careful local consumer: every check passes, with a report card line each', async () => {
    const consumer = await startCarefulConsumer()
    try {
      await session.fresh()
      const page = session.page
      await page.click('[data-testid=nav-checks]')
      await page.fill('[data-testid=consumer-url]', consumer.url)
      await page.selectOption('[data-testid=consumer-scheme]', 'standard-webhooks')
      await page.fill('[data-testid=consumer-secret]', SECRET)
      await page.click('[data-testid=consumer-run]')
      const verdict = page.locator('[data-testid=consumer-verdict]')
      await verdict.waitFor()
      const lines = page.locator('[data-testid=consumer-check-line]')
      const severities = await lines.evaluateAll((els) => els.map((e) => [e.getAttribute('data-check'), e.getAttribute('data-severity')]))
      expect(Object.fromEntries(severities)).toMatchObject(CAREFUL_CHECKS)
      expect(await verdict.getAttribute('data-ok')).toBe('true')
      await screenshot(page, 'consumer-check')
    } finally {
      await new Promise((resolve) => consumer.server.close(resolve))
    }
  })

  it('export: the selected row downloads as HAR 1.2 that parses and validates, signatures and secrets redacted by default', async () => {
    await session.fresh()
    const page = session.page
    await useVirtualClock(page)
    const endpointSecret = `whsec_${Buffer.from('the-endpoint-secret-32-bytes-ok!').toString('base64')}`
    await sendThroughLoop(page, ORDERS(endpointSecret))
    const row = page.locator(rowSelector('[data-status=succeeded]'))
    await row.waitFor()
    await row.click()

    const download = async (keep: boolean): Promise<string> => {
      await page.click('[data-testid=export-open]')
      await page.waitForSelector('[data-testid=export-dialog] h2:has-text("Export 1 selected row")')
      await page.check('[data-testid=export-format-har]')
      if (keep) await page.check('[data-testid=export-keep-secrets]')
      expect(await page.isChecked('[data-testid=export-keep-secrets]')).toBe(keep)
      if (!keep) await screenshot(page, 'export-dialog')
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-download]')])
      const path = join(session.work, `export-${keep}.har`)
      await file.saveAs(path)
      await page.waitForSelector('[data-testid=export-dialog]', { state: 'detached' })
      return readFileSync(path, 'utf8')
    }

    const text = await download(false)
    const har = JSON.parse(text) as Har
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
    expect(har.log.entries.length).toBeGreaterThanOrEqual(1)
    const signatures = har.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === 'webhook-signature').map((h) => h.value))
    expect(signatures.length).toBeGreaterThanOrEqual(1)
    expect(signatures.every((v) => v === REDACTED)).toBe(true)
    expect(text).not.toContain(endpointSecret)

    // The explicit choice keeps them.
    const kept = JSON.parse(await download(true)) as Har
    const keptSignatures = kept.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === 'webhook-signature').map((h) => h.value))
    expect(keptSignatures.some((v) => v.startsWith('v1,'))).toBe(true)

    // Import the redacted HAR and replay it to the endpoint, re-signed with its secret: same answer.
    await replayImported(page, { name: 'ticket.har', text }, endpointSecret)
    const result = page.locator('[data-testid=replay-result]').first()
    await result.waitFor()
    expect(await result.getAttribute('data-same')).toBe('true')
    expect(await result.innerText()).toContain('http_200')
    await screenshot(page, 'import-replayed')

    // A request whose signature did not match when it arrived keeps that symptom: re-signed with a
    // stand-in wrong secret rather than the one given, and the result says so.
    const mismatched = JSON.parse(text) as Har
    mismatched.log.entries = mismatched.log.entries.slice(0, 1).map((e) => ({ ...e, _hookloop: { ...e._hookloop!, verify: { valid: false, reason: 'signature_mismatch' } } }))
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import-pick]')])
    await chooser.setFiles({ name: 'mismatch.har', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(mismatched)) })
    await page.click('[data-testid=import-replay]')
    const standIn = page.locator('[data-testid=replay-stand-in]')
    await standIn.waitFor()
    expect(await standIn.innerText()).toContain('Re-signed with a stand-in wrong secret, not the one given')
  })

  it('the sender check compares what arrived with the policy and draws the expected attempts as ghosts on the timeline', async () => {
    await session.fresh()
    const page = session.page
    // Try the loop: provider A's sender against an endpoint that fails the first 3 arrivals.
    await page.click('[data-testid=try-the-loop]')
    const row = page.locator(rowSelector('[data-status=succeeded][data-attempts="4"]'))
    await row.waitFor()
    await page.click('[data-testid=nav-checks]')
    await page.selectOption('[data-testid=sender-check-policy]', 'pandoktorek')
    await page.click('[data-testid=sender-check-run]')
    await page.waitForSelector('[data-testid=sender-verdict]')
    expect(await page.getAttribute('[data-testid=sender-verdict]', 'data-ok')).toBe('true')
    expect(await page.locator('[data-testid=sender-check-event][data-ok=true]').count()).toBe(1)
    await screenshot(page, 'sender-check')

    // A policy that deviates (Stripe's schedule) fails, and says so per event.
    await page.selectOption('[data-testid=sender-check-policy]', 'stripe')
    await page.click('[data-testid=sender-check-run]')
    await page.waitForSelector('[data-testid=sender-verdict][data-ok=false]')

    await page.selectOption('[data-testid=sender-check-policy]', 'pandoktorek')
    await page.click('[data-testid=sender-check-run]')
    await page.waitForSelector('[data-testid=sender-verdict][data-ok=true]')
    await page.click('[data-testid=nav-timeline]')
    await row.locator('[data-testid=ghost]').first().waitFor()
    expect(await row.locator('[data-testid=ghost]').count()).toBe(4)
    await screenshot(page, 'sender-check-ghosts')
  })
})
