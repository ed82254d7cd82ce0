import { createHmac } from 'node:crypto'
import { judgeConsumer, matches, refuse } from '../support'
import type { Judge } from './types'

// PagerDuty publishes no Node library for V3 webhooks. Its docs give the check: compute
// "v1=" + hex HMAC-SHA256 of the raw body with the secret and accept when any of the
// comma-separated signatures in X-PagerDuty-Signature equals it. Written here from the docs.

const SECRET = 'hookloop-pagerduty-webhook-secret'

export const pagerdutyJudge: Judge = {
  provider: 'pagerduty', library: "PagerDuty's documented signature check", secret: SECRET,
  start: () => judgeConsumer((body, req) => {
    const expected = `v1=${createHmac('sha256', SECRET).update(body).digest('hex')}`
    if (!String(req.headers['x-pagerduty-signature'] ?? '').split(',').some((s) => matches(s.trim(), expected))) refuse(401, 'no X-PagerDuty-Signature matches')
    const { event } = JSON.parse(body.toString('utf8')) as { event?: { id?: string; event_type?: string; resource_type?: string; occurred_at?: string; data?: { type?: string } } }
    if (!event?.id || !event.event_type || !event.occurred_at || event.resource_type !== event.event_type.split('.')[0] || !event.data?.type) refuse(400, 'not a V3 event envelope')
    return { accepted: event.event_type, deliveryId: String(req.headers['x-webhook-id']) }
  }, { deliveryIds: true }),
}
