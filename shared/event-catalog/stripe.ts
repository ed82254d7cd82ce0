import { chargeAt20240620, checkoutSessionAt20240620, invoiceAt20240620, paymentIntentAt20240620, STRIPE_2024_06_20, subscriptionAt20240620 } from './stripe-2024-06-20'
import type { CatalogEvent, FixtureContext } from './types'

// Stripe: the payload is the event's `data` ({object, previous_attributes?}); the envelope adds
// id, type, created, api_version … Each object is whole, as Stripe sends it: every field the
// `stripe` package's types (at the API version the pack declares) require, with null where the
// object has nothing, following docs.stripe.com/api (PaymentIntent, Charge, Checkout Session,
// Subscription, Invoice objects), test-mode values. Ids that refer to each other agree within an
// event (a PaymentIntent's latest_charge and its customer, an invoice's customer, subscription and
// lines); every id is fresh per send. The objects here are the pack's newest API version's
// (2026-10-28.endive); at 2024-06-20 (`ctx.apiVersion`) they are made over by
// ./stripe-2024-06-20.ts into that version's shape.

const address = { city: 'San Francisco', country: 'US', line1: '510 Townsend St', line2: null, postal_code: '94103', state: 'CA' }

function billingDetails() {
  return { address, email: 'jenny.rosen@example.com', name: 'Jenny Rosen', phone: null, tax_id: null }
}

/** The ids one event's objects share. */
function ids(ctx: FixtureContext) {
  return { customer: ctx.id('cus_', 14), paymentIntent: ctx.id('pi_'), charge: ctx.id('ch_'), paymentMethod: ctx.id('pm_') }
}

function paymentIntent(ctx: FixtureContext, status: 'succeeded' | 'requires_payment_method') {
  const { customer, paymentIntent: id, charge, paymentMethod } = ids(ctx)
  const failed = status !== 'succeeded'
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: 2000,
    amount_capturable: 0,
    amount_received: failed ? 0 : 2000,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: 'always', enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${ctx.id('', 25)}`,
    confirmation_method: 'automatic',
    created: ctx.unix(-5_000),
    currency: 'usd',
    customer,
    customer_account: null,
    description: 'Hookloop test payment',
    excluded_payment_method_types: null,
    last_payment_error: failed
      ? { code: 'card_declined', decline_code: 'insufficient_funds', doc_url: 'https://docs.stripe.com/error-codes/card-declined', message: 'Your card has insufficient funds.', type: 'card_error', charge }
      : null,
    latest_charge: charge,
    livemode: false,
    managed_payments: null,
    metadata: { order_id: ctx.digits(6) },
    next_action: null,
    on_behalf_of: null,
    payment_method: failed ? null : paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
  }
}

function charge(ctx: FixtureContext) {
  const { customer, paymentIntent, charge: id, paymentMethod } = ids(ctx)
  return {
    id,
    object: 'charge',
    amount: 2000,
    amount_captured: 2000,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: ctx.id('txn_'),
    billing_details: billingDetails(),
    calculated_statement_descriptor: 'HOOKLOOP',
    captured: true,
    created: ctx.unix(),
    currency: 'usd',
    customer,
    description: 'Hookloop test payment',
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: { advice_code: null, network_advice_code: null, network_decline_code: null, network_status: 'approved_by_network', reason: null, risk_level: 'normal', risk_score: 32, seller_message: 'Payment complete.', type: 'authorized' },
    paid: true,
    payment_intent: paymentIntent,
    payment_method: paymentMethod,
    payment_method_details: { type: 'card' },
    receipt_email: null,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/${ctx.id('', 40)}`,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  }
}

function checkoutSession(ctx: FixtureContext) {
  const { customer, paymentIntent } = ids(ctx)
  const id = ctx.id('cs_test_', 58)
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: 2000,
    amount_total: 2000,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: 'https://example.com/cancel',
    client_reference_id: null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: ctx.unix(-60_000),
    currency: 'usd',
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: { address, business_name: null, email: 'jenny.rosen@example.com', individual_name: null, name: 'Jenny Rosen', phone: null, tax_exempt: 'none', tax_ids: [] },
    customer_email: null,
    discounts: [],
    expires_at: ctx.unix(86_400_000),
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: {},
    mode: 'payment',
    origin_context: null,
    payment_intent: paymentIntent,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'paid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'complete',
    submit_type: null,
    subscription: null,
    success_url: 'https://example.com/success',
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: null,
    wallet_options: null,
  }
}

