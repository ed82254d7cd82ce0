import type { ProviderPack } from './types'

export const shopify: ProviderPack = {
  id: 'shopify',
  label: 'Shopify',
  scheme: 'shopify',
  policy: 'shopify',
  contentType: 'application/json',
  envelope: { kind: 'payload' },
  headers: [
    { name: 'user-agent', value: 'Shopify-Captain-Hook' },
    { name: 'x-shopify-topic', value: '{event_type}' },
    { name: 'x-shopify-shop-domain', value: 'hookloop-test.myshopify.com' },
    { name: 'x-shopify-api-version', value: '2025-01' },
    { name: 'x-shopify-triggered-at', value: '{created_at_iso}' },
    { name: 'x-shopify-event-id', value: '{derived_uuid}' },
  ],
  eventIdHeader: 'x-shopify-webhook-id',
  success: 'any 2xx within 5 s; otherwise retried 8 times over 4 hours',
  sources: [
    {
      title: 'Shopify.dev — Deliver webhooks through HTTPS (headers, verification)',
      url: 'https://shopify.dev/docs/apps/build/webhooks/subscribe/https',
      note: 'Headers X-Shopify-Topic (e.g. orders/create), X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body with the app\'s client secret), X-Shopify-Shop-Domain, X-Shopify-API-Version, X-Shopify-Webhook-Id (unique per delivery), X-Shopify-Triggered-At and X-Shopify-Event-Id. The body is the resource (an order, a product …) as JSON.',
    },
    {
      title: 'Shopify.dev — Webhooks best practices: retries',
      url: 'https://shopify.dev/docs/apps/build/webhooks/best-practices',
      note: 'A 5 s timeout; a failed delivery is retried 8 times over the next 4 hours (intervals unpublished).',
    },
  ],
}
