import { createHmac, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { deliver, runScenarioFile, startReceiver } from 'hookloop/testing'

// The code under test: sends a GitHub webhook, retrying until it is taken.
async function sendWithRetry(url, secret, delivery, payload, tries = 5) {
  const body = JSON.stringify(payload)
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
  for (let n = 1; n <= tries; n++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': delivery, 'x-hub-signature-256': signature },
      body,
    })
    if (res.ok) return n
  }
  throw new Error(`not delivered after ${tries} tries`)
}

let receiver
afterEach(() => receiver?.close())

test('retries a GitHub push until the receiver takes it', async () => {
  receiver = await startReceiver({
    endpoints: [{ slug: 'github', scheme: 'github', secrets: ['s3cret'], dedupe: 'github', rules: [{ preset: 'fail-first', n: 2 }] }],
  })
  const delivery = randomUUID()
  const tries = await sendWithRetry(receiver.endpointUrl('github'), 's3cret', delivery, { ref: 'refs/heads/main' })
  expect(tries).toBe(3)

  const first = await receiver.nextRequest({ endpoint: 'github', eventId: delivery })
  const second = await receiver.nextRequest({ endpoint: 'github', eventId: delivery })
  const third = await receiver.nextRequest({ endpoint: 'github', eventId: delivery })
  expect([first.verdict, second.verdict, third.verdict]).toEqual(['valid', 'valid', 'valid'])
  expect([first.status, second.status, third.status]).toEqual([503, 503, 200])
  expect([first.duplicate, second.duplicate, third.duplicate]).toEqual([null, 2, 3])
  expect(first.fault).toEqual({ type: 'reply', status: 503 })
})

test('delivers as GitHub and Stripe do, with their retry schedules', async () => {
  let calls = 0
  const app = createServer((req, res) => {
    calls++
    res.writeHead(calls <= 2 ? 500 : 200).end()
  })
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve))
  try {
    const result = await deliver({ to: `http://127.0.0.1:${app.address().port}/webhooks`, provider: 'github', events: ['push'] })
    expect(result.deliveries[0].attempts.map((a) => a.outcome)).toEqual(['http_500'])
    expect(result.deliveries[0].status).toBe('failed')

    // Stripe retries for days: its whole schedule runs on a virtual clock, in a moment.
    const retried = await deliver({ to: `http://127.0.0.1:${app.address().port}/webhooks`, provider: 'stripe', events: ['invoice.paid'] })
    expect(retried.deliveries[0].status).toBe('succeeded')
    expect(retried.deliveries[0].attempts.map((a) => a.outcome)).toEqual(['http_500', 'http_200'])
  } finally {
    app.close()
  }
})

test('runs a scenario file and reads its report', async () => {
  const report = await runScenarioFile(new URL('./fail-first.scenario.json', import.meta.url).pathname)
  expect(report.ok).toBe(true)
})
