import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { after, test } from 'node:test'
import { startReceiver } from 'hookloop/testing'

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

const receiver = await startReceiver({
  endpoints: [{ slug: 'github', scheme: 'github', secrets: ['s3cret'], dedupe: 'github', rules: [{ preset: 'fail-first', n: 2 }] }],
})
after(() => receiver.close())

test('retries a GitHub push until the receiver takes it', async () => {
  const delivery = randomUUID()
  assert.equal(await sendWithRetry(receiver.endpointUrl('github'), 's3cret', delivery, { ref: 'refs/heads/main' }), 3)

  for (const [status, duplicate] of [[503, null], [503, 2], [200, 3]]) {
    const request = await receiver.nextRequest({ eventId: delivery, timeoutMs: 2000 })
    assert.equal(request.verdict, 'valid')
    assert.equal(request.status, status)
    assert.equal(request.duplicate, duplicate)
  }
})

test('a request that never comes: the timeout names what it waited for', async () => {
  await assert.rejects(receiver.nextRequest({ endpoint: 'github', eventId: 'never-sent', timeoutMs: 200 }), /event id "never-sent"/)
})
