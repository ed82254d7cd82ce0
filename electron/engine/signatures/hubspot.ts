import { SCHEMES } from '../../../shared/signatures'
import { hmacScheme } from './hmac-scheme'

// HubSpot webhooks v3: base64 HMAC-SHA256 (the app's client secret) of method, full URL, body and
// the X-HubSpot-Request-Timestamp value (Unix milliseconds); older than 5 minutes is refused.
// Webhooks are always POSTs.
export const hubspot = hmacScheme(SCHEMES.hubspot, {
  signatureHeader: 'x-hubspot-signature-v3',
  encoding: 'base64',
  template: 'POST{url}{body}{timestamp}',
  timestampHeader: 'x-hubspot-request-timestamp',
  timestampFormat: 'unix-ms',
})
