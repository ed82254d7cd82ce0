import Stripe from 'stripe'
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { Webhook as SvixWebhook } from 'svix'
import { describe, expect, it } from 'vitest'
import { ed25519PrivateKey, ed25519PublicKey, ed25519Sign } from '../../../electron/engine/signatures/ed25519'
import { ed25519KeyPair, sign, verify } from '../../../electron/engine/signatures'

// Standard Webhooks v1a (Ed25519) and signing with several secrets at once (a rotation).

// RFC 8032, section 7.1, test 1: the key encoding must give exactly the published signature.
const RFC_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const RFC_SIGNATURE = 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b'

const body = Buffer.from('{"type":"invoice.paid","timestamp":"2026-12-01T08:00:00.000Z","data":{"id":"in_1"}}')
const NOW = 1_764_576_000

describe('Standard Webhooks v1a (Ed25519)', () => {
  const pair = ed25519KeyPair(Buffer.from(RFC_SEED, 'hex'))

  it('reads whsk_/whpk_ keys as RFC 8032 does', () => {
    expect(pair.public).toBe(`whpk_${Buffer.from(RFC_PUBLIC, 'hex').toString('base64')}`)
    const key = ed25519PrivateKey(pair.secret)
    if ('error' in key) throw new Error(key.error)
    expect(ed25519Sign(key, Buffer.alloc(0)).toString('hex')).toBe(RFC_SIGNATURE)
    // A 64-byte whsk_ (seed then public key) is the same key.
    const long = ed25519PublicKey(`whsk_${Buffer.concat([Buffer.from(RFC_SEED, 'hex'), Buffer.from(RFC_PUBLIC, 'hex')]).toString('base64')}`)
    expect('error' in long).toBe(false)
  })

  it('signs v1a with whsk_; the public key verifies; a wrong key, a changed body or a stale time do not', () => {
    const headers = sign('standard-webhooks', { body, secret: pair.secret, id: 'msg_1', timestamp: NOW })
    expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/)
    expect(verify('standard-webhooks', { body, headers, secrets: [pair.public], now: NOW })).toMatchObject({ valid: true, secretIndex: 0 })
    const other = ed25519KeyPair(Buffer.alloc(32, 7))
    expect(verify('standard-webhooks', { body, headers, secrets: [other.public], now: NOW }).reason).toBe('signature_mismatch')
    expect(verify('standard-webhooks', { body: Buffer.from(`${body.toString()} `), headers, secrets: [pair.public], now: NOW }).reason).toBe('signature_mismatch')
    expect(verify('standard-webhooks', { body, headers, secrets: [pair.public], now: NOW + 600 }).reason).toBe('timestamp_too_old')
    // A verifier with only a whsec_ secret says why it cannot check a v1a-only header.
    expect(verify('standard-webhooks', { body, headers, secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], now: NOW }).reason).toBe('no_matching_version')
  })

  it('a public key cannot sign: a clear error', () => {
    expect(() => sign('standard-webhooks', { body, secret: pair.public, id: 'msg_1', timestamp: NOW })).toThrow(/whpk_ public key verifies, it cannot sign/)
  })

  it('mixed keys: a v1 and a v1a signature in one header, each verifier checks its own', () => {
    const hmacSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const now = Math.floor(Date.now() / 1000) // the official library checks against its own clock
    const headers = sign('standard-webhooks', { body, secret: hmacSecret, additionalSecrets: [pair.secret], id: 'msg_2', timestamp: now })
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1a,\S+$/)
    expect(verify('standard-webhooks', { body, headers, secrets: [pair.public], now }).valid).toBe(true)
    expect(verify('standard-webhooks', { body, headers, secrets: [hmacSecret], now }).valid).toBe(true)
    expect(verify('standard-webhooks', { body, headers, secrets: [pair.public, hmacSecret], now })).toMatchObject({ valid: true, secretIndex: 0 })
    // The official library checks the v1 entry and ignores the v1a one.
    expect(() => new StandardWebhook(hmacSecret).verify(body.toString(), headers)).not.toThrow()
  })
})

describe('signing with several secrets (a rotation)', () => {
  const oldSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  const newSecret = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

  it('svix: both secrets verify with the official library; a third does not', () => {
    const now = Math.floor(Date.now() / 1000)
    const headers = sign('svix', { body, secret: newSecret, additionalSecrets: [oldSecret], id: 'msg_rot', timestamp: now })
    expect(headers['svix-signature']?.split(' ')).toHaveLength(2)
    for (const secret of [newSecret, oldSecret]) expect(new SvixWebhook(secret).verify(body.toString(), headers)).toMatchObject({ type: 'invoice.paid' })
    expect(() => new SvixWebhook('whsec_dGhpcmQtc2VjcmV0LWZvci10ZXN0aW5nLTEyMw==').verify(body.toString(), headers)).toThrow()
  })

  it('stripe: one t=, a v1= per secret; constructEvent accepts either secret', () => {
    const stripe = new Stripe('sk_test_hookloop')
    const now = Math.floor(Date.now() / 1000)
    const payload = Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: {} } }))
    const headers = sign('stripe', { body: payload, secret: 'whsec_new', additionalSecrets: ['whsec_old'], timestamp: now })
    expect(headers['stripe-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
    for (const secret of ['whsec_new', 'whsec_old']) expect(stripe.webhooks.constructEvent(payload, headers['stripe-signature']!, secret).id).toBe('evt_1')
  })

  it('paddle: one ts=, an h1= per secret; our verifier accepts either', () => {
    const headers = sign('paddle', { body, secret: 'pdl_new', additionalSecrets: ['pdl_old'], timestamp: NOW })
    expect(headers['paddle-signature']).toMatch(/^ts=\d+;h1=[0-9a-f]{64};h1=[0-9a-f]{64}$/)
    for (const secret of ['pdl_new', 'pdl_old']) expect(verify('paddle', { body, headers, secrets: [secret], now: NOW }).valid).toBe(true)
  })

  it('a scheme with one signature per request refuses more secrets, saying which schemes can', () => {
    expect(() => sign('github', { body, secret: 'a', additionalSecrets: ['b'] })).toThrow(/GitHub carries one signature per request.*standard-webhooks, svix, stripe, paddle/)
  })
})
