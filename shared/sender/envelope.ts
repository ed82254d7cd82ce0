// The body shape a subscription sends. 'event' is Hookloop's own envelope (seed provider A's
// `{event_id, event_type, payload}`); 'payload' sends the event's payload as the whole body, the
// way seed provider B does (`{"event": "message.received", "message": {...}}`). Either way the
// event id also travels in the subscription's event-id header.

export const ENVELOPES = ['event', 'payload'] as const
export type Envelope = (typeof ENVELOPES)[number]

export function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'string' && (ENVELOPES as readonly string[]).includes(value)
}
