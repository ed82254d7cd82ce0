import { asObject, iso, json, parsed, splitEventType } from './envelope'
import { definePack } from './types'

export const linear = definePack({
  id: 'linear',
  label: 'Linear',
  contentType: 'application/json; charset=utf-8',
  envelope: {
    kind: 'linear',
    payloadPath: 'data',
    words: "Linear's {action, type, data, webhookId …}",
    body: (e, derive) => {
      const [type, action] = splitEventType(e.eventType)
      const data = asObject(parsed(e.payload))
      const url = typeof data.url === 'string' ? data.url : `https://linear.app/hookloop/${type.toLowerCase()}/${String(data.id ?? '')}`
      return json({ action, type, data, url, createdAt: iso(e.createdAt), organizationId: '5b1a3c9e-7d2f-4e8a-9c61-0f4b2d8e7a13', webhookTimestamp: e.sentAt, webhookId: derive.uuid('linear', 'linear-webhook') })
    },
  },
  eventIdHeader: 'linear-delivery',
  headers: { 'user-agent': 'Linear-Webhook', 'linear-event': '{event_name}' },
  success: 'HTTP 200 (any 2xx) within 5 s; retried after 1 min, 1 h and 6 h',
  sources: [['Linear Developers — Webhooks', 'https://linear.app/developers/webhooks', 'Headers Linear-Delivery (a UUID per delivery), Linear-Event (the entity type, e.g. Issue) and Linear-Signature (hex HMAC-SHA256 of the raw body). Body: {action, type, data, url, createdAt, organizationId, webhookTimestamp (Unix ms of sending, within a minute of now), webhookId}. Answer within 5 s; failures are retried after 1 min, 1 h and 6 h.']],
})
