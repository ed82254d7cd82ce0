import type { CatalogEvent, FixtureContext } from './types'

// Square: the payload is `data` ({type, id, object: {<type>: …}}) of the notification; shapes
// follow developer.squareup.com's webhook events reference (Payments, Refunds, Orders, Customers)
// and the `square` package's wire schemas at the Square-Version it is generated for
// (`PaymentCreatedEvent`, `PaymentUpdatedEvent`, `RefundCreatedEvent`, `OrderCreatedEvent`,
// `CustomerCreatedEvent`): a payment carries a `version_token`, not a `version`; a refund neither.

const money = (amount: number) => ({ amount, currency: 'USD' })

// PaymentCreatedEvent / PaymentUpdatedEvent's data: a card payment, approved then captured.
function payment(ctx: FixtureContext, status: 'APPROVED' | 'COMPLETED') {
  const id = ctx.id('', 28)
  return { type: 'payment', id, object: { payment: { id, amount_money: money(1500), total_money: money(1500), approved_money: money(1500), status, source_type: 'CARD', location_id: 'LHOOKLOOP0001', order_id: ctx.id('', 28), created_at: ctx.iso(-2_000), updated_at: ctx.iso(), version_token: ctx.id('', 40), card_details: { status: status === 'APPROVED' ? 'AUTHORIZED' : 'CAPTURED', card: { card_brand: 'VISA', last_4: '1111', exp_month: 12, exp_year: 2030 }, entry_method: 'KEYED' } } } }
}

export const squareEvents: CatalogEvent[] = [
  { type: 'payment.created', description: 'A payment was created (approved).', payload: (ctx) => payment(ctx, 'APPROVED') },
  { type: 'payment.updated', description: 'A payment was completed.', payload: (ctx) => payment(ctx, 'COMPLETED') },
  {
    type: 'refund.created',
    description: 'A refund was requested.',
    // RefundCreatedEvent's data: a PaymentRefund.
    payload: (ctx) => {
      const id = ctx.id('', 28)
      return { type: 'refund', id, object: { refund: { id, amount_money: money(500), status: 'PENDING', payment_id: ctx.id('', 28), location_id: 'LHOOKLOOP0001', order_id: ctx.id('', 28), reason: 'Returned item', created_at: ctx.iso(), updated_at: ctx.iso() } } }
    },
  },
  {
    type: 'order.created',
    description: 'An order was created.',
    // OrderCreatedEvent's data: an OrderCreated (the order's id, state and version only).
    payload: (ctx) => {
      const id = ctx.id('', 28)
      return { type: 'order_created', id, object: { order_created: { order_id: id, location_id: 'LHOOKLOOP0001', state: 'OPEN', version: 1, created_at: ctx.iso() } } }
    },
  },
  {
    type: 'customer.created',
    description: 'A customer profile was created.',
    // CustomerCreatedEvent's data: a Customer.
    payload: (ctx) => {
      const id = ctx.id('', 26)
      return { type: 'customer', id, object: { customer: { id, given_name: 'Amelia', family_name: 'Earhart', email_address: 'amelia@example.com', created_at: ctx.iso(), updated_at: ctx.iso(), creation_source: 'THIRD_PARTY', version: 0, preferences: { email_unsubscribed: false } } } }
    },
  },
]
