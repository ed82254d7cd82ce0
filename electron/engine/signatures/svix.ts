import { SCHEMES } from '../../../shared/signatures'
import { webhookScheme } from './webhook-core'

// Svix sends svix-* headers; its own library falls back to the webhook-* names, and so do we.
export const svix = webhookScheme(SCHEMES.svix, [
  { id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' },
  { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' },
])
