// The New subscription form as data: a provider fills scheme, policy and API version (still
// changeable), each bad input gets a message for its own field, and the request keeps what was given.
import { describe, expect, it } from 'vitest'
import { createRequest, formProblems, withProvider, type SubscriptionForm } from '../../../../renderer/src/lib/subscription-form'
import { requestSchemas } from '../../../../shared/contract'
import { PROVIDERS } from '../../../../shared/providers'

const FORM: SubscriptionForm = { name: 'billing', target: 'url', url: 'https://shop.example/webhooks', provider: '', apiVersion: '', scheme: 'standard-webhooks', policyId: 'pandoktorek', envelope: 'event', secret: '' }

describe('subscription form', () => {
  it('a provider fills scheme, policy and its first API version; back to Hookloop’s shape clears the version', () => {
    const stripe = withProvider(FORM, 'stripe')
    expect(stripe).toMatchObject({ provider: 'stripe', scheme: PROVIDERS.stripe.scheme, policyId: PROVIDERS.stripe.policy, apiVersion: PROVIDERS.stripe.apiVersions?.[0] ?? '' })
    const github = withProvider(FORM, 'github')
    expect(github).toMatchObject({ scheme: 'github', policyId: PROVIDERS.github.policy, apiVersion: '' })
    expect(withProvider(stripe, '')).toMatchObject({ provider: '', apiVersion: '' })
  })

  it('names each bad field: empty name, a URL that is not one or not http(s), a secret too long or with spaces', () => {
    expect(formProblems(FORM, 0)).toEqual({})
    expect(formProblems({ ...FORM, name: '  ' }, 0).name).toMatch(/^Name the subscription/)
    expect(formProblems({ ...FORM, url: '' }, 0).url).toMatch(/^Give the URL/)
    expect(formProblems({ ...FORM, url: 'shop.example/hooks' }, 0).url).toBe('“shop.example/hooks” is not a URL; it starts with http:// or https://.')
    expect(formProblems({ ...FORM, url: 'ftp://shop.example/hooks' }, 0).url).toBe('A subscription delivers over http:// or https://, not ftp:')
    expect(formProblems({ ...FORM, secret: 'x'.repeat(501) }, 0).secret).toBe('A secret has at most 500 characters; this one has 501.')
    expect(formProblems({ ...FORM, secret: ' whsec_abc' }, 0).secret).toMatch(/space/)
    // Delivering to one of our endpoints: the URL field is not asked for.
    expect(formProblems({ ...FORM, target: 'ep_1', url: '' }, 1)).toEqual({})
  })

  it('the request the engine takes: a provider with its version and pasted secret; Hookloop’s shape with its envelope', () => {
    const stripe = createRequest({ ...withProvider(FORM, 'stripe'), secret: 'whsec_pasted' }, undefined)
    expect(stripe).toMatchObject({ name: 'billing', target: { url: 'https://shop.example/webhooks' }, provider: 'stripe', scheme: 'stripe', secret: 'whsec_pasted' })
    expect(stripe).not.toHaveProperty('envelope')
    expect(requestSchemas['subscription.create'].safeParse(stripe).success).toBe(true)
    const own = createRequest({ ...FORM, target: '', envelope: 'payload' }, 'ep_1')
    expect(own).toEqual({ name: 'billing', target: { endpointId: 'ep_1' }, scheme: 'standard-webhooks', policyId: 'pandoktorek', envelope: 'payload' })
    expect(requestSchemas['subscription.create'].safeParse(own).success).toBe(true)
  })
})
