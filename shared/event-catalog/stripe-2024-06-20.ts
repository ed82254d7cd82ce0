import type { FixtureContext } from './types'

// Stripe's objects at API version 2024-06-20, made from the same objects at the pack's newest
// version (shared/event-catalog/stripe.ts) so that ids keep agreeing within an event. What differs
// follows the `stripe` package's types for that version (stripe 16.12, `stripe-2024-06-20`):
// docs.stripe.com/changelog (2024-09-30.acacia, 2025-03-31.basil and later) moved an invoice's
// subscription, charge and payment intent under `parent` and `payments`, a subscription's current
// period onto its items, and added the fields the newer versions have that this one lacks.

export const STRIPE_2024_06_20 = '2024-06-20'

function omit<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Omit<T, K> {
  const out = { ...value }
  for (const key of keys) delete out[key]
  return out
}

interface PaymentIntentLike {
  allowed_payment_method_types: unknown
  customer_account: unknown
  excluded_payment_method_types: unknown
  managed_payments: unknown
  payment_record: unknown
}

export function paymentIntentAt20240620<T extends PaymentIntentLike>(pi: T) {
  return { ...omit(pi, ['allowed_payment_method_types', 'customer_account', 'excluded_payment_method_types', 'managed_payments', 'payment_record']), invoice: null }
}

interface ChargeLike {
  billing_details: { tax_id: unknown }
  outcome: { advice_code: unknown; network_advice_code: unknown; network_decline_code: unknown }
}

export function chargeAt20240620<T extends ChargeLike>(charge: T) {
  return { ...charge, billing_details: omit(charge.billing_details, ['tax_id']), outcome: omit(charge.outcome, ['advice_code', 'network_advice_code', 'network_decline_code']), invoice: null }
}

interface CheckoutSessionLike {
  adaptive_pricing: unknown
  allowed_payment_method_types: unknown
  collected_information: unknown
  customer_account: unknown
  discounts: unknown
  integration_identifier: unknown
  managed_payments: unknown
  origin_context: unknown
  permissions: unknown
  wallet_options: unknown
  automatic_tax: { provider: unknown }
  customer_details: { business_name: unknown; individual_name: unknown }
}

export function checkoutSessionAt20240620<T extends CheckoutSessionLike>(session: T) {
  const rest = omit(session, ['adaptive_pricing', 'allowed_payment_method_types', 'collected_information', 'customer_account', 'discounts', 'integration_identifier', 'managed_payments', 'origin_context', 'permissions', 'wallet_options'])
  return { ...rest, automatic_tax: omit(session.automatic_tax, ['provider']), customer_details: omit(session.customer_details, ['business_name', 'individual_name']), shipping_details: null }
}

export interface RecurringPriceLike {
  recurring: object
}

/** A price and its plan at 2024-06-20: both still say how metered usage aggregates. */
export function priceAt20240620<T extends RecurringPriceLike>(price: T) {
  return { ...price, recurring: { ...price.recurring, aggregate_usage: null } }
}

export function planAt20240620<T extends object>(plan: T) {
  return { ...plan, aggregate_usage: null }
}

interface SubscriptionItemLike {
  current_period_end: number
  current_period_start: number
  current_trial: unknown
  price: RecurringPriceLike
  plan: object
}

interface SubscriptionLike {
  billing_mode: unknown
  billing_schedules: unknown
  customer_account: unknown
  managed_payments: unknown
  automatic_tax: { disabled_reason: unknown }
  cancellation_details: { feedback_option: unknown }
  invoice_settings: { custom_fields: unknown; description: unknown; footer: unknown }
  items: { data: SubscriptionItemLike[] }
  trial_settings: { end_behavior: { billing_cycle_anchor: unknown } }
}

/** At 2024-06-20 the current period is the subscription's, not its items'. */
export function subscriptionAt20240620<T extends SubscriptionLike>(sub: T) {
  const [first] = sub.items.data
  if (!first) throw new Error('a Stripe subscription has at least one item')
  const items = sub.items.data.map((item) => ({ ...omit(item, ['current_period_end', 'current_period_start', 'current_trial']), price: priceAt20240620(item.price), plan: planAt20240620(item.plan) }))
  return {
    ...omit(sub, ['billing_mode', 'billing_schedules', 'customer_account', 'managed_payments']),
    automatic_tax: omit(sub.automatic_tax, ['disabled_reason']),
    cancellation_details: omit(sub.cancellation_details, ['feedback_option']),
    invoice_settings: omit(sub.invoice_settings, ['custom_fields', 'description', 'footer']),
    items: { ...sub.items, data: items },
    trial_settings: { end_behavior: omit(sub.trial_settings.end_behavior, ['billing_cycle_anchor']) },
    current_period_start: first.current_period_start,
    current_period_end: first.current_period_end,
    discount: null,
  }
}

interface InvoiceLineLike {
  amount: number
  parent: { subscription_item_details: { subscription_item: string; proration: boolean } }
  pretax_credit_amounts: unknown
  pricing: unknown
  quantity_decimal: unknown
  subtotal: unknown
  taxes: unknown
}

interface InvoiceLike {
  amount_overpaid: unknown
  customer_account: unknown
  parent: { subscription_details: { metadata: object; subscription: string } }
  total_pretax_credit_amounts: unknown
  total_taxes: unknown
  automatic_tax: { disabled_reason: unknown; provider: unknown }
  lines: { data: InvoiceLineLike[] }
}

/**
 * At 2024-06-20 an invoice names its subscription, charge and payment intent at the top, and a
 * line its price, plan and proration itself. `price` and `plan` are the subscription's.
 */
export function invoiceAt20240620<T extends InvoiceLike>(ctx: FixtureContext, invoice: T, plan: { price: RecurringPriceLike; plan: object }) {
  const { subscription, metadata } = invoice.parent.subscription_details
  const lines = invoice.lines.data.map((line) => ({
    ...omit(line, ['parent', 'pretax_credit_amounts', 'pricing', 'quantity_decimal', 'subtotal', 'taxes']),
    amount_excluding_tax: line.amount,
    plan: planAt20240620(plan.plan),
    price: priceAt20240620(plan.price),
    proration: line.parent.subscription_item_details.proration,
    proration_details: { credited_items: null },
    subscription_item: line.parent.subscription_item_details.subscription_item,
    tax_amounts: [],
    tax_rates: [],
    type: 'subscription' as const,
    unit_amount_excluding_tax: String(line.amount),
  }))
  return {
    ...omit(invoice, ['amount_overpaid', 'customer_account', 'parent', 'total_pretax_credit_amounts', 'total_taxes']),
    automatic_tax: omit(invoice.automatic_tax, ['disabled_reason', 'provider']),
    lines: { ...invoice.lines, data: lines },
    application_fee_amount: null,
    charge: ctx.id('ch_'),
    discount: null,
    paid: true,
    paid_out_of_band: false,
    payment_intent: ctx.id('pi_'),
    quote: null,
    subscription,
    subscription_details: { metadata },
    tax: null,
    total_tax_amounts: [],
    transfer_data: null,
  }
}
