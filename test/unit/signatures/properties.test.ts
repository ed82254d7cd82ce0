// Properties over generated inputs: any body (binary included), any secret, any time — what we
// sign verifies, and flipping one byte of the body never does.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { freshPrivateKey, isAsymmetricFormat, SCHEME_IDS, SCHEMES, sign, verify, type SchemeId } from '../../../electron/engine/signatures'
import { CUSTOM, PUBLIC_URL } from './support'

// The asymmetric schemes' secrets are private keys: a few fresh ones, not arbitrary strings.
const secretArb = (scheme: SchemeId) => {
  const format = SCHEMES[scheme].secretFormat
  if (isAsymmetricFormat(format)) return fc.constantFrom(freshPrivateKey(format), freshPrivateKey(format), freshPrivateKey(format))
  return scheme === 'standard-webhooks' || scheme === 'svix'
    ? fc.uint8Array({ minLength: 1, maxLength: 64 }).map((key) => 'whsec_' + Buffer.from(key).toString('base64'))
    : fc.string({ minLength: 1, maxLength: 40 })
}

// Mailgun signs a timestamp and token inside a JSON body, not the body's bytes: its cases are in
// mailgun.test.ts.
describe.each(SCHEME_IDS.filter((id) => SCHEMES[id].signatureIn !== 'body'))('%s', (scheme) => {
  it('verifies what it signs and rejects a body with one byte changed', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), secretArb(scheme), fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }), fc.nat(), (bytes, secret, timestamp, at) => {
        const body = Buffer.from(bytes)
        const input = { url: PUBLIC_URL, custom: scheme === 'custom' ? CUSTOM : undefined }
        const headers = sign(scheme, { body, secret, timestamp, ...input })
        const result = verify(scheme, { body, headers, secrets: [secret], now: timestamp, ...input })
        // Linear reads its time from a JSON body; random bytes are not one, so no time applies.
        expect(result).toMatchObject({ valid: true, secretIndex: 0 })
        const changed = Buffer.from(body)
        const index = at % changed.length
        changed[index] = (changed[index] ?? 0) ^ 0x01
        // Twilio signs decoded form parameters, not bytes: a flip inside invalid UTF-8 can decode
        // to the same replacement character, so Twilio's tamper cases live in twilio.test.ts.
        // A token-only scheme (GitLab) signs no body: its tamper cases are its own test's.
        if (scheme !== 'twilio' && !SCHEMES[scheme].tokenOnly) expect(verify(scheme, { body: changed, headers, secrets: [secret], now: timestamp, ...input }).valid).toBe(false)
      }),
      { numRuns: 60 },
    )
  })
})
