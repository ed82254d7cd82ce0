import type { EmitterWebhookEvent, EmitterWebhookEventName } from '@octokit/webhooks'
import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { fixtureContext } from '../../../../shared/event-catalog'
import { githubEvents } from '../../../../shared/event-catalog/github'
import { shopifyEvents } from '../../../../shared/event-catalog/shopify'
import { stripeEvents, type stripeObjects } from '../../../../shared/event-catalog/stripe'

// The catalog's payloads against the providers' own published types (the SDKs' .d.ts files):
// checked by the compiler (npm run typecheck compiles this file), so a field the provider does
// not have, or a value of the wrong type, fails the build. `Conforms<A, B>` is true when every
// field of A exists in B with a matching type, recursively (fields B has and A leaves out pass
// here: that every required field is present is checked by stripe-types.test.ts and
// github-schema.test.ts). A string matches a union of string literals (an enum like
// `status`): the compiler cannot tell which literal a built string is.

type Prim = string | number | boolean | null | undefined
type Objects<B> = Extract<NonNullable<B>, object>
/** true, or the fields that do not conform with why. */
type AllTrue<T> = { [K in keyof T as [T[K]] extends [true] ? never : K]: T[K] } extends infer Bad ? ([keyof Bad] extends [never] ? true : Bad) : never

type Conforms<A, B> = [A] extends [never]
  ? true // an empty array's element
  : [A] extends [null]
    ? null extends B
      ? true
      : { expected: B; got: null }
    : A extends readonly (infer AU)[]
      ? Extract<Objects<B>, readonly unknown[]> extends readonly (infer BU)[]
        ? Conforms<AU, BU>
        : { expected: B; got: 'an array' }
      : A extends Prim
        ? A extends B
          ? true
          : A extends string
            ? Extract<B, string> extends never
              ? { expected: B; got: A }
              : true
            : { expected: B; got: A }
        : [Exclude<keyof A, keyof Objects<B>>] extends [never]
          ? AllTrue<{ [K in keyof A]-?: Conforms<A[K], Objects<B>[K & keyof Objects<B>]> }>
          : { unknown_fields: Exclude<keyof A, keyof Objects<B>> }

type PayloadOf<List extends readonly { type: string; payload: (...args: never[]) => unknown }[], T extends List[number]['type']> = ReturnType<Extract<List[number], { type: T }>['payload']>

/** Compiles only when C is exactly true; the argument shows what did not conform. */
function conforms<C extends true>(_check?: C): void {}

// Stripe: the objects at the pack's newest API version (the one `stripe` 23's types describe); the
// 2024-06-20 objects are checked against stripe 16's types in stripe-types.test.ts.
type StripeObject<K extends keyof typeof stripeObjects> = ReturnType<(typeof stripeObjects)[K]>
conforms<Conforms<StripeObject<'paymentIntent'>, Stripe.PaymentIntent>>()
conforms<Conforms<StripeObject<'charge'>, Stripe.Charge>>()
conforms<Conforms<StripeObject<'checkoutSession'>, Stripe.Checkout.Session>>()
conforms<Conforms<StripeObject<'subscription'>, Stripe.Subscription>>()
conforms<Conforms<StripeObject<'invoice'>, Stripe.Invoice>>()

// GitHub: the payload is the whole body, typed by Octokit per event and action.
type GithubCheck<T extends (typeof githubEvents)[number]['type'] & EmitterWebhookEventName> = Conforms<PayloadOf<typeof githubEvents, T>, EmitterWebhookEvent<T>['payload']>
conforms<GithubCheck<'push'>>()
conforms<GithubCheck<'pull_request.opened'>>()
conforms<GithubCheck<'pull_request.closed'>>()
conforms<GithubCheck<'issues.opened'>>()
conforms<GithubCheck<'issue_comment.created'>>()
conforms<GithubCheck<'release.published'>>()

// Shopify: the REST Admin resource classes of @shopify/shopify-api are not the webhook payloads
// (their nested objects are untyped, their ids strings); Shopify's payloads are checked against
// the documented payload of each topic in shopify-schema.test.ts.

describe('catalog payloads and the providers\u2019 published types', () => {
  it('every typed catalog event is covered by a compile-time check above', () => {
    // The checks above run in the compiler; at run time, make sure none of the typed catalogs grew
    // an event type that has no check (the list here is the one checked above).
    expect(stripeEvents.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'payment_intent.payment_failed', 'charge.succeeded', 'checkout.session.completed', 'customer.subscription.created', 'invoice.paid'])
    expect(githubEvents.map((e) => e.type)).toEqual(['push', 'pull_request.opened', 'pull_request.closed', 'issues.opened', 'issue_comment.created', 'release.published'])
    expect(shopifyEvents.map((e) => e.type)).toEqual(['orders/create', 'orders/paid', 'products/update', 'customers/create', 'refunds/create', 'app/uninstalled'])
    const ctx = fixtureContext(Date.UTC(2026, 11, 1))
    for (const e of [...stripeEvents, ...githubEvents, ...shopifyEvents]) expect(JSON.parse(JSON.stringify(e.payload(ctx)))).toBeTypeOf('object')
  })
})
