import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signBody, verify } from '../../../electron/engine/signatures'

// Mailgun's signature inside the body: signBody writes the documented object, verify reads it;
// the signature covers timestamp and token only, so a changed token or timestamp fails and the
// event data does not take part.

const SECRET = 'key-mailgun-signing'
const NOW = 1_700_000_000
const event = Buffer.from(JSON.stringify({ 'event-data': { event: 'delivered', id: 'x1' } }))

describe('mailgun', () => {
  it('writes signature {timestamp, token, signature} first, the HMAC of timestamp + token', () => {
    const body = JSON.parse(signBody('mailgun', { body: event, secret: SECRET, timestamp: NOW }).toString()) as { signature: { timestamp: string; token: string; signature: string } }
    expect(Object.keys(body)).toEqual(['signature', 'event-data'])
    expect(body.signature.timestamp).toBe(String(NOW))
    expect(body.signature.signature).toBe(createHmac('sha256', SECRET).update(body.signature.timestamp + body.signature.token).digest('hex'))
  })

  it('a changed token or timestamp fails; a stale one fails when a tolerance is asked for', () => {
    const signed = JSON.parse(signBody('mailgun', { body: event, secret: SECRET, timestamp: NOW }).toString()) as { signature: { token: string; timestamp: string } }
    const body = (change: (s: typeof signed) => void) => {
      const copy = structuredClone(signed)
      change(copy)
      return Buffer.from(JSON.stringify(copy))
    }
    expect(verify('mailgun', { body: body(() => {}), headers: {}, secrets: [SECRET], now: NOW })).toMatchObject({ valid: true })
    expect(verify('mailgun', { body: body((s) => (s.signature.token = 'f'.repeat(50))), headers: {}, secrets: [SECRET], now: NOW })).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(verify('mailgun', { body: body((s) => (s.signature.timestamp = String(NOW + 1))), headers: {}, secrets: [SECRET], now: NOW })).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(verify('mailgun', { body: body(() => {}), headers: {}, secrets: [SECRET], now: NOW + 900, toleranceSeconds: 300 })).toMatchObject({ valid: false, reason: 'timestamp_too_old' })
  })

  it('names what is missing: no JSON object, no signature object', () => {
    expect(verify('mailgun', { body: Buffer.from('timestamp=1&token=2'), headers: {}, secrets: [SECRET] })).toMatchObject({ valid: false, reason: 'malformed_body' })
    expect(verify('mailgun', { body: event, headers: {}, secrets: [SECRET] })).toMatchObject({ valid: false, reason: 'missing_header', detail: expect.stringMatching(/signature object .* is missing from the body/) as unknown as string })
    expect(() => signBody('mailgun', { body: Buffer.from('[1]'), secret: SECRET })).toThrow(/JSON object body/)
  })
})
