// The one secret generator the engine and the subscription form share: a secret in the form the
// scheme's own libraries take (they sign and verify with it), new each time.
import { Webhook as StandardWebhook } from 'standardwebhooks'
import { Webhook as SvixWebhook } from 'svix'
import { describe, expect, it } from 'vitest'
import { freshSecret, secretFormatOf } from '../../../shared/secrets'
import { SCHEME_IDS, SCHEMES } from '../../../shared/signatures'
import { publicKeyText, sign, verify } from '../../../electron/engine/signatures'

describe('freshSecret', () => {
  it('whsec_ + base64 of 24 random bytes for Standard Webhooks, Svix and Stripe; hex otherwise', () => {
    for (const scheme of SCHEME_IDS) {
      const secret = freshSecret(scheme)
      if (secretFormatOf(scheme) === 'whsec') {
        expect(secret, scheme).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
        expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24)
      } else if (secretFormatOf(scheme) === 'ed25519') expect(secret, scheme).toMatch(/^whsk_[A-Za-z0-9+/]{43}=$/)
      else if (secretFormatOf(scheme) === 'ecdsa-p256') expect(Buffer.from(secret, 'base64'), scheme).toHaveLength(67)
      else expect(secret, scheme).toMatch(/^[0-9a-f]{48}$/)
      expect(freshSecret(scheme)).not.toBe(secret)
    }
    expect(['standard-webhooks', 'svix', 'stripe'].map((s) => secretFormatOf(s as never))).toEqual(['whsec', 'whsec', 'whsec'])
  })

  it('the standardwebhooks and svix libraries sign and verify with a generated secret', () => {
    const body = '{"type":"user.created"}'
    const at = new Date()
    const std = new StandardWebhook(freshSecret('standard-webhooks'))
    const signature = std.sign('msg_1', at, body)
    expect(std.verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature })).toEqual({ type: 'user.created' })
    const svix = new SvixWebhook(freshSecret('svix'))
    const svixSignature = svix.sign('msg_2', at, body)
    expect(svix.verify(body, { 'svix-id': 'msg_2', 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': svixSignature })).toEqual({ type: 'user.created' })
  })

  it('the key-pair schemes get a private key their scheme signs with and whose public key verifies', () => {
    const body = Buffer.from('[{"event":"delivered"}]')
    for (const scheme of ['sendgrid', 'discord'] as const) {
      for (let i = 0; i < 20; i++) {
        const secret = freshSecret(scheme)
        const format = SCHEMES[scheme].secretFormat as 'ecdsa-p256' | 'ed25519'
        const headers = sign(scheme, { body, secret, timestamp: 1_700_000_000 })
        expect(verify(scheme, { body, headers, secrets: [publicKeyText(secret, format) as string], now: 1_700_000_000 }), scheme).toMatchObject({ valid: true })
      }
    }
  })
})
