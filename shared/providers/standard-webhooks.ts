import { TYPE_TIMESTAMP_DATA_ENVELOPE } from './envelope'
import { definePack } from './types'

export const standardWebhooks = definePack({
  id: 'standard-webhooks',
  label: 'Standard Webhooks',
  envelope: TYPE_TIMESTAMP_DATA_ENVELOPE,
  eventIdHeader: 'webhook-id',
  success: 'any 2xx within 15 s; anything else (3xx included) is a failure, retried on the recommended schedule',
  sources: [['Standard Webhooks specification', 'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md', 'Payload {type, timestamp (ISO 8601), data}; headers webhook-id, webhook-timestamp (Unix s), webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>" or "v1a,<base64 Ed25519>", several space-separated during a rotation); the recommended retry schedule.']],
})
