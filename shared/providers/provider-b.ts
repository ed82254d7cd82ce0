import type { ProviderPack } from './types'

// Seed provider B documents no signature at all: subscriptions made from this pack get no secret
// (so no signature header) unless one is given; Standard Webhooks then signs.
export const providerB: ProviderPack = {
  id: 'provider-b',
  label: 'Provider B (CSKU AI)',
  scheme: 'standard-webhooks',
  unsigned: true,
  policy: 'csku',
  contentType: 'application/json',
  envelope: { kind: 'event-message' },
  headers: [],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'HTTP 200 only, within 5 s; 3 retries 30 s apart, then failed_permanent',
  sources: [
    {
      title: 'Seed provider B — CSKU AI webhook docs',
      url: 'seeds/003 (docs.csku.ai webhooks)',
      note: 'Body {event: "message.received", message: {id, …}}; receivers dedupe on `${event}_${message.id}`; 3 retries 30 s apart on a non-2xx or no answer. No signature is documented: the pack signs only when the subscription is given a secret.',
    },
  ],
}
