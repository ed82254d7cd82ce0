import type { ProviderPack } from './types'

export const twilio: ProviderPack = {
  id: 'twilio',
  label: 'Twilio',
  scheme: 'twilio',
  policy: 'twilio',
  contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  envelope: { kind: 'form' },
  headers: [
    { name: 'user-agent', value: 'TwilioProxy/1.1' },
    { name: 'accept', value: '*/*' },
    { name: 'i-twilio-idempotency-token', value: '{derived_uuid}' },
  ],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'any 2xx within 15 s; only a failed connection is retried, once',
  sources: [
    {
      title: 'Twilio Docs — Webhooks security (validating signatures)',
      url: 'https://www.twilio.com/docs/usage/webhooks/webhooks-security',
      note: 'Messaging and Voice webhooks POST application/x-www-form-urlencoded parameters (MessageSid, AccountSid, From, To, Body …). X-Twilio-Signature is the base64 HMAC-SHA1 (auth token) of the full URL followed by every parameter name and value in sorted order; JSON bodies are signed through a bodySHA256 query parameter instead.',
    },
    {
      title: 'Twilio Docs — Webhooks connection overrides',
      url: 'https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides',
      note: 'Defaults: connect timeout 5 s, total timeout 15 s, 1 retry (rc), retried only on a connection failure (rp=ct). I-Twilio-Idempotency-Token is the same across retries.',
    },
  ],
}
