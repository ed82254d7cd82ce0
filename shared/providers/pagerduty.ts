import { asObject, iso, json, parsed, splitEventType } from './envelope'
import { definePack } from './types'

export const pagerduty = definePack({
  id: 'pagerduty',
  label: 'PagerDuty',
  envelope: {
    kind: 'pagerduty',
    payloadPath: 'event',
    words: "PagerDuty's {event: {id, event_type, resource_type, occurred_at, agent, client, data}}",
    body: (e, derive) =>
      json({ event: { id: derive.token(e.eventId, 'pagerduty', 26, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), event_type: e.eventType, resource_type: splitEventType(e.eventType)[0], occurred_at: iso(e.createdAt), ...asObject(parsed(e.payload)) } }),
  },
  eventIdHeader: 'x-webhook-id',
  headers: { 'user-agent': 'PagerDuty-Webhook/V3.0', 'x-webhook-subscription': 'PSUB7HL' },
  success: 'any 2xx; a failed delivery is retried with backoff (schedule unpublished)',
  sources: [
    ['PagerDuty Developer — V3 Webhooks overview', 'https://developer.pagerduty.com/docs/webhooks-overview', 'The body is {event: {id, event_type, resource_type, occurred_at, agent, client, data}}; headers X-Webhook-Id (the delivery), X-Webhook-Subscription (the subscription), User-Agent PagerDuty-Webhook/V3.0; failed deliveries are retried and failing subscriptions can be disabled.'],
    ['PagerDuty Developer — Verifying V3 webhook signatures', 'https://developer.pagerduty.com/docs/verifying-signatures', 'X-PagerDuty-Signature is "v1=" + hex HMAC-SHA256 of the raw body with the subscription\'s secret; during a rotation it lists several, comma separated, and one matching suffices. No timestamp is signed.'],
    ['PagerDuty Developer — V3 webhook event types and payloads', 'https://developer.pagerduty.com/docs/webhook-behavior', 'incident.triggered, incident.acknowledged, incident.resolved, incident.annotated, incident.priority_updated: data is the incident (or the note) as the examples show it.'],
  ],
})
