import { createHmac } from 'node:crypto'
import { judgeConsumer, matches, refuse } from '../support'
import type { Judge } from './types'

// Bitbucket publishes no Node library for webhooks. Its docs give the check: HMAC-SHA256 of the
// raw body with the webhook's secret, hex, after "sha256=" in X-Hub-Signature; X-Event-Key names
// the event. Written here from the docs, not with Hookloop's verifier.

const SECRET = 'hookloop-bitbucket-secret'

export const bitbucketJudge: Judge = {
  provider: 'bitbucket', library: "Bitbucket's documented HMAC check", secret: SECRET,
  start: () => judgeConsumer((body, req) => {
    if (!matches(req.headers['x-hub-signature'], `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`)) refuse(401, 'X-Hub-Signature does not match')
    const event = JSON.parse(body.toString('utf8')) as { actor?: { type?: string }; repository?: { full_name?: string } }
    const key = req.headers['x-event-key']
    if (typeof key !== 'string' || !event.actor?.type || !event.repository?.full_name) refuse(400, 'no X-Event-Key, actor or repository')
    if (req.headers['x-attempt-number'] === undefined || req.headers['x-request-uuid'] === undefined) refuse(400, 'no X-Attempt-Number or X-Request-UUID')
    return { accepted: key, deliveryId: String(req.headers['x-request-uuid']) }
  }, { deliveryIds: true }),
}
