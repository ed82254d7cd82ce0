import { ARRAY_ENVELOPE } from './envelope'
import { definePack } from './types'

// The body is a JSON array of events (SendGrid batches them; Hookloop sends one per delivery).
// The "secret" is the ECDSA P-256 private key that signs; the consumer is configured with its
// public key, SendGrid's "verification key" (docs/signatures.md).
export const sendgrid = definePack({
  id: 'sendgrid',
  label: 'SendGrid Event Webhook',
  envelope: ARRAY_ENVELOPE,
  headers: { 'user-agent': 'SendGrid Event API' },
  success: 'any 2xx; anything else is retried at increasing intervals for up to 24 hours',
  sources: [
    ['Twilio SendGrid — Getting started with the Event Webhook Security Features', 'https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/getting-started-event-webhook-security-features', 'Signed Event Webhook: X-Twilio-Email-Event-Webhook-Signature is the base64 ECDSA (P-256, SHA-256) signature of the X-Twilio-Email-Event-Webhook-Timestamp value followed by the raw body; the consumer verifies with the public "verification key" shown in Mail Settings (base64 DER). SendGrid documents no time limit.'],
    ['Twilio SendGrid — Event Webhook reference', 'https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/event', 'The body is a JSON array of event objects: email, timestamp (Unix s), event, sg_event_id (unique per event, for deduplication), sg_message_id, smtp-id, category, and per event type response, reason, url, ip, useragent …'],
    ['Twilio SendGrid — Troubleshooting the Event Webhook', 'https://www.twilio.com/docs/sendgrid/for-developers/tracking-events/troubleshooting', 'Any response other than 2xx is retried "at increasing intervals for up to 24 hours after the event occurs"; duplicates are possible, deduplicate by sg_event_id.'],
  ],
})
