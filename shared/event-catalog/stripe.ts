import type { CatalogEvent, FixtureContext } from './types'

// Stripe: the payload is the event's `data` ({object, previous_attributes?}); the envelope adds
// id, type, created, api_version … Objects follow docs.stripe.com/api (PaymentIntent, Charge,
// Checkout Session, Subscription, Invoice), test-mode values.

function paymentIntent(ctx: FixtureContext, status: 'succeeded' | 'requires_payment_method') {
  const id = ctx.id('pi_')
  const failed = status !== 'succeeded'
  return {
    id,
    object: 'payment_intent',
    amount: 2000,
    amount_capturable: 0,
    amount_received: failed ? 0 : 2000,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${ctx.id('', 25)}`,
    confirmation_method: 'automatic',
    created: ctx.unix(-5_000),
    currency: 'usd',
    customer: ctx.id('cus_', 14),
    description: 'Hookloop test payment',
    last_payment_error: failed
      ? { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.', type: 'card_error' }
      : null,
    latest_charge: failed ? null : ctx.id('ch_'),
    livemode: false,
    metadata: { order_id: ctx.digits(6) },
    payment_method: ctx.id('pm_'),
    payment_method_types: ['card'],
    status,
  }
}

// `as const`: each entry keeps its literal type, so test/unit/providers/catalog-types.test.ts can check
// each payload against the provider's published type by event type.
export const stripeEvents = [
  { type: 'payment_intent.succeeded', description: 'A PaymentIntent was paid in full.', payload: (ctx) => ({ object: paymentIntent(ctx, 'succeeded') }) },
  {
    type: 'payment_intent.payment_failed',
    description: 'A payment attempt failed (card declined: insufficient funds).',
    payload: (ctx) => ({ object: paymentIntent(ctx, 'requires_payment_method') }),
  },
  {
    type: 'charge.succeeded',
    description: 'A charge was created and captured.',
    payload: (ctx) => ({
      object: {
        id: ctx.id('ch_'),
        object: 'charge',
        amount: 2000,
        amount_captured: 2000,
        amount_refunded: 0,
        balance_transaction: ctx.id('txn_'),
        captured: true,
        created: ctx.unix(),
        currency: 'usd',
        customer: ctx.id('cus_', 14),
        livemode: false,
        paid: true,
        payment_intent: ctx.id('pi_'),
        payment_method: ctx.id('pm_'),
        receipt_url: `https://pay.stripe.com/receipts/${ctx.id('', 40)}`,
        refunded: false,
        status: 'succeeded',
      },
    }),
  },
  {
    type: 'checkout.session.completed',
    description: 'A Checkout Session was completed (paid).',
    payload: (ctx) => ({
      object: {
        id: ctx.id('cs_test_', 58),
        object: 'checkout.session',
        amount_subtotal: 2000,
        amount_total: 2000,
        client_reference_id: null,
        created: ctx.unix(-60_000),
        currency: 'usd',
        customer: ctx.id('cus_', 14),
        customer_details: { email: 'jenny.rosen@example.com', name: 'Jenny Rosen', phone: null, tax_exempt: 'none', tax_ids: [], address: null },
        expires_at: ctx.unix(86_400_000),
        livemode: false,
        metadata: {},
        mode: 'payment',
        payment_intent: ctx.id('pi_'),
        payment_status: 'paid',
        status: 'complete',
        success_url: 'https://example.com/success',
        url: null,
      },
    }),
  },
  {
    type: 'customer.subscription.created',
    description: 'A customer started a subscription.',
    payload: (ctx) => ({
      object: {
        id: ctx.id('sub_'),
        object: 'subscription',
        billing_cycle_anchor: ctx.unix(),
        cancel_at_period_end: false,
        collection_method: 'charge_automatically',
        created: ctx.unix(),
        currency: 'usd',
        customer: ctx.id('cus_', 14),
        latest_invoice: ctx.id('in_'),
        livemode: false,
        metadata: {},
        start_date: ctx.unix(),
        status: 'active',
      },
    }),
  },
  {
    type: 'invoice.paid',
    description: 'An invoice was paid (a subscription renewed).',
    payload: (ctx) => ({
      object: {
        id: ctx.id('in_'),
        object: 'invoice',
        account_country: 'US',
        amount_due: 1500,
        amount_paid: 1500,
        amount_remaining: 0,
        attempt_count: 1,
        attempted: true,
        billing_reason: 'subscription_cycle',
        collection_method: 'charge_automatically',
        created: ctx.unix(-3_600_000),
        currency: 'usd',
        customer: ctx.id('cus_', 14),
        customer_email: 'jenny.rosen@example.com',
        livemode: false,
        number: `HOOK-${ctx.digits(4)}`,
        status: 'paid',
      },
    }),
  },
] as const satisfies readonly CatalogEvent[]
