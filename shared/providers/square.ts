import type { ProviderPack } from './types'

export const square: ProviderPack = {
  id: 'square',
  label: 'Square',
  scheme: 'square',
  policy: 'square',
  contentType: 'application/json',
  envelope: { kind: 'square', merchant_id: 'MLHOOKLOOP0001' },
  headers: [
    { name: 'user-agent', value: 'Square Connect v2' },
    { name: 'square-environment', value: 'Sandbox' },
    { name: 'square-version', value: '2025-01-23' },
  ],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'any 2xx within 10 s; retried for up to 24 hours',
  sources: [
    {
      title: 'Square Developer — Subscribe to event notifications (notification headers)',
      url: 'https://developer.squareup.com/docs/webhooks/step2subscribe',
      note: 'x-square-hmacsha256-signature (base64 HMAC-SHA256 of notification URL + raw body with the subscription\'s signature key) and square-environment. Body: {merchant_id, type, event_id, created_at, data: {type, id, object: {<type>: …}}}.',
    },
    {
      title: 'Square Developer — Troubleshoot webhooks',
      url: 'https://developer.squareup.com/docs/webhooks/troubleshooting',
      note: 'Acknowledge with a 2xx within 10 s; unsuccessful deliveries are retried for up to 24 hours (intervals unpublished).',
    },
  ],
}
