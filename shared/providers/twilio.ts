import { asObject, parsed } from './envelope'
import { definePack } from './types'

// The payload is a flat object of strings; a list repeats its parameter.
function formBody(payload: unknown): Uint8Array {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(asObject(payload))) {
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v))
    else if (value !== undefined && value !== null) params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean))
  }
  return new TextEncoder().encode(params.toString())
}

export const twilio = definePack({
  id: 'twilio',
  label: 'Twilio',
  contentType: 'application/x-www-form-urlencoded; charset=utf-8',
  envelope: { kind: 'form', payloadPath: '', words: 'form-encoded parameters', body: (e) => formBody(parsed(e.payload)) },
  headers: { 'user-agent': 'TwilioProxy/1.1', accept: '*/*', 'i-twilio-idempotency-token': '{derived_uuid}' },
  success: 'any 2xx within 15 s; only a failed connection is retried, once',
  sources: [
    ['Twilio Docs — Webhooks security (validating signatures)', 'https://www.twilio.com/docs/usage/webhooks/webhooks-security', 'Messaging and Voice webhooks POST application/x-www-form-urlencoded parameters (MessageSid, AccountSid, From, To, Body …). X-Twilio-Signature is the base64 HMAC-SHA1 (auth token) of the full URL followed by every parameter name and value in sorted order; JSON bodies are signed through a bodySHA256 query parameter instead.'],
    ['Twilio Docs — Webhooks connection overrides', 'https://www.twilio.com/docs/usage/webhooks/webhooks-connection-overrides', 'Defaults: connect timeout 5 s, total timeout 15 s, 1 retry (rc), retried only on a connection failure (rp=ct). I-Twilio-Idempotency-Token is the same across retries.'],
  ],
})
