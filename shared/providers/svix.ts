import type { ProviderPack } from './types'

export const svix: ProviderPack = {
  id: 'svix',
  label: 'Svix',
  scheme: 'svix',
  policy: 'svix',
  contentType: 'application/json',
  envelope: { kind: 'type-timestamp-data' },
  headers: [{ name: 'user-agent', value: 'Svix-Webhooks/1.0 (sender-hookloop; +https://www.svix.com/http-sender/)' }],
  eventIdHeader: 'svix-id',
  success: 'any 2xx within 15 s; anything else, 3xx included, is a failure retried on Svix\'s schedule',
  sources: [
    {
      title: 'Svix Docs — Verifying webhooks manually',
      url: 'https://docs.svix.com/receiving/verifying-payloads/how-manual',
      note: 'svix-id, svix-timestamp, svix-signature ("v1,<base64>" entries, space-separated: during a secret rotation both secrets sign); 5 minutes of tolerance.',
    },
    { title: 'Svix Docs — Retries', url: 'https://docs.svix.com/retries', note: 'Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; a 2xx within 15 s succeeds.' },
  ],
}
