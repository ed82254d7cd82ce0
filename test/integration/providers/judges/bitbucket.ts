import { createHmac, timingSafeEqual } from 'node:crypto'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// Bitbucket publishes no Node library for webhooks. Its docs give the check: HMAC-SHA256 of the
// raw body with the webhook's secret, hex, after "sha256=" in X-Hub-Signature; X-Event-Key names
// the event. Written here from the docs, not with Hookloop's verifier.

const SECRET = 'hookloop-bitbucket-secret'

export const bitbucketJudge: Judge = {
  provider: 'bitbucket',
  library: "Bitbucket's documented HMAC check",
  secret: SECRET,
  async start() {
    const accepted: string[] = []
    const deliveryIds: string[] = []
    const consumer = await serve(async (req, res) => {
      const body = await rawBody(req)
      const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`)
      const received = Buffer.from(String(req.headers['x-hub-signature'] ?? ''))
      if (received.length !== expected.length || !timingSafeEqual(received, expected)) return void res.writeHead(401).end('X-Hub-Signature does not match')
      const event = JSON.parse(body.toString('utf8')) as { actor?: { type?: string }; repository?: { full_name?: string } }
      const key = req.headers['x-event-key']
      if (typeof key !== 'string' || !event.actor?.type || !event.repository?.full_name) return void res.writeHead(400).end('no X-Event-Key, actor or repository')
      if (req.headers['x-attempt-number'] === undefined || req.headers['x-request-uuid'] === undefined) return void res.writeHead(400).end('no X-Attempt-Number or X-Request-UUID')
      deliveryIds.push(String(req.headers['x-request-uuid']))
      accepted.push(key)
      res.writeHead(200).end()
    })
    return { url: consumer.url, accepted, deliveryIds, close: consumer.close }
  },
}
