// Cross-checks against the providers' own libraries (pure JS, offline): their verifiers accept
// our signatures and ours accept theirs, byte for byte.
import { sign as octokitSign, verify as octokitVerify } from '@octokit/webhooks-methods'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import Stripe from 'stripe'
import { Webhook as SvixWebhook } from 'svix'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'
import { NOW, WHSEC, WHSEC_OTHER, jsonBody } from './support'

const body = jsonBody()
const text = body.toString('utf8')

describe('with the providers clock at NOW', () => {
  // The libraries read Date.now() for their tolerance check; only Date is faked, no timers.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(NOW * 1000)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('standardwebhooks verifies ours, and we verify its signatures', () => {
    const ours = sign('standard-webhooks', { body, secret: WHSEC, id: 'msg_abc', timestamp: NOW })
    expect(new StandardWebhook(WHSEC).verify(text, ours)).toEqual(JSON.parse(text))
    const theirs = new StandardWebhook(WHSEC).sign('msg_abc', new Date(NOW * 1000), text)
    expect(theirs).toBe(ours['webhook-signature'])
    const headers = { 'webhook-id': 'msg_abc', 'webhook-timestamp': String(NOW), 'webhook-signature': theirs }
    expect(verify('standard-webhooks', { body, headers, secrets: [WHSEC], now: NOW }).valid).toBe(true)
  })

  it('standardwebhooks rejects what we reject (other secret, stale)', () => {
    const ours = sign('standard-webhooks', { body, secret: WHSEC_OTHER, id: 'msg_abc', timestamp: NOW - 301 })
    expect(() => new StandardWebhook(WHSEC).verify(text, ours)).toThrow()
    expect(verify('standard-webhooks', { body, headers: ours, secrets: [WHSEC], now: NOW }).valid).toBe(false)
  })

  it('svix verifies ours (svix-* headers), and we verify its signatures', () => {
    const ours = sign('svix', { body, secret: WHSEC, id: 'msg_svix', timestamp: NOW })
    expect(new SvixWebhook(WHSEC).verify(text, ours)).toEqual(JSON.parse(text))
    const theirs = new SvixWebhook(WHSEC).sign('msg_svix', new Date(NOW * 1000), text)
    const headers = { 'svix-id': 'msg_svix', 'svix-timestamp': String(NOW), 'svix-signature': `${sign('svix', { body, secret: WHSEC_OTHER, id: 'msg_svix', timestamp: NOW })['svix-signature']} ${theirs}` }
    expect(new SvixWebhook(WHSEC).verify(text, headers)).toEqual(JSON.parse(text))
    expect(verify('svix', { body, headers, secrets: [WHSEC], now: NOW })).toMatchObject({ valid: true })
  })

  it('stripe: constructEvent accepts ours and we accept generateTestHeaderString', () => {
    const stripe = new Stripe('sk_test_offline')
    const secret = 'whsec_test_secret_for_cross_check'
    const ours = sign('stripe', { body, secret, timestamp: NOW })['stripe-signature'] ?? ''
    const event = stripe.webhooks.constructEvent(body, ours, secret, 300, undefined, NOW * 1000)
    expect(event.id).toBe('evt_1')
    const theirs = stripe.webhooks.generateTestHeaderString({ payload: text, secret, timestamp: NOW })
    expect(theirs).toBe(ours)
    expect(verify('stripe', { body, headers: { 'stripe-signature': theirs }, secrets: [secret], now: NOW }).valid).toBe(true)
    // Both refuse a stale header.
    expect(() => stripe.webhooks.constructEvent(body, ours, secret, 300, undefined, (NOW + 301) * 1000)).toThrow(/tolerance/)
    expect(verify('stripe', { body, headers: { 'stripe-signature': ours }, secrets: [secret], now: NOW + 301 }).reason).toBe('timestamp_too_old')
  })
})

describe('@octokit/webhooks-methods', () => {
  it('verifies ours, and we verify its signatures', async () => {
    const secret = 'octo-secret'
    const ours = sign('github', { body, secret })['x-hub-signature-256'] ?? ''
    expect(await octokitVerify(secret, text, ours)).toBe(true)
    const theirs = await octokitSign(secret, text)
    expect(theirs).toBe(ours)
    expect(verify('github', { body, headers: { 'X-Hub-Signature-256': theirs }, secrets: [secret] }).valid).toBe(true)
    expect(await octokitVerify('other', text, ours)).toBe(false)
  })
})
