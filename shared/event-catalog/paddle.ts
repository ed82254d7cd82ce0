import type { CatalogEvent, FixtureContext } from './types'

// Paddle Billing: the payload is the notification's `data` (the entity), as in
// developer.paddle.com's webhook reference (transaction, subscription, customer entities).

function customer(ctx: FixtureContext) {
  return { id: ctx.id('ctm_', 26).toLowerCase(), name: 'Sam Miller', email: 'sam@example.com', marketing_consent: false, status: 'active', custom_data: null, locale: 'en', created_at: ctx.iso(), updated_at: ctx.iso(), import_meta: null }
}

function price(ctx: FixtureContext) {
  return { id: ctx.id('pri_', 26).toLowerCase(), product_id: ctx.id('pro_', 26).toLowerCase(), description: 'Monthly', type: 'standard', name: 'Monthly plan', billing_cycle: { interval: 'month', frequency: 1 }, trial_period: null, tax_mode: 'account_setting', unit_price: { amount: '3000', currency_code: 'USD' }, unit_price_overrides: [], quantity: { minimum: 1, maximum: 100 }, status: 'active', custom_data: null, import_meta: null, created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(-86_400_000) }
}

function transaction(ctx: FixtureContext, status: 'paid' | 'completed') {
  return {
    id: ctx.id('txn_', 26).toLowerCase(),
    status,
    customer_id: ctx.id('ctm_', 26).toLowerCase(),
    address_id: ctx.id('add_', 26).toLowerCase(),
    business_id: null,
    custom_data: null,
    origin: 'web',
    collection_mode: 'automatic',
    subscription_id: ctx.id('sub_', 26).toLowerCase(),
    invoice_id: null,
    invoice_number: null,
    billing_details: null,
    billing_period: { starts_at: ctx.iso(), ends_at: ctx.iso(86_400_000 * 30) },
    currency_code: 'USD',
    discount_id: null,
    created_at: ctx.iso(-5_000),
    updated_at: ctx.iso(),
    billed_at: ctx.iso(-5_000),
    items: [{ price: price(ctx), quantity: 1, proration: null }],
    details: null,
    payments: [],
    checkout: { url: 'https://example.com/pay?_ptxn=txn_01' },
  }
}

function subscription(ctx: FixtureContext, status: 'active' | 'canceled') {
  return {
    id: ctx.id('sub_', 26).toLowerCase(),
    status,
    customer_id: ctx.id('ctm_', 26).toLowerCase(),
    address_id: ctx.id('add_', 26).toLowerCase(),
    business_id: null,
    currency_code: 'USD',
    created_at: ctx.iso(-86_400_000),
    updated_at: ctx.iso(),
    started_at: ctx.iso(-86_400_000),
    first_billed_at: ctx.iso(-86_400_000),
    next_billed_at: status === 'active' ? ctx.iso(86_400_000 * 29) : null,
    paused_at: null,
    canceled_at: status === 'canceled' ? ctx.iso() : null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: status === 'active' ? { starts_at: ctx.iso(-86_400_000), ends_at: ctx.iso(86_400_000 * 29) } : null,
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [{ status: 'active', quantity: 1, recurring: true, created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(), previously_billed_at: ctx.iso(-86_400_000), next_billed_at: null, trial_dates: null, price: price(ctx) }],
    custom_data: null,
    import_meta: null,
    discount: null,
  }
}

export const paddleEvents: CatalogEvent[] = [
  { type: 'transaction.completed', description: 'A transaction was paid and fully processed.', payload: (ctx) => transaction(ctx, 'completed') },
  { type: 'transaction.paid', description: 'A transaction was paid.', payload: (ctx) => transaction(ctx, 'paid') },
  { type: 'subscription.created', description: 'A subscription was created.', payload: (ctx) => subscription(ctx, 'active') },
  { type: 'subscription.canceled', description: 'A subscription was canceled.', payload: (ctx) => subscription(ctx, 'canceled') },
  { type: 'customer.created', description: 'A customer was created.', payload: (ctx) => customer(ctx) },
]
