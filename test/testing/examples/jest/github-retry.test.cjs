const { createHmac, randomUUID } = require('node:crypto')
const { startReceiver } = require('hookloop/testing')

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
  expect(await sendWithRetry(receiver.endpointUrl('github'), 's3cret', delivery, { ref: 'refs/heads/main' })).toBe(3)

  const seen = receiver.requests({ endpoint: 'github', eventId: delivery })
  expect(seen.map((r) => r.verdict)).toEqual(['valid', 'valid', 'valid'])
  expect(seen.map((r) => r.status)).toEqual([503, 503, 200])
  expect(seen.map((r) => r.duplicate)).toEqual([null, 2, 3])
})
