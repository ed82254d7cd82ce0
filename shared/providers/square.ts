import { iso, json, parsed } from './envelope'
import { definePack } from './types'

export const square = definePack({
  id: 'square',
  label: 'Square',
  envelope: {
    kind: 'square',
    payloadPath: 'data',
    words: "Square's {merchant_id, type, event_id, created_at, data}",
    body: (e) => json({ merchant_id: 'MLHOOKLOOP0001', type: e.eventType, event_id: e.eventId, created_at: iso(e.createdAt), data: parsed(e.payload) }),
  },
  // The Square-Version the `square` package (46) is generated for, whose schemas the catalog's
  // payloads are checked against (test/unit/providers/square-schema.test.ts).
  apiVersions: ['2026-09-16'],
  headers: { 'user-agent': 'Square Connect v2', 'square-environment': 'Sandbox', 'square-version': '{api_version}' },
  success: 'any 2xx within 10 s; retried for up to 24 hours',
  sources: [
    ['Square Developer — Subscribe to event notifications (notification headers)', 'https://developer.squareup.com/docs/webhooks/step2subscribe', 'x-square-hmacsha256-signature (base64 HMAC-SHA256 of notification URL + raw body with the subscription\'s signature key) and square-environment. Body: {merchant_id, type, event_id, created_at, data: {type, id, object: {<type>: …}}}.'],
    ['Square Developer — Troubleshoot webhooks', 'https://developer.squareup.com/docs/webhooks/troubleshooting', 'Acknowledge with a 2xx within 10 s; unsuccessful deliveries are retried for up to 24 hours (intervals unpublished).'],
  ],
})
