import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../electron/engine/providers'
import { fixtureContext } from '../../../shared/event-catalog'
import { stripeEvents } from '../../../shared/event-catalog/stripe'
import { PROVIDERS } from '../../../shared/providers'
import { nodeModulesPath, typeErrors, type AmbientTypes } from './support/type-check'

// Every Stripe catalog event, as the whole Event body Hookloop sends, against the `stripe`
// package's own types at each API version the pack lists: `stripe` 23 describes 2026-10-28.endive,
// `stripe-2024-06-20` (stripe 16.12) describes 2024-06-20. The body is written as a literal typed
// `Stripe.Event` and its data.object as the event type's object, and the TypeScript compiler
// checks them: a required field missing, a field Stripe does not have at that version, a value of
// the wrong type or an object that is not the type's (`invoice` for `invoice.paid`) is an error.

/**
 * Each API version the pack lists, and the types that describe it: stripe 23's are a module;
 * stripe 16's declare the module 'stripe' ambiently, so its declaration file answers `stripe`.
 */
const VERSIONS: Record<string, AmbientTypes | undefined> = {
  '2026-10-28.endive': undefined,
  '2024-06-20': { module: 'stripe', file: nodeModulesPath('stripe-2024-06-20/types/index.d.ts') },
}

/** The object each catalog event type carries as data.object, by the stripe package's type name. */
const OBJECT_TYPES: Record<string, string> = {
  'payment_intent.succeeded': 'Stripe.PaymentIntent',
  'payment_intent.payment_failed': 'Stripe.PaymentIntent',
  'charge.succeeded': 'Stripe.Charge',
  'checkout.session.completed': 'Stripe.Checkout.Session',
  'customer.subscription.created': 'Stripe.Subscription',
  'invoice.paid': 'Stripe.Invoice',
}

type Body = { api_version: string; data: { object: Record<string, unknown> } }

/** The body Hookloop sends for `type` on a subscription that chose `version`. */
function stripeBody(type: string, version: string): Body {
  const event = stripeEvents.find((e) => e.type === type)
  if (!event) throw new Error(`no Stripe catalog event ${type}`)
  const now = Date.UTC(2026, 11, 1)
  const payload = Buffer.from(JSON.stringify(event.payload(fixtureContext(now, version))))
  return JSON.parse(providerBody(PROVIDERS.stripe, { eventId: randomUUID(), eventType: type, payload, createdAt: now, sentAt: now, apiVersion: version }).toString('utf8')) as Body
}

function checkAt(version: string, bodies: Record<string, Body>): Record<string, string[]> {
  return typeErrors(
    [`import type Stripe from 'stripe'`],
    Object.entries(bodies).flatMap(([type, body]) => [
      { name: type, type: 'Stripe.Event', value: body },
      { name: type, type: OBJECT_TYPES[type] ?? 'never', value: body.data.object },
    ]),
    VERSIONS[version],
  )
}

describe('Stripe catalog events agree within themselves', () => {
  it.each(Object.keys(VERSIONS))('at %s: an invoice\u2019s lines name its subscription; a failed payment\u2019s error names its latest charge; a subscription\u2019s items name it', (version) => {
    const invoice = stripeBody('invoice.paid', version).data.object as { id: string; customer: string; lines: { data: { subscription: unknown; invoice?: string }[] } }
    const sub = version === '2024-06-20' ? (invoice as unknown as { subscription: string }).subscription : (invoice as unknown as { parent: { subscription_details: { subscription: string } } }).parent.subscription_details.subscription
    expect(invoice.lines.data[0]!.subscription).toBe(sub)
    const failed = stripeBody('payment_intent.payment_failed', version).data.object as { latest_charge: string; last_payment_error: { charge: string } }
    expect(failed.last_payment_error.charge).toBe(failed.latest_charge)
    const subscription = stripeBody('customer.subscription.created', version).data.object as { id: string; items: { data: { subscription: string }[] } }
    expect(subscription.items.data[0]!.subscription).toBe(subscription.id)
  })
})

describe('Stripe catalog events and the stripe package\u2019s types, per API version', () => {
  it('the pack lists the versions checked here, newest first; its envelope\u2019s default is the one stripe 23 describes', async () => {
    const { default: Stripe } = await import('stripe')
    expect(PROVIDERS.stripe.apiVersions).toEqual(Object.keys(VERSIONS))
    expect(PROVIDERS.stripe.apiVersions?.[0]).toBe(Stripe.API_VERSION)
    expect(PROVIDERS.stripe.envelope).toMatchObject({ kind: 'stripe', apiVersion: Stripe.API_VERSION })
  })

  it.each(Object.keys(VERSIONS))('at %s every catalog event, as the whole Event body, type-checks as Stripe.Event with every required field', (version) => {
    const bodies = Object.fromEntries(stripeEvents.map((e) => [e.type, stripeBody(e.type, version)]))
    expect(checkAt(version, bodies)).toEqual(Object.fromEntries(stripeEvents.map((e) => [e.type, []])))
  })

  it.each(Object.keys(VERSIONS))('at %s the check refuses an object with a required field missing', (version) => {
    const body = stripeBody('payment_intent.succeeded', version)
    delete body.data.object.amount
    expect(checkAt(version, { 'payment_intent.succeeded': body })['payment_intent.succeeded']!.join(' ')).toMatch(/amount/)
  })

  it('an invoice follows the version: 2024-06-20 names its subscription, charge and payment intent at the top; endive names them under parent and payments', () => {
    const legacy = stripeBody('invoice.paid', '2024-06-20').data.object
    expect(legacy).toMatchObject({ subscription: expect.stringMatching(/^sub_/), charge: expect.stringMatching(/^ch_/), payment_intent: expect.stringMatching(/^pi_/) })
    expect(legacy).not.toHaveProperty('parent')
    const endive = stripeBody('invoice.paid', '2026-10-28.endive').data.object
    expect(endive).not.toHaveProperty('subscription')
    expect(endive).toHaveProperty('parent.subscription_details.subscription')
  })

  it('each version\u2019s payload fails the other version\u2019s types (the versions differ, and the check sees it)', () => {
    const legacy = { 'invoice.paid': stripeBody('invoice.paid', '2024-06-20') }
    expect(checkAt('2026-10-28.endive', legacy)['invoice.paid']).not.toEqual([])
    const endive = { 'invoice.paid': stripeBody('invoice.paid', '2026-10-28.endive') }
    expect(checkAt('2024-06-20', endive)['invoice.paid']).not.toEqual([])
  })
})
