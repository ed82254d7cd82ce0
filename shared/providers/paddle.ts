import type { ProviderPack } from './types'

export const paddle: ProviderPack = {
  id: 'paddle',
  label: 'Paddle Billing',
  scheme: 'paddle',
  policy: 'paddle',
  contentType: 'application/json',
  envelope: { kind: 'paddle' },
  headers: [{ name: 'user-agent', value: 'Paddle' }],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'HTTP 200 (any 2xx) within 5 s; live accounts retry up to 60 times over 3 days',
  sources: [
    {
      title: 'Paddle Developer — How webhooks work / Verify webhook signatures',
      url: 'https://developer.paddle.com/webhooks/signature-verification',
      note: 'Body: {event_id: "evt_…", event_type, occurred_at (RFC 3339), notification_id: "ntf_…", data}. Paddle-Signature: ts=<Unix s>;h1=<hex HMAC-SHA256 of "ts:body"> with the destination\'s secret key; the SDKs allow 5 s of skew.',
    },
    {
      title: 'Paddle Developer — Handle webhook delivery',
      url: 'https://developer.paddle.com/webhooks/about/respond-to-webhooks',
      note: 'Answer within five seconds; live accounts: up to 60 retries over 3 days with exponential backoff (sandbox: 3 over 15 min).',
    },
  ],
}
