import { ARRAY_ENVELOPE } from './envelope'
import { definePack } from './types'

// HubSpot webhooks v3: the body is a JSON array of event objects (HubSpot batches up to 100;
// Hookloop sends one per delivery), signed with the app's client secret over method, URL, body and
// timestamp.
export const hubspot = definePack({
  id: 'hubspot', label: 'HubSpot', envelope: ARRAY_ENVELOPE,
  headers: { 'user-agent': 'HubSpot Connect 2.0 (http://dev.hubspot.com/)' },
  success: 'a 2xx within 5 s; connection failures, timeouts and 5xx are retried up to 10 times over 24 hours, a 4xx is not (429 is)',
  sources: [
    ['HubSpot Developers — Validating requests from HubSpot (v3 signature)', 'https://developers.hubspot.com/docs/api/webhooks/validating-requests', 'X-HubSpot-Signature-v3 is the base64 HMAC-SHA256 (the app\u2019s client secret) of method + full URI + raw body + X-HubSpot-Request-Timestamp (Unix ms); reject a timestamp older than 5 minutes.'],
    ['HubSpot Developers — Webhooks API', 'https://developers.hubspot.com/docs/api/webhooks', 'Events arrive as a JSON array of objects with objectId, propertyName, propertyValue, changeSource, eventId, subscriptionId, portalId, appId, occurredAt (ms), subscriptionType (contact.creation, contact.propertyChange, deal.creation …) and attemptNumber (0 first). Failed notifications (connection failure, 5 s timeout, 5xx) are retried up to 10 times over 24 hours; 4xx are not retried, 429 is.'],
  ],
})
