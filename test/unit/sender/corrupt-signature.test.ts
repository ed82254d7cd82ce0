import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildHeaders } from '../../../electron/engine/sender/request-headers'
import { corruptSignature } from '../../../electron/engine/sender/corrupt-signature'
import { freshPrivateKey, SCHEMES, sign, verify, type SchemeId } from '../../../electron/engine/signatures'
import { propertyPerScheme } from '../../support/scheme-properties'

// The corrupt-signature fault keeps the header's grammar: same length, same alphabet, so every
// receiver (ours included) answers signature_mismatch — never malformed_header — for every scheme.

const NOW = 1_700_000_000_000
const URL = 'https://hooks.example.test/in?x=1'
const SECRETS: Record<Exclude<SchemeId, 'custom'>, string> = {
  'standard-webhooks': 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  svix: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  stripe: 'whsec_test_secret',
  github: 'github-secret',
  shopify: 'shopify-secret',
  slack: 'slack-secret',
  twilio: 'twilio-auth-token',
  square: 'square-signature-key',
  paddle: 'pdl_ntfset_secret',
  linear: 'linear-secret',
  zoom: 'zoom-secret-token',
  sendgrid: freshPrivateKey('ecdsa-p256'),
  discord: freshPrivateKey('ed25519'),
  twitch: 'twitch-eventsub-secret',
  hubspot: 'hubspot-client-secret',
  intercom: 'intercom-client-secret',
  mailgun: 'mailgun-webhook-signing-key',
  gitlab: 'gitlab-secret-token',
  bitbucket: 'bitbucket-secret',
  pagerduty: 'pagerduty-secret',
  typeform: 'typeform-secret',
}

describe('corrupt-signature', () => {
  propertyPerScheme(SECRETS, (scheme) => `${scheme}: always a signature_mismatch, same length and alphabet`, { maxLength: 120, numRuns: 60 }, (scheme, secret, bytes, eventId) => {
    // Linear's time travels in the body: a JSON body with a fresh webhookTimestamp.
    // Mailgun signs inside a JSON object body.
    const body = scheme === 'linear' ? Buffer.from(JSON.stringify({ webhookTimestamp: NOW, b: Buffer.from(bytes).toString('base64') })) : scheme === 'mailgun' ? Buffer.from(JSON.stringify({ 'event-data': { b: Buffer.from(bytes).toString('base64') } })) : Buffer.from(bytes)
    const input = { scheme, secret, retiredSecret: undefined, eventId, eventIdHeader: 'x-id', extraHeaders: {}, body, url: URL, now: NOW, sign, faults: [] }
    const clean = buildHeaders(input).headers
    const built = buildHeaders({ ...input, faults: [{ type: 'corrupt-signature' }] })
    const corrupted = built.headers
    const result = verify(scheme, { body: built.body ?? body, headers: corrupted, secrets: [secret], now: NOW / 1000, url: URL })
    expect(result.reason).toBe('signature_mismatch')
    // ECDSA signs with a fresh nonce: two signatures' DER may differ in length by a byte.
    for (const name of Object.keys(clean)) if (!(scheme === 'sendgrid' && name === SCHEMES.sendgrid.signatureHeader)) expect(corrupted[name]?.length).toBe(clean[name]?.length)
  })

  it('changes every signature of a header that carries several (a rotation)', () => {
    const value = 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,3vRDkYk1n7m9Wq2xC1mP0bXyZ8aT4eLrH6uJ5sFgD0Q='
    const [a, b] = corruptSignature(value).split(' ')
    const [oa, ob] = value.split(' ')
    expect(a).not.toBe(oa)
    expect(b).not.toBe(ob)
    expect(a!.length).toBe(oa!.length)
  })

  it('hex stays hex in either case', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), (hex) => {
        const out = corruptSignature(`t=1700000000,v1=${hex}`)
        expect(out).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
        expect(out).not.toBe(`t=1700000000,v1=${hex}`)
        expect(corruptSignature(hex.toUpperCase())).toMatch(/^[0-9A-F]{64}$/)
      }),
    )
  })
})
