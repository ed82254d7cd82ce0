// Regenerates docs/screenshots/*.png: starts `hookloop serve` from the build, sets a scene through
// the control socket (Try the loop, a chaotic endpoint, a gone one, signature faults, a
// duplicate, forward mode to a real app, a recorded session), and photographs each view in
// headless Chromium (scenarios, checks with a handshake, export and the tunnel pill included). `npm run build` first.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createServer } from 'node:http'
import { chromium } from 'playwright-core'
import { App, ExpressReceiver, LogLevel } from '@slack/bolt'
import { Webhook } from 'standardwebhooks'
import WebSocket from 'ws'

const OUT = 'docs/screenshots'
mkdirSync(OUT, { recursive: true })
const dataDir = mkdtempSync(join(tmpdir(), 'hookloop-shots-'))
const child = spawn(process.execPath, ['out/main/cli.js', 'serve', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] })
// Whatever happens below, the engine does not outlive this script.
process.on('exit', () => child.kill('SIGTERM'))
setTimeout(() => {
  console.error('docs-screenshots: gave up after 240 s')
  process.exit(1)
}, 240_000).unref()
const lines = createInterface({ input: child.stdout })
const collected = []
const url = await new Promise((resolve) => lines.on('line', (line) => (collected.push(line), collected.length === 1 && resolve(line))))
await new Promise((r) => setTimeout(r, 300))
const receiverUrl = /Webhook receiver: (http:\/\/[^/\s]+)/.exec(collected.join('\n'))?.[1]
const { origin, hash } = new URL(url)
const token = new URLSearchParams(hash.slice(1)).get('token')

const ws = new WebSocket(`${origin.replace('http', 'ws')}/control?token=${token}`, { headers: { origin } })
await new Promise((r) => ws.once('open', r))
let next = 1
const pending = new Map()
ws.on('message', (data) => {
  const frame = JSON.parse(String(data))
  if (frame.t !== 'res') return
  const p = pending.get(frame.id)
  pending.delete(frame.id)
  if (frame.ok) p.resolve(frame.res)
  else p.reject(new Error(frame.error.message))
})
const call = (name, req = {}) => new Promise((resolve, reject) => {
  const id = next++
  pending.set(id, { resolve, reject })
  ws.send(JSON.stringify({ t: 'cmd', id, name, req }))
})

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] })
async function shoot(name, scheme, steps) {
  console.log(`shooting ${name}`)
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme })
  const page = await context.newPage()
  const consoleLines = []
  page.on('console', (m) => consoleLines.push(m.text()))
  page.on('pageerror', (e) => consoleLines.push(String(e)))
  await page.goto(url)
  await page.waitForSelector('[data-testid=app]').catch(async (error) => {
    console.error(`docs-screenshots: ${name}: the app did not load: ${(await page.innerText('body')).slice(0, 500)}\n${consoleLines.join('\n')}`)
    throw error
  })
  await page.waitForTimeout(800)
  for (const step of steps) await step(page)
  await page.waitForTimeout(500)
  await page.screenshot({ path: join(OUT, `${name}.png`) })
  await context.close()
}

