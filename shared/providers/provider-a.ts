import { spliced } from './envelope'
import { definePack } from './types'

// Seed provider A names no signature scheme ("verify signature" only): Standard Webhooks is the
// pack's default; a subscription chooses another scheme freely.
export const providerA = definePack({
  id: 'provider-a',
  label: 'Provider A (Pandoktorek)',
  scheme: 'standard-webhooks',
  policy: 'pandoktorek',
  envelope: { kind: 'hookloop', payloadPath: 'payload', words: '{event_id, event_type, payload}', body: (e) => spliced(`{"event_id":${JSON.stringify(e.eventId)},"event_type":${JSON.stringify(e.eventType)},"payload":`, e.payload, '}') },
  eventIdHeader: 'x-pandoktorek-event-id',
  success: '200/201/204 (any 2xx); 301/302 and 4xx are final; 5xx, timeout, refused and DNS failures retried, min(2^N, 360) min apart, 10 attempts',
  sources: [['Seed provider A — Webhook delivery, idempotency by event_id', 'seeds/001 (Pandoktorek integrator docs)', 'Every webhook has a UUID v4 event_id in the body and in X-Pandoktorek-Event-Id; body {event_id, event_type, payload}; the same event may be retried after a timeout, so receivers dedupe on event_id. The signature scheme is not named.']],
})
