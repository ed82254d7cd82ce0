import { randomUUID } from 'node:crypto'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../electron/engine/providers'
import { fixtureContext } from '../../../shared/event-catalog'
import { stripeEvents } from '../../../shared/event-catalog/stripe'
import { PROVIDERS } from '../../../shared/providers'

// Every Stripe catalog event, as the whole Event body Hookloop sends, against the `stripe`
// package's own types (the API version its types describe is the one the pack declares). The
// body is written into a source file as a literal typed `Stripe.Event`, and the TypeScript
// compiler checks it: a required field missing, a field Stripe does not have, a value of the
// wrong type or an object that is not the type's (`invoice` for `invoice.paid`) is an error.

const ROOT = path.resolve(__dirname, '../../..')

/** The object each catalog event type carries as data.object, by the stripe package's type name. */
const OBJECT_TYPES: Record<string, string> = {
  'payment_intent.succeeded': 'Stripe.PaymentIntent',
  'payment_intent.payment_failed': 'Stripe.PaymentIntent',
  'charge.succeeded': 'Stripe.Charge',
  'checkout.session.completed': 'Stripe.Checkout.Session',
  'customer.subscription.created': 'Stripe.Subscription',
  'invoice.paid': 'Stripe.Invoice',
}

function stripeBody(type: string): unknown {
  const event = stripeEvents.find((e) => e.type === type)
  if (!event) throw new Error(`no Stripe catalog event ${type}`)
  const now = Date.UTC(2026, 11, 1)
  const payload = Buffer.from(JSON.stringify(event.payload(fixtureContext(now))))
  return JSON.parse(providerBody(PROVIDERS.stripe, { eventId: randomUUID(), eventType: type, payload, createdAt: now, sentAt: now }).toString('utf8'))
}

/** The compiler's complaints about `bodies` typed as Stripe.Event and their data.object as the event type's object, per event type. */
function typeErrors(bodies: Record<string, unknown>): Record<string, string[]> {
  const file = path.join(ROOT, 'test/unit/providers', `stripe-event-check.${process.pid}.ts`)
  const names = Object.keys(bodies)
  const source = [`import type Stripe from 'stripe'`, ...names.map((t, i) => `export const e${i}: Stripe.Event = ${JSON.stringify(bodies[t])}; export const x${i}: ${OBJECT_TYPES[t] ?? 'never'} = ${JSON.stringify((bodies[t] as { data: { object: unknown } }).data.object)}`)].join('\n')
  const options: ts.CompilerOptions = { strict: true, exactOptionalPropertyTypes: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, esModuleInterop: true, skipLibCheck: true, types: [] }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (f) => (path.resolve(f) === file ? source : readFile(f))
  host.fileExists = (f) => path.resolve(f) === file || fileExists(f)
  host.getSourceFile = (f, lang, ...rest) => (path.resolve(f) === file ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest))
  const program = ts.createProgram([file], options, host)
  const out: Record<string, string[]> = Object.fromEntries(names.map((t) => [t, []]))
  const sf = program.getSourceFile(file)!
  for (const d of [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]) {
    const line = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').slice(-3).join(' / ')
    // Line 0 is the import: a complaint there (stripe not found) is reported under its own key.
    const key = names[line - 1] ?? 'import'
    ;(out[key] ??= []).push(message)
  }
  return out
}

describe('Stripe catalog events agree within themselves', () => {
  it('an invoice\u2019s lines and parent name one subscription; a failed payment\u2019s error names its latest charge', () => {
    const invoice = (stripeBody('invoice.paid') as { data: { object: { id: string; parent: { subscription_details: { subscription: string } }; lines: { data: { subscription: string; invoice: string }[] } } } }).data.object
    expect(invoice.lines.data[0]).toMatchObject({ subscription: invoice.parent.subscription_details.subscription, invoice: invoice.id })
    const failed = (stripeBody('payment_intent.payment_failed') as { data: { object: { latest_charge: string; last_payment_error: { charge: string } } } }).data.object
    expect(failed.last_payment_error.charge).toBe(failed.latest_charge)
    const sub = (stripeBody('customer.subscription.created') as { data: { object: { id: string; items: { data: { subscription: string }[] } } } }).data.object
    expect(sub.items.data[0]!.subscription).toBe(sub.id)
  })
})

describe('Stripe catalog events and the stripe package\u2019s types', () => {
  it('the pack declares the API version the stripe package\u2019s types describe', async () => {
    const { default: Stripe } = await import('stripe')
    expect(PROVIDERS.stripe.envelope).toMatchObject({ kind: 'stripe', apiVersion: Stripe.API_VERSION })
  })

  it('every catalog event, as the whole Event body, type-checks as Stripe.Event with every required field', () => {
    const bodies = Object.fromEntries(stripeEvents.map((e) => [e.type, stripeBody(e.type)]))
    expect(typeErrors(bodies)).toEqual(Object.fromEntries(stripeEvents.map((e) => [e.type, []])))
  })

  it('the check refuses an object with a required field missing', () => {
    const body = stripeBody('payment_intent.succeeded') as { data: { object: Record<string, unknown> } }
    delete body.data.object.amount
    expect(typeErrors({ 'payment_intent.succeeded': body })['payment_intent.succeeded']!.join(' ')).toMatch(/amount/)
  })
})