await shoot('first-run', 'light', [])
const secret = 'whsec_' + Buffer.from('docs-screenshots-secret-32-bytes').toString('base64')
// Forward mode first, on the real clock (your app's latency is real time): a real app on loopback
// (it checks the signature with the official library) behind an endpoint that fails the first
// arrival of each event id before the app sees it; the provider retries and the app answers.
const shopApp = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    try {
      new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), req.headers)
    } catch {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('bad signature')
      return
    }
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true,"order":"o_5521"}'), 12)
  })
})
await new Promise((r) => shopApp.listen(0, '127.0.0.1', r))
const shop2 = await call('endpoint.create', {
  name: 'shop (your app)',
  scheme: 'standard-webhooks',
  secrets: [secret],
  dedupe: { type: 'header', name: 'webhook-id' },
  forwardTo: [`http://127.0.0.1:${shopApp.address().port}/webhooks`],
})
await call('rule.addPreset', { endpointId: shop2.id, preset: 'fail-then-forward', parameters: { n: 1 } })
const signer = new Webhook(secret)
for (const id of ['msg_2Kq8', 'msg_2Kq8', 'msg_7Zt1']) {
  const body = JSON.stringify({ type: 'order.paid', data: { order_id: 'o_5521', total: 129.5, currency: 'PLN' } })
  const at = new Date()
  await fetch(`${receiverUrl}/h/${shop2.slug}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signer.sign(id, at, body) } })
  await new Promise((r) => setTimeout(r, 400))
}
await call('loop.try')
const orders = await call('endpoint.create', { name: 'orders', scheme: 'standard-webhooks', secrets: [secret], dedupe: { type: 'header', name: 'webhook-id' } })
await call('rule.addPreset', { endpointId: orders.id, preset: 'fail-first', parameters: { n: 1 } })
const shop = await call('subscription.create', { name: 'Shop orders', target: { endpointId: orders.id }, scheme: 'standard-webhooks', secret, policyId: 'csku' })
const payload = JSON.stringify({ order_id: 'o_5521', total: 129.5, currency: 'PLN' })
await call('event.send', { subscriptionId: shop.id, eventType: 'order.paid', payload, count: 8, faults: [] })
await call('event.send', { subscriptionId: shop.id, eventType: 'order.refunded', payload, count: 2, faults: ['corrupt-signature'] })
await call('event.send', { subscriptionId: shop.id, eventType: 'order.paid', payload, count: 1, faults: ['duplicate'] })
const gone = await call('endpoint.create', { name: 'legacy crm', scheme: null, secrets: [], dedupe: { type: 'json-path', path: 'event_id' } })
await call('rule.addPreset', { endpointId: gone.id, preset: 'always-410' })
const crm = await call('subscription.create', { name: 'Legacy CRM', target: { endpointId: gone.id }, scheme: 'github', policyId: 'pandoktorek' })
await call('event.send', { subscriptionId: crm.id, eventType: 'patient.updated', payload: '{"patient_id":"p_77"}', count: 2, faults: [] })
const inbox = await call('endpoint.create', { name: 'provider inbox', scheme: null, secrets: [], dedupe: { type: 'header', name: 'X-Pandoktorek-Event-Id' } })
for (let i = 0; i < 3; i++) {
  await fetch(`${receiverUrl}/h/${inbox.slug}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Pandoktorek-Event-Id': '7d0f5f8e-real-provider-retry' }, body: '{"event_id":"7d0f5f8e-real-provider-retry","event_type":"booking.created","payload":{}}' })
}
await new Promise((r) => setTimeout(r, 2500))

await shoot('timeline', 'light', [])
await shoot('forward-both-legs', 'light', [
  async (page) => page.selectOption('select[aria-label="endpoint filter"]', { label: 'shop (your app)' }),
  async (page) => page.click('[data-testid=timeline-row][data-event-id=msg_2Kq8]'),
  async (page) => page.waitForSelector('[data-testid=forward-legs][data-legs="1"]'),
])
shopApp.close()
await shoot('timeline-dark', 'dark', [])
await shoot('inspector', 'light', [async (page) => page.click('[data-testid=timeline-row]:has([data-signature=invalid])'), async (page) => page.waitForSelector('[data-testid=verdict]')])
await shoot('table', 'light', [async (page) => page.click('[data-testid=table-toggle]')])
// A margin above the card, so its top border is not hidden under the page's edge.
const cardAtTop = (slug) => async (page) => page.locator(`[data-testid=endpoint-card][data-endpoint=${slug}]`).evaluate((card) => {
  card.style.scrollMarginTop = '16px'
  card.scrollIntoView({ block: 'start' })
})
await shoot('endpoints-and-rules', 'light', [async (page) => page.click('[data-testid=nav-endpoints]'), cardAtTop('orders')])
await shoot('endpoint-forward', 'light', [async (page) => page.click('[data-testid=nav-endpoints]'), cardAtTop('shop-your-app')])
await shoot('sender', 'light', [async (page) => page.click('[data-testid=nav-sender]')])
await shoot('subscriptions', 'light', [async (page) => page.click('[data-testid=nav-subscriptions]'), async (page) => page.mouse.wheel(0, 300)])

// Tunnel pill open: start / stop the public tunnel.
await shoot('tunnel', 'light', [async (page) => page.click('[data-testid=tunnel-state]'), async (page) => page.waitForSelector('[data-testid=tunnel-form]')])
// Export dialog on the selected row.
await shoot('export', 'light', [
  async (page) => page.click('[data-testid=timeline-row]:has([data-signature=invalid])'),
  async (page) => page.click('[data-testid=export-open]'),
  async (page) => page.waitForSelector('[data-testid=export-dialog]'),
])

// Import: the dialog with a file chosen and the replay's answers.
const exported = await call('export.selection', { deliveryIds: [1], requestIds: [], format: 'case', keepSecrets: false })
await shoot('import', 'light', [
  async (page) => page.click('[data-testid=import-open]'),
  async (page) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import-pick]')])
    await chooser.setFiles({ name: 'ticket-4711.case.json', mimeType: 'application/json', buffer: Buffer.from(exported.text) })
  },
  async (page) => page.selectOption('[data-testid=import-endpoint]', { label: 'Try the loop — /h/try-the-loop' }),
  async (page) => page.check('[data-testid=import-resign]'),
  async (page) => page.fill('[data-testid=import-secret]', secret),
  async (page) => page.click('[data-testid=import-replay]'),
  async (page) => page.waitForSelector('[data-testid=replay-result]'),
])

