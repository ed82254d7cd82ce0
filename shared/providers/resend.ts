import { iso, json, parsed } from './envelope'
import { throughSvix } from './svix'
import { definePack } from './types'

export const resend = definePack({
  id: 'resend',
  label: 'Resend',
  ...throughSvix('resend'),
  envelope: { kind: 'type-created-at-data', payloadPath: 'data', words: '{type, created_at, data}', body: (e) => json({ type: e.eventType, created_at: iso(e.createdAt), data: parsed(e.payload) }) },
  success: 'any 2xx within 15 s (Svix\'s rule); anything else is retried: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h',
  sources: [
    ['Resend Docs — Verify webhooks requests', 'https://resend.com/docs/webhooks/verify-webhooks-requests', 'Deliveries carry svix-id, svix-timestamp and svix-signature; resend.webhooks.verify({payload, headers: {id, timestamp, signature}, webhookSecret}) checks them on the raw body.'],
    ['Resend Docs — Event types', 'https://resend.com/docs/webhooks/event-types', 'The body is {type, created_at, data}; email events carry {created_at, email_id, from, to, subject, …} and email.bounced a bounce {message, subType, type}, email.clicked a click {ipAddress, link, timestamp, userAgent}.'],
    ['Resend Docs — Retries and replays', 'https://resend.com/docs/webhooks/retries-and-replays', 'Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: Svix\'s schedule, so the pack uses the svix policy.'],
  ],
})
