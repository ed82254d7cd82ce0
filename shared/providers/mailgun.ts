import { spliced } from './envelope'
import { definePack } from './types'

// Mailgun webhooks: `{signature: {timestamp, token, signature}, "event-data": <the event>}`. The
// signature travels in the body (the scheme adds it when signing, per attempt) and covers only
// timestamp and token, keyed with the HTTP webhook signing key.
export const mailgun = definePack({
  id: 'mailgun',
  label: 'Mailgun',
  envelope: { kind: 'mailgun', payloadPath: 'event-data', words: "Mailgun's {signature, event-data}", body: (e) => spliced('{"event-data":', e.payload, '}') },
  headers: { 'user-agent': 'mailgun/treq-16.12.0' },
  success: 'a 200; a 406 stops retries; anything else is retried over 8 hours (10 min, 10 min, 15 min, 30 min, 1 h, 2 h, 4 h)',
  sources: [
    ['Mailgun Documentation — Securing webhooks', 'https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/securing-webhooks', 'The body carries signature {timestamp, token, signature}: signature is the hex HMAC-SHA256 of timestamp concatenated with token, keyed with the HTTP webhook signing key. Mailgun suggests caching tokens (no reuse) and checking the timestamp is recent; it names no limit. No Node library verifies it: the check is written from this page.'],
    ['Mailgun Documentation — Webhooks: payload and retries', 'https://documentation.mailgun.com/docs/mailgun/user-manual/webhooks/webhooks', 'The JSON body is {signature, "event-data"}; event-data is the event as the Events API returns it (id, timestamp, log-level, event, recipient, message.headers, envelope, delivery-status, flags, tags, user-variables, storage …). A 200 succeeds, a 406 is not retried, anything else is retried during 8 hours at 10 min, 10 min, 15 min, 30 min, 1 h, 2 h and 4 h.'],
  ],
})
