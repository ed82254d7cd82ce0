import { json, parsed, unixS } from './envelope'
import { definePack, type ProviderEnvelope } from './types'

// The API version the `stripe` package's types describe: the catalog's objects follow its shapes
// (an invoice names its subscription under parent.subscription_details, as since 2025-03-31).
const envelope: ProviderEnvelope & { apiVersion: string } = {
  kind: 'stripe',
  apiVersion: '2026-10-28.endive',
  payloadPath: 'data',
  words: 'a Stripe Event object (evt_…) around data.object',
  body: (e, derive) =>
    json({
      id: `evt_${derive.token(e.eventId, 'stripe', 24, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}`,
      object: 'event',
      api_version: e.apiVersion ?? envelope.apiVersion,
      created: unixS(e.createdAt),
      data: parsed(e.payload),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: e.eventType,
    }),
}

export const stripe = definePack({
  id: 'stripe',
  label: 'Stripe',
  contentType: 'application/json; charset=utf-8',
  envelope,
  // A subscription picks one; its events' api_version says which, and the payload follows it: at
  // 2024-06-20 (the one `stripe` 16's types describe) an invoice names its subscription, charge
  // and payment intent at the top.
  apiVersions: ['2026-10-28.endive', '2024-06-20'],
  headers: { 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', 'cache-control': 'no-cache', accept: '*/*; q=0.5, application/xml' },
  success: 'any 2xx; everything else is retried for up to three days',
  sources: [
    ['Stripe Docs — The Event object', 'https://docs.stripe.com/api/events/object', 'Body: {id: "evt_…", object: "event", api_version, created (Unix s), data: {object, previous_attributes?}, livemode, pending_webhooks, request: {id, idempotency_key}, type}. Stripe sends no id header: the event id is the body\'s id (Hookloop adds x-hookloop-event-id for its own timeline).'],
    ['Stripe Docs — Receive Stripe events in your webhook endpoint', 'https://docs.stripe.com/webhooks', 'Stripe-Signature: t=<Unix s>,v1=<hex HMAC-SHA256 of "t.body">; 2xx acknowledges; live mode retries for up to three days with exponential backoff (exact intervals unpublished).'],
  ],
})
