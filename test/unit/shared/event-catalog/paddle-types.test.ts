import { describe, expect, it } from 'vitest'
import { paddleEvents } from '../../../../shared/event-catalog/paddle'
import { itCompilesEveryEvent, nodeModulesPath, typeErrors, wrappedChecks } from './support/type-check'
import { catalogBody } from './support/catalog-body'

// Every Paddle catalog event, as the whole notification body, against the types
// @paddle/paddle-node-sdk publishes for what `webhooks.unmarshal` reads (`IEventsResponse` around
// the entity's notification response), compiled strict: a required field missing, an unknown
// field or a wrong type fails. The SDK's package exports do not name these types: they are
// imported from its .d.ts files.

/** The notification response type of each catalog event's data. */
const DATA_TYPES: Record<string, string> = {
  'transaction.completed': 'ITransactionNotificationResponse',
  'transaction.paid': 'ITransactionNotificationResponse',
  'subscription.created': 'ISubscriptionCreatedNotificationResponse',
  'subscription.canceled': 'ISubscriptionNotificationResponse',
  'customer.created': 'ICustomerNotificationResponse',
}

const TYPES = 'node_modules/@paddle/paddle-node-sdk/dist/types'
const IMPORTS = [
  `import type { ${[...new Set(Object.values(DATA_TYPES))].join(', ')} } from ${JSON.stringify(nodeModulesPath(`${TYPES.slice('node_modules/'.length)}/notifications/index.js`))}`,
  `import type { IEventsResponse } from ${JSON.stringify(nodeModulesPath(`${TYPES.slice('node_modules/'.length)}/types/index.js`))}`,
]

const paddleBody = (type: string) => catalogBody<{ data: Record<string, unknown> } & Record<string, unknown>>('paddle', type)

const checks = (type: string, body: { data: unknown }) => wrappedChecks(type, DATA_TYPES[type] ?? 'never', 'IEventsResponse', body.data, body)

describe('Paddle catalog events and @paddle/paddle-node-sdk\u2019s notification types', () => {
  itCompilesEveryEvent('every catalog event, as the whole body, type-checks as the SDK\u2019s notification of its entity', IMPORTS, paddleEvents, (type) => checks(type, paddleBody(type)))

  it('the check refuses a subscription.created without the transaction that created it', () => {
    const body = paddleBody('subscription.created')
    delete body.data.transaction_id
    expect(typeErrors(IMPORTS, checks('subscription.created', body))['subscription.created']!.join(' ')).toMatch(/transaction_id/)
  })

  it('ids and amounts agree within a transaction: items, line items, product and payment', () => {
    type Txn = { items: { price_id: string; price: { id: string; product_id: string } }[]; details: { totals: { grand_total: string; fee: string; earnings: string }; line_items: { price_id: string; product: { id: string } }[] }; payments: { amount: string }[] }
    const txn = paddleBody('transaction.completed').data as unknown as Txn
    const [item] = txn.items
    const [line] = txn.details.line_items
    expect(item!.price_id).toBe(item!.price.id)
    expect(line!.price_id).toBe(item!.price.id)
    expect(line!.product.id).toBe(item!.price.product_id)
    expect(txn.payments[0]!.amount).toBe(txn.details.totals.grand_total)
    expect(Number(txn.details.totals.fee) + Number(txn.details.totals.earnings)).toBe(Number(txn.details.totals.grand_total))
  })

  it('values are fresh per send', () => {
    expect(paddleBody('customer.created').data.id).not.toBe(paddleBody('customer.created').data.id)
  })
})