// A recorded session on the virtual clock: provider A against an endpoint that fails 3 times, one
// event sent twice. Stop gives the scenario; it is opened in the Scenarios view and run there.
await call('clock.set', { mode: 'virtual' })
await call('record.start')
const bookings = await call('endpoint.create', { name: 'bookings', scheme: 'standard-webhooks', secrets: [secret], dedupe: { type: 'header', name: 'webhook-id' } })
await call('rule.addPreset', { endpointId: bookings.id, preset: 'fail-first', parameters: { n: 3 } })
const clinic = await call('subscription.create', { name: 'clinic feed', target: { endpointId: bookings.id }, scheme: 'standard-webhooks', secret, policyId: 'pandoktorek' })
await call('event.send', { subscriptionId: clinic.id, eventType: 'booking.created', payload: '{"booking_id":"b_1042"}', count: 1, faults: ['duplicate'] })
await new Promise((r) => setTimeout(r, 1500))
const recorded = await call('record.stop')
const openRecorded = [
  async (page) => page.click('[data-testid=nav-scenarios]'),
  async (page) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=scenario-open]')])
    await chooser.setFiles({ name: 'clinic-feed-fail-first-3.json', mimeType: 'application/json', buffer: Buffer.from(recorded.text) })
  },
  async (page) => page.waitForSelector('[data-testid=scenario-valid]'),
]
await shoot('scenario-recorded', 'light', openRecorded)
await shoot('scenario-run', 'light', [
  ...openRecorded,
  async (page) => page.click('[data-testid=scenario-run]'),
  async (page) => page.waitForSelector('[data-testid=scenario-run-card][data-state=done]'),
  async (page) => page.locator('[data-testid=scenario-run-card]').scrollIntoViewIfNeeded(),
])
await shoot('scenario-run-dark', 'dark', [
  ...openRecorded,
  async (page) => page.click('[data-testid=scenario-run]'),
  async (page) => page.waitForSelector('[data-testid=scenario-run-card][data-state=done]'),
  async (page) => page.locator('[data-testid=scenario-run-card]').scrollIntoViewIfNeeded(),
])
await shoot('scenario-verdicts', 'light', [async (page) => page.waitForSelector('[data-testid=row-verdict]')])

// Checks: the consumer check against a careful consumer on loopback, the sender check's report
// and its ghosts on the timeline.
const verifier = new Webhook(secret)
const consumer = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8')
    try {
      verifier.verify(body, req.headers)
      JSON.parse(body)
    } catch {
      res.writeHead(400).end('rejected')
      return
    }
    setTimeout(() => res.writeHead(204).end(), 5)
  })
})
await new Promise((r) => consumer.listen(0, '127.0.0.1', r))
const consumerUrl = `http://127.0.0.1:${consumer.address().port}/webhooks`
await shoot('checks-consumer', 'light', [
  async (page) => page.click('[data-testid=nav-checks]'),
  async (page) => page.fill('[data-testid=consumer-url]', consumerUrl),
  async (page) => page.fill('[data-testid=consumer-secret]', secret),
  async (page) => page.click('[data-testid=consumer-run]'),
  async (page) => page.waitForSelector('[data-testid=consumer-verdict]', { timeout: 60_000 }),
])
consumer.close()
// The handshake check against a Slack app (Bolt verifies the request, then answers the challenge)
// given another signing secret: ✗, with what Slack needs.
const boltReceiver = new ExpressReceiver({ signingSecret: '8f742231b10e8888abcd99yyyzzz85a5', logLevel: LogLevel.ERROR })
new App({ receiver: boltReceiver, authorize: async () => ({ botToken: 'xoxb-x', botId: 'B1', botUserId: 'U1' }), logLevel: LogLevel.ERROR })
const bolt = await new Promise((resolve) => {
  const server = boltReceiver.app.listen(0, '127.0.0.1', () => resolve(server))
})
await shoot('checks-handshake', 'light', [
  async (page) => page.click('[data-testid=nav-checks]'),
  async (page) => page.fill('[data-testid=consumer-url]', `http://127.0.0.1:${bolt.address().port}/slack/events`),
  async (page) => page.selectOption('[data-testid=consumer-scheme]', ''),
  async (page) => page.selectOption('[data-testid=consumer-handshake]', 'slack-url-verification'),
  async (page) => page.fill('[data-testid=consumer-secret]', 'not-the-apps-signing-secret'),
  async (page) => page.click('[data-testid=consumer-run]'),
  async (page) => page.waitForSelector('[data-testid=consumer-verdict]', { timeout: 60_000 }),
])
bolt.close()
const senderCheck = [
  async (page) => page.click('[data-testid=nav-checks]'),
  async (page) => page.selectOption('[data-testid=sender-check-endpoint]', { label: 'bookings — /h/bookings' }),
  async (page) => page.selectOption('[data-testid=sender-check-policy]', 'pandoktorek'),
  async (page) => page.click('[data-testid=sender-check-run]'),
  async (page) => page.waitForSelector('[data-testid=sender-verdict]'),
]
await shoot('checks-sender', 'light', [...senderCheck, async (page) => page.locator('[data-testid=sender-check]').scrollIntoViewIfNeeded()])
await shoot('checks-sender-ghosts', 'light', [...senderCheck, async (page) => page.click('[data-testid=nav-timeline]'), async (page) => page.waitForSelector('[data-testid=ghost]')])

await browser.close()
ws.close()
child.kill('SIGTERM')
await new Promise((r) => child.once('exit', r))
rmSync(dataDir, { recursive: true, force: true })
console.log(`screenshots written to ${OUT}/`)
