import { spliced } from './envelope'
import { definePack } from './types'

// Seed provider B documents no signature at all: subscriptions made from this pack get no secret
// (so no signature header) unless one is given; Standard Webhooks then signs.
export const providerB = definePack({
  id: 'provider-b',
  label: 'Provider B (CSKU AI)',
  scheme: 'standard-webhooks',
  unsigned: true,
  policy: 'csku',
  envelope: { kind: 'event-message', payloadPath: 'message', words: '{event, message}', body: (e) => spliced(`{"event":${JSON.stringify(e.eventType)},"message":`, e.payload, '}') },
  success: 'HTTP 200 only, within 5 s; 3 retries 30 s apart, then failed_permanent',
  sources: [['Seed provider B — CSKU AI webhook docs', 'seeds/003 (docs.csku.ai webhooks)', 'Body {event: "message.received", message: {id, …}}; receivers dedupe on `${event}_${message.id}`; 3 retries 30 s apart on a non-2xx or no answer. No signature is documented: the pack signs only when the subscription is given a secret.']],
})
