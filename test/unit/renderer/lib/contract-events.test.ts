// The send form's contract events: a subscription delivering to a contract endpoint (by its local
// or public URL) is offered the spec's event types with their payloads; any other is not.
import { describe, expect, it } from 'vitest'
import type { EndpointContractView, EndpointView } from '../../../../shared/contract'
import { contractChoicesFor, contractEventLabel, pickContractEvent } from '../../../../renderer/src/lib/contract-events'

const CONTRACT: EndpointContractView = {
  spec: '/specs/shop.yaml',
  operation: 'order.created',
  title: 'Shop webhooks 1.2.0',
  events: [
    { eventType: 'order.created', operation: 'order.created', payload: '{"type":"order.created"}', from: 'spec' },
    { eventType: 'OrderCancelled', operation: 'order.cancelled', payload: '{"type":"order.cancelled"}', from: 'schema' },
  ],
  problem: null,
}

const endpoint = (slug: string, contract: EndpointContractView | null, publicUrl: string | null = null): EndpointView => ({
  id: `ep-${slug}`,
  slug,
  name: slug,
  scheme: null,
  secretHints: [],
  dedupe: null,
  forwardTo: [],
  localUrl: `http://127.0.0.1:7799/h/${slug}`,
  publicUrl,
  contract,
})

const ENDPOINTS = [endpoint('plain', null), endpoint('order-created', CONTRACT, 'https://shop.loca.lt/h/order-created')]

describe('contract events in the send form', () => {
  it('offers the spec of the contract endpoint a subscription delivers to, by its local or public URL', () => {
    expect(contractChoicesFor({ url: 'http://127.0.0.1:7799/h/order-created' }, ENDPOINTS)?.contract).toBe(CONTRACT)
    expect(contractChoicesFor({ url: 'https://shop.loca.lt/h/order-created/' }, ENDPOINTS)?.endpoint.slug).toBe('order-created')
  })

  it('offers nothing for a subscription to another endpoint, an outside URL, or none', () => {
    expect(contractChoicesFor({ url: 'http://127.0.0.1:7799/h/plain' }, ENDPOINTS)).toBeNull()
    expect(contractChoicesFor({ url: 'https://example.test/h/order-created' }, ENDPOINTS)).toBeNull()
    expect(contractChoicesFor(undefined, ENDPOINTS)).toBeNull()
  })

  it('a pick puts the event type and its example payload in the composer; the label says where the payload comes from', () => {
    const choices = contractChoicesFor({ url: 'http://127.0.0.1:7799/h/order-created' }, ENDPOINTS)!
    expect(pickContractEvent(choices, 'OrderCancelled')).toEqual({ eventType: 'OrderCancelled', payload: '{"type":"order.cancelled"}' })
    expect(pickContractEvent(choices, 'refund.created')).toBeNull()
    expect(CONTRACT.events.map(contractEventLabel)).toEqual(["order.created (the spec's example)", 'OrderCancelled — order.cancelled (made from the schema)'])
  })
})
