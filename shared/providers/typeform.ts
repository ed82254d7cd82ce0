import { json, parsed } from './envelope'
import { definePack } from './types'

export const typeform = definePack({
  id: 'typeform',
  label: 'Typeform',
  envelope: {
    kind: 'typeform',
    payloadPath: 'form_response',
    words: "Typeform's {event_id, event_type, form_response}",
    body: (e, derive) => json({ event_id: derive.token(e.eventId, 'typeform', 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ'), event_type: e.eventType, form_response: parsed(e.payload) }),
  },
  headers: { 'user-agent': 'Typeform Webhooks' },
  success: 'any 2xx within 30 s; 408, 423, 429 and 503 are retried every 2–3 min for up to 10 h, other answers are final',
  sources: [
    ['Typeform Developers — Secure your webhooks', 'https://www.typeform.com/developers/webhooks/secure-your-webhooks/', 'Typeform-Signature is "sha256=" + the base64 HMAC-SHA256 of the whole raw payload keyed with the webhook\'s secret; nothing else is signed.'],
    ['Typeform Developers — Webhooks: example payload', 'https://www.typeform.com/developers/webhooks/example-payload/', 'The body is {event_id, event_type: "form_response", form_response: {form_id, token, landed_at, submitted_at, calculated, variables, hidden, definition: {id, title, fields, endings}, answers, ending}}; partial responses come as form_response_partial.'],
    ['Typeform Developers — Webhooks: troubleshooting', 'https://www.typeform.com/developers/webhooks/troubleshooting/', 'A response is expected within 30 s; after 408, 423, 429 or 503 Typeform retries every 2 to 3 minutes for up to 10 hours; 404 and 410 disable the webhook.'],
  ],
})
