import type { CatalogEvent, FixtureContext } from './types'

// Standard Webhooks / Svix: the payload is `data` of `{type, timestamp, data}`. The spec names no
// event types; these follow the dotted naming its examples use (`invoice.paid`, `user.created`).

const user = (ctx: FixtureContext) => ({ id: ctx.id('user_', 20), email: 'ada@example.com', name: 'Ada Lovelace', created_at: ctx.iso() })

export const standardWebhooksEvents: CatalogEvent[] = [
  { type: 'user.created', description: 'A user signed up.', payload: (ctx) => user(ctx) },
  { type: 'user.deleted', description: 'A user was deleted.', payload: (ctx) => ({ id: ctx.id('user_', 20), deleted_at: ctx.iso() }) },
  { type: 'invoice.paid', description: 'An invoice was paid.', payload: (ctx) => ({ id: ctx.id('inv_', 20), amount: 4900, currency: 'EUR', customer_id: ctx.id('cust_', 20), paid_at: ctx.iso() }) },
  { type: 'invoice.payment_failed', description: 'An invoice payment failed.', payload: (ctx) => ({ id: ctx.id('inv_', 20), amount: 4900, currency: 'EUR', customer_id: ctx.id('cust_', 20), failure_reason: 'card_declined', next_retry_at: ctx.iso(86_400_000) }) },
  { type: 'subscription.canceled', description: 'A subscription was canceled.', payload: (ctx) => ({ id: ctx.id('sub_', 20), customer_id: ctx.id('cust_', 20), canceled_at: ctx.iso(), ends_at: ctx.iso(86_400_000 * 30) }) },
]
