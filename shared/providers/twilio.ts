import { definePack } from './types'

export const twilio = definePack({
  id: 'twilio',
  label: 'Twilio',
  contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  envelope: { kind: 'form' },
  headers: { 'user-agent': 'TwilioProxy/1.1', accept: '*/*', 'i-twilio-idempotency-token': '{derived_uuid}' },
  success: 'any 2xx within 15 s; only a failed connection is retried, once',
  sources: [
    ['Twilio Docs — Webhooks security (validating signatures)', 'https://www.twilio.com/docs/usage/webhooks/webhooks-security', 'Messaging and Voice webhooks POST application/x-www-form-urlencoded parameters (MessageSid, AccountSid, From, To, Body …). X-Twilio-Signature is the base64 HMAC-SHA1 (auth token) of the full URL followed by every parameter name and value in sorted order; JSON bodies are signed through a bodySHA256 query parameter instead.'],
    ['Twilio Docs — Webhooks connection overrides', 'https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides', 'Defaults: connect timeout 5 s, total timeout 15 s, 1 retry (rc), retried only on a connection failure (rp=ct). I-Twilio-Idempotency-Token is the same across retries.'],
  ],
})
