import type { ProviderPack } from './types'

export const stripe: ProviderPack = {
  id: 'stripe',
  label: 'Stripe',
  scheme: 'stripe',
  policy: 'stripe',
  contentType: 'application/json; charset=utf-8',
  envelope: { kind: 'stripe', api_version: '2024-06-20' },
  headers: [
    { name: 'user-agent', value: 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
    { name: 'cache-control', value: 'no-cache' },
    { name: 'accept', value: '*/*; q=0.5, application/xml' },
  ],
  eventIdHeader: 'x-hookloop-event-id',
  success: 'any 2xx; everything else is retried for up to three days',
  sources: [
    {
      title: 'Stripe Docs — The Event object',
      url: 'https://docs.stripe.com/api/events/object',
      note: 'Body: {id: "evt_…", object: "event", api_version, created (Unix s), data: {object, previous_attributes?}, livemode, pending_webhooks, request: {id, idempotency_key}, type}. Stripe sends no id header: the event id is the body\'s id (Hookloop adds x-hookloop-event-id for its own timeline).',
    },
    {
      title: 'Stripe Docs — Receive Stripe events in your webhook endpoint',
      url: 'https://docs.stripe.com/webhooks',
      note: 'Stripe-Signature: t=<Unix s>,v1=<hex HMAC-SHA256 of "t.body">; 2xx acknowledges; live mode retries for up to three days with exponential backoff (exact intervals unpublished).',
    },
  ],
}
