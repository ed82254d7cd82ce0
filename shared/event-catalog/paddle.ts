import type { CatalogEvent, FixtureContext } from './types'

// Paddle Billing: the payload is the notification's `data` (the entity), as in
// developer.paddle.com's webhook reference and the notification types @paddle/paddle-node-sdk
// publishes for what `webhooks.unmarshal` reads (`ITransactionNotificationResponse`,
// `ISubscriptionCreatedNotificationResponse`, `ISubscriptionNotificationResponse`,
// `ICustomerNotificationResponse`): every required field. Within an event one customer, address,
// product and price; a transaction's items, line items and payment agree on amounts.

/** A Paddle id: its entity prefix and 26 lower-case alphanumerics (`txn_01h…`). */
const paddleId = (ctx: FixtureContext, prefix: string): string => `${prefix}_${ctx.id('01', 24).toLowerCase()}`

const MONTH = 86_400_000 * 30
const PLAN_AMOUNT = 3000
const TAX_RATE = 0.08

/** The one product and price an event's customer buys. */
function catalog(ctx: FixtureContext) {
  const created = ctx.iso(-86_400_000 * 90)
  const product = { id: paddleId(ctx, 'pro'), name: 'Hookloop Team', type: 'standard', description: 'Webhook testing for teams.', tax_category: 'standard', image_url: null, custom_data: null, status: 'active', created_at: created, updated_at: created, import_meta: null }
  const price = {
    id: paddleId(ctx, 'pri'),
    product_id: product.id,
    description: 'Monthly',
    type: 'standard',
    name: 'Monthly plan',
    billing_cycle: { interval: 'month', frequency: 1 },
    trial_period: null,
    tax_mode: 'account_setting',
    unit_price: { amount: String(PLAN_AMOUNT), currency_code: 'USD' },
    unit_price_overrides: [],
    quantity: { minimum: 1, maximum: 100 },
    status: 'active',
    custom_data: null,
    import_meta: null,
    created_at: created,
    updated_at: created,
  }
  return { product, price }
}

// ITransactionNotificationResponse: a subscription's monthly transaction, paid by card.
function transaction(ctx: FixtureContext, status: 'paid' | 'completed') {
  const { product, price } = catalog(ctx)
  const tax = Math.round(PLAN_AMOUNT * TAX_RATE)
  const total = PLAN_AMOUNT + tax
  const fee = Math.round(total * 0.05) + 50
  const totals = { subtotal: String(PLAN_AMOUNT), discount: '0', tax: String(tax), total: String(total) }
  const billed = ctx.iso(-5_000)
  return {
    id: paddleId(ctx, 'txn'),
    status,
    customer_id: paddleId(ctx, 'ctm'),
    address_id: paddleId(ctx, 'add'),
    business_id: null,
    custom_data: null,
    origin: 'subscription_recurring',
    collection_mode: 'automatic',
    subscription_id: paddleId(ctx, 'sub'),
    invoice_id: paddleId(ctx, 'inv'),
    invoice_number: `325-${ctx.digits(5)}`,
    billing_details: null,
    billing_period: { starts_at: ctx.iso(), ends_at: ctx.iso(MONTH) },
    currency_code: 'USD',
    discount_id: null,
    created_at: ctx.iso(-10_000),
    updated_at: ctx.iso(),
    billed_at: billed,
    revised_at: null,
    items: [{ price_id: price.id, price, quantity: 1, proration: null }],
    details: {
      tax_rates_used: [{ tax_rate: String(TAX_RATE), totals }],
      totals: { ...totals, credit: '0', credit_to_balance: '0', balance: '0', grand_total: String(total), grand_total_tax: String(tax), fee: String(fee), earnings: String(total - fee), currency_code: 'USD' },
      adjusted_totals: null,
      payout_totals: null,
      adjusted_payout_totals: null,
      line_items: [{ id: paddleId(ctx, 'txnitm'), price_id: price.id, quantity: 1, proration: null, tax_rate: String(TAX_RATE), unit_totals: totals, totals, product }],
    },
    payments: [
      {
        payment_attempt_id: ctx.uuid(),
        stored_payment_method_id: ctx.uuid(),
        payment_method_id: paddleId(ctx, 'paymtd'),
        amount: String(total),
        status: 'captured',
        error_code: null,
        method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, cardholder_name: 'Sam Miller' }, paypal: null, south_korea_local_card: null, underlying_details: null },
        created_at: billed,
        captured_at: ctx.iso(-2_000),
      },
    ],
    checkout: { url: null },
  }
}

// A subscription item's price and product carry no timestamps of their own (the SDK's
// ISubscriptionPriceNotificationResponse and IProductNotificationResponse).
function subscriptionPrice({ created_at: _created, updated_at: _updated, ...price }: ReturnType<typeof catalog>['price']) {
  return price
}

function subscriptionProduct({ updated_at: _updated, ...product }: ReturnType<typeof catalog>['product']) {
  return { ...product, prices: null }
}

// ISubscriptionCreatedNotificationResponse / ISubscriptionNotificationResponse.
function subscription(ctx: FixtureContext, status: 'active' | 'canceled') {
  const { product, price } = catalog(ctx)
  const started = ctx.iso(status === 'active' ? 0 : -MONTH)
  const active = status === 'active'
  return {
    id: paddleId(ctx, 'sub'),
    status,
    ...(active ? { transaction_id: paddleId(ctx, 'txn') } : {}),
    customer_id: paddleId(ctx, 'ctm'),
    address_id: paddleId(ctx, 'add'),
    business_id: null,
    currency_code: 'USD',
    created_at: started,
    updated_at: ctx.iso(),
    started_at: started,
    first_billed_at: started,
    next_billed_at: active ? ctx.iso(MONTH) : null,
    paused_at: null,
    canceled_at: active ? null : ctx.iso(),
    discount: null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: active ? { starts_at: started, ends_at: ctx.iso(MONTH) } : null,
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [{ status: active ? 'active' : 'inactive', quantity: 1, recurring: true, created_at: started, updated_at: ctx.iso(), previously_billed_at: started, next_billed_at: active ? ctx.iso(MONTH) : null, trial_dates: null, price: subscriptionPrice(price), product: subscriptionProduct(product) }],
    custom_data: null,
    import_meta: null,
  }
}

// ICustomerNotificationResponse.
function customer(ctx: FixtureContext) {
  return { id: paddleId(ctx, 'ctm'), name: 'Sam Miller', email: 'sam@example.com', marketing_consent: false, status: 'active', custom_data: null, locale: 'en', created_at: ctx.iso(), updated_at: ctx.iso(), import_meta: null }
}

export const paddleEvents: CatalogEvent[] = [
  { type: 'transaction.completed', description: 'A transaction was paid and fully processed.', payload: (ctx) => transaction(ctx, 'completed') },
  { type: 'transaction.paid', description: 'A transaction was paid.', payload: (ctx) => transaction(ctx, 'paid') },
  { type: 'subscription.created', description: 'A subscription was created.', payload: (ctx) => subscription(ctx, 'active') },
  { type: 'subscription.canceled', description: 'A subscription was canceled.', payload: (ctx) => subscription(ctx, 'canceled') },
  { type: 'customer.created', description: 'A customer was created.', payload: customer },
]