/** A monthly plan: the price, its product and the period one invoice or subscription covers. */
function monthly(ctx: FixtureContext) {
  const product = ctx.id('prod_', 14)
  const created = ctx.unix(-86_400_000 * 60)
  const price = { id: ctx.id('price_'), object: 'price', active: true, billing_scheme: 'per_unit', created, currency: 'usd', custom_unit_amount: null, livemode: false, lookup_key: null, metadata: {}, nickname: null, product, recurring: { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' }, tax_behavior: 'unspecified', tiers_mode: null, transform_quantity: null, type: 'recurring', unit_amount: 1500, unit_amount_decimal: null }
  const plan = { id: price.id, object: 'plan', active: true, amount: 1500, amount_decimal: null, billing_scheme: 'per_unit', created, currency: 'usd', interval: 'month', interval_count: 1, livemode: false, metadata: {}, meter: null, nickname: null, product, tiers_mode: null, transform_usage: null, trial_period_days: null, usage_type: 'licensed' }
  return { price, plan, start: ctx.unix(), end: ctx.unix(86_400_000 * 30) }
}

function subscription(ctx: FixtureContext, customer: string, id: string, latestInvoice: string) {
  const { price, plan, start, end } = monthly(ctx)
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: start,
    currency: 'usd',
    customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: ctx.id('pm_'),
    default_source: null,
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [{ id: ctx.id('si_', 14), object: 'subscription_item', billing_thresholds: null, created: start, current_period_end: end, current_period_start: start, current_trial: null, discounts: [], metadata: {}, plan, price, quantity: 1, subscription: id, tax_rates: [] }],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: null,
  }
}

function invoice(ctx: FixtureContext, month: ReturnType<typeof monthly> = monthly(ctx)) {
  const customer = ctx.id('cus_', 14)
  const sub = ctx.id('sub_')
  const id = ctx.id('in_')
  const { price, start, end } = month
  const subscriptionDetails = { metadata: {}, subscription: sub }
  const line = {
    id: ctx.id('il_'),
    object: 'line_item',
    amount: 1500,
    currency: 'usd',
    description: '1 × Hookloop Pro (at $15.00 / month)',
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: { invoice_item_details: null, subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: sub, subscription_item: ctx.id('si_', 14) }, type: 'subscription_item_details' },
    period: { end, start },
    pretax_credit_amounts: [],
    pricing: { price_details: { price: price.id, product: price.product }, type: 'price_details', unit_amount_decimal: null },
    quantity: 1,
    quantity_decimal: null,
    subscription: sub,
    subtotal: 1500,
    taxes: [],
  }
  const paidAt = ctx.unix()
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Hookloop Test Account',
    account_tax_ids: null,
    amount_due: 1500,
    amount_overpaid: 0,
    amount_paid: 1500,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    auto_advance: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: 'subscription_cycle',
    collection_method: 'charge_automatically',
    created: ctx.unix(-3_600_000),
    currency: 'usd',
    custom_fields: null,
    customer,
    customer_account: null,
    customer_address: null,
    customer_email: 'jenny.rosen@example.com',
    customer_name: 'Jenny Rosen',
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: ctx.unix(-3_600_000),
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_test/${ctx.id('test_', 40)}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_test/${ctx.id('test_', 40)}/pdf`,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `HOOK-${ctx.digits(4)}`,
    on_behalf_of: null,
    parent: { quote_details: null, subscription_details: subscriptionDetails, type: 'subscription_details' },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: start,
    period_start: ctx.unix(-86_400_000 * 30),
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'paid',
    status_transitions: { finalized_at: ctx.unix(-3_600_000), marked_uncollectible_at: null, paid_at: paidAt, voided_at: null },
    subtotal: 1500,
    subtotal_excluding_tax: 1500,
    test_clock: null,
    total: 1500,
    total_discount_amounts: [],
    total_excluding_tax: 1500,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  }
}

/** The objects at the pack's newest API version, for test/unit/providers/catalog-types.test.ts. */
export const stripeObjects = { paymentIntent, charge, checkoutSession, subscription, invoice }

const at20240620 = (ctx: FixtureContext): boolean => ctx.apiVersion === STRIPE_2024_06_20

function paymentIntentAt(ctx: FixtureContext, status: 'succeeded' | 'requires_payment_method') {
  const pi = paymentIntent(ctx, status)
  return at20240620(ctx) ? paymentIntentAt20240620(pi) : pi
}

function subscriptionAt(ctx: FixtureContext) {
  const sub = subscription(ctx, ctx.id('cus_', 14), ctx.id('sub_'), ctx.id('in_'))
  return at20240620(ctx) ? subscriptionAt20240620(sub) : sub
}

function invoiceAt(ctx: FixtureContext) {
  const month = monthly(ctx)
  const paid = invoice(ctx, month)
  return at20240620(ctx) ? invoiceAt20240620(ctx, paid, month) : paid
}

// `as const`: each entry keeps its literal type.
export const stripeEvents = [
  // Object: Stripe.PaymentIntent (docs.stripe.com/api/payment_intents/object).
  { type: 'payment_intent.succeeded', description: 'A PaymentIntent was paid in full.', payload: (ctx) => ({ object: paymentIntentAt(ctx, 'succeeded') }) },
  {
    type: 'payment_intent.payment_failed',
    description: 'A payment attempt failed (card declined: insufficient funds).',
    // Object: Stripe.PaymentIntent; last_payment_error names the declined charge, latest_charge.
    payload: (ctx) => ({ object: paymentIntentAt(ctx, 'requires_payment_method') }),
  },
  // Object: Stripe.Charge (docs.stripe.com/api/charges/object).
  { type: 'charge.succeeded', description: 'A charge was created and captured.', payload: (ctx) => ({ object: at20240620(ctx) ? chargeAt20240620(charge(ctx)) : charge(ctx) }) },
  // Object: Stripe.Checkout.Session (docs.stripe.com/api/checkout/sessions/object).
  { type: 'checkout.session.completed', description: 'A Checkout Session was completed (paid).', payload: (ctx) => ({ object: at20240620(ctx) ? checkoutSessionAt20240620(checkoutSession(ctx)) : checkoutSession(ctx) }) },
  // Object: Stripe.Subscription (docs.stripe.com/api/subscriptions/object); its items name it.
  { type: 'customer.subscription.created', description: 'A customer started a subscription.', payload: (ctx) => ({ object: subscriptionAt(ctx) }) },
  // Object: Stripe.Invoice (docs.stripe.com/api/invoices/object); parent (2024-06-20: subscription) and lines name one subscription.
  { type: 'invoice.paid', description: 'An invoice was paid (a subscription renewed).', payload: (ctx) => ({ object: invoiceAt(ctx) }) },
] as const satisfies readonly CatalogEvent[]
