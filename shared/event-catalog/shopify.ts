import type { CatalogEvent, FixtureContext } from './types'

// Shopify: the payload is the whole body, the resource of the topic (X-Shopify-Topic), as in
// shopify.dev's webhook topic reference (REST Admin resource shapes).

function customer(ctx: FixtureContext) {
  return { id: Number(ctx.digits(13)), email: 'bob.norman@example.com', first_name: 'Bob', last_name: 'Norman', state: 'enabled', verified_email: true, currency: 'USD', created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(), admin_graphql_api_id: `gid://shopify/Customer/${ctx.digits(13)}` }
}

function order(ctx: FixtureContext, financial: 'pending' | 'paid') {
  const id = Number(ctx.digits(13))
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${ctx.digits(4)}`,
    order_number: Number(ctx.digits(4)),
    email: 'bob.norman@example.com',
    created_at: ctx.iso(-1_000),
    updated_at: ctx.iso(),
    processed_at: ctx.iso(-1_000),
    currency: 'USD',
    financial_status: financial,
    fulfillment_status: null,
    subtotal_price: '199.00',
    total_tax: '0.00',
    total_price: '199.00',
    test: true,
    customer: customer(ctx),
    line_items: [{ id: Number(ctx.digits(13)), title: 'IPod Nano - 8GB', quantity: 1, price: '199.00', sku: 'IPOD2008PINK', product_id: Number(ctx.digits(9)), variant_id: Number(ctx.digits(9)), requires_shipping: true, taxable: true }],
  }
}

// `as const`: each entry keeps its literal type, so test/unit/providers/catalog-types.test.ts can check
// each payload against the provider's published type by event type.
export const shopifyEvents = [
  { type: 'orders/create', description: 'An order was placed.', payload: (ctx) => order(ctx, 'pending') },
  { type: 'orders/paid', description: 'An order was paid.', payload: (ctx) => order(ctx, 'paid') },
  {
    type: 'products/update',
    description: 'A product was changed.',
    payload: (ctx) => {
      const id = Number(ctx.digits(9))
      return { id, admin_graphql_api_id: `gid://shopify/Product/${id}`, title: 'IPod Nano - 8GB', body_html: '<p>It\u2019s the small iPod.</p>', vendor: 'Apple', product_type: 'Cult Products', handle: 'ipod-nano', status: 'active', tags: 'Emotive, Flash Memory', created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(), published_at: ctx.iso(-86_400_000), variants: [{ id: Number(ctx.digits(9)), product_id: id, title: 'Pink', price: '199.00', sku: 'IPOD2008PINK', inventory_quantity: 10 }] }
    },
  },
  { type: 'customers/create', description: 'A customer account was created.', payload: (ctx) => customer(ctx) },
  {
    type: 'refunds/create',
    description: 'A refund was issued on an order.',
    payload: (ctx) => ({ id: Number(ctx.digits(12)), order_id: Number(ctx.digits(13)), created_at: ctx.iso(), note: 'Damaged in transit', restock: true, processed_at: ctx.iso(), admin_graphql_api_id: `gid://shopify/Refund/${ctx.digits(12)}`, transactions: [{ id: Number(ctx.digits(13)), kind: 'refund', status: 'success', amount: '199.00', currency: 'USD', gateway: 'bogus' }], refund_line_items: [] }),
  },
  { type: 'app/uninstalled', description: 'The app was uninstalled from a shop.', payload: (ctx) => ({ id: Number(ctx.digits(9)), name: 'Hookloop Test Shop', email: 'owner@example.com', domain: 'hookloop-test.myshopify.com', myshopify_domain: 'hookloop-test.myshopify.com', plan_name: 'partner_test', created_at: ctx.iso(-86_400_000 * 10), updated_at: ctx.iso() }) },
] as const satisfies readonly CatalogEvent[]
