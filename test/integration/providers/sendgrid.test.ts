import { describe, expect, it } from 'vitest'
import { providerBody } from '../../../electron/engine/providers'
import { freshPrivateKey, publicKeyText, sign, verify } from '../../../electron/engine/signatures'
import { PROVIDERS } from '../../../shared/providers'

// SendGrid's key pair as an endpoint holds it. Every catalog event against @sendgrid/eventwebhook
// is in official-libraries.test.ts (judges/sendgrid.ts).

describe('SendGrid keys', () => {
  it('an endpoint verifies with the verification key SendGrid shows, or with the private key it derives it from', () => {
    const secret = freshPrivateKey('ecdsa-p256')
    const verificationKey = publicKeyText(secret, 'ecdsa-p256') as string
    const body = providerBody(PROVIDERS.sendgrid, { eventId: 'e1', eventType: 'delivered', payload: Buffer.from('{"event":"delivered"}'), createdAt: 0, sentAt: 0 })
    expect(body.toString()).toBe('[{"event":"delivered"}]')
    const headers = sign('sendgrid', { body, secret, timestamp: 1_700_000_000 })
    expect(verify('sendgrid', { body, headers, secrets: [verificationKey] })).toMatchObject({ valid: true })
    expect(verify('sendgrid', { body, headers, secrets: [secret] })).toMatchObject({ valid: true })
    expect(verify('sendgrid', { body, headers, secrets: [verificationKey], now: 1_700_000_900, toleranceSeconds: 300 })).toMatchObject({ valid: false, reason: 'timestamp_too_old' })
    expect(() => sign('sendgrid', { body, secret: verificationKey })).toThrow(/a public key verifies, it cannot sign/)
    expect(verify('sendgrid', { body, headers, secrets: ['not a key'] })).toMatchObject({ valid: false, reason: 'bad_secret_format' })
  })
})
