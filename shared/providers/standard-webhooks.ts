import type { ProviderPack } from './types'

export const standardWebhooks: ProviderPack = {
  id: 'standard-webhooks',
  label: 'Standard Webhooks',
  scheme: 'standard-webhooks',
  policy: 'standard-webhooks',
  contentType: 'application/json',
  envelope: { kind: 'type-timestamp-data' },
  headers: [],
  eventIdHeader: 'webhook-id',
  success: 'any 2xx within 15 s; anything else (3xx included) is a failure, retried on the recommended schedule',
  sources: [
    {
      title: 'Standard Webhooks specification',
      url: 'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md',
      note: 'Payload {type, timestamp (ISO 8601), data}; headers webhook-id, webhook-timestamp (Unix s), webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>" or "v1a,<base64 Ed25519>", several space-separated during a rotation); the recommended retry schedule.',
    },
  ],
}
