import { createHmac } from 'node:crypto'
import { judgeConsumer, matches } from '../support'
import type { Judge } from './types'

// Intercom publishes no Node verifier: the check its webhook docs give, written from the docs —
// X-Hub-Signature is "sha1=" + hex HMAC-SHA1 of the raw body keyed with the client secret.
const secret = 'intercom-client-secret-6d1e'

export const intercomJudge: Judge = {
  provider: 'intercom', library: "Intercom's documented check", secret,
  start: () => judgeConsumer((body, req) => {
    if (!matches(req.headers['x-hub-signature'], 'sha1=' + createHmac('sha1', secret).update(body).digest('hex'))) throw new Error('signature refused')
    const notification = JSON.parse(body.toString('utf8')) as { type: string; topic: string }
    if (notification.type !== 'notification_event') throw new Error(`not a notification_event: ${notification.type}`)
    return { accepted: notification.topic }
  }),
}
