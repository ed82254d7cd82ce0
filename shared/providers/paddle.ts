import { iso, json, parsed } from './envelope'
import { definePack } from './types'

export const paddle = definePack({
  id: 'paddle',
  label: 'Paddle Billing',
  // Paddle keeps its evt_ and ntf_ ids across retries: derived from the event id.
  envelope: {
    kind: 'paddle',
    payloadPath: 'data',
    words: "Paddle's notification {event_id, event_type, occurred_at, data}",
    body: (e, derive) =>
      json({ event_id: `evt_${derive.token(e.eventId, 'paddle-event', 26)}`, event_type: e.eventType, occurred_at: iso(e.createdAt), notification_id: `ntf_${derive.token(e.eventId, 'paddle-notification', 26)}`, data: parsed(e.payload) }),
  },
  headers: { 'user-agent': 'Paddle' },
  success: 'HTTP 200 (any 2xx) within 5 s; live accounts retry up to 60 times over 3 days',
  sources: [
    ['Paddle Developer — How webhooks work / Verify webhook signatures', 'https://developer.paddle.com/webhooks/signature-verification', 'Body: {event_id: "evt_…", event_type, occurred_at (RFC 3339), notification_id: "ntf_…", data}. Paddle-Signature: ts=<Unix s>;h1=<hex HMAC-SHA256 of "ts:body"> with the destination\'s secret key; the SDKs allow 5 s of skew.'],
    ['Paddle Developer — Handle webhook delivery', 'https://developer.paddle.com/webhooks/about/respond-to-webhooks', 'Answer within five seconds; live accounts: up to 60 retries over 3 days with exponential backoff (sandbox: 3 over 15 min).'],
  ],
})
