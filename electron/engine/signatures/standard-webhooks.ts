import { SCHEMES } from '../../../shared/signatures'
import { webhookScheme } from './webhook-core'

export const standardWebhooks = webhookScheme(SCHEMES['standard-webhooks'], [
  { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' },
])
