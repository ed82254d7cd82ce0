import { TYPE_TIMESTAMP_DATA_ENVELOPE } from './envelope'
import { definePack } from './types'

/** How a provider that delivers through Svix sends (Clerk, Resend): Svix's signature, retry schedule and id header, and its user agent naming the sender. */
export function throughSvix(sender: string) {
  return { scheme: 'svix', policy: 'svix', eventIdHeader: 'svix-id', headers: { 'user-agent': `Svix-Webhooks/1.63.1 (sender-${sender}; +https://www.svix.com/http-sender/)` } } as const
}

export const svix = definePack({
  id: 'svix',
  label: 'Svix',
  envelope: TYPE_TIMESTAMP_DATA_ENVELOPE, eventIdHeader: 'svix-id',
  headers: { 'user-agent': 'Svix-Webhooks/1.0 (sender-hookloop; +https://www.svix.com/http-sender/)' },
  success: 'any 2xx within 15 s; anything else, 3xx included, is a failure retried on Svix\'s schedule',
  sources: [
    ['Svix Docs — Verifying webhooks manually', 'https://docs.svix.com/receiving/verifying-payloads/how-manual', 'svix-id, svix-timestamp, svix-signature ("v1,<base64>" entries, space-separated: during a secret rotation both secrets sign); 5 minutes of tolerance.'],
    ['Svix Docs — Retries', 'https://docs.svix.com/retries', 'Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; a 2xx within 15 s succeeds.'],
  ],
})
