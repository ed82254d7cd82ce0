import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'
import { NOW, PUBLIC_URL, jsonBody } from './support'

const body = jsonBody()
const hex = (secret: string, ...parts: Array<string | Buffer>) => parts.reduce((mac, part) => mac.update(part), createHmac('sha256', secret)).digest('hex')

describe('github', () => {
  const SECRET = 'gh-secret'
  const headers = sign('github', { body, secret: SECRET, id: '72d3162e-cc78-11e3-81ab-4c9367dc0958' })

  it('sends sha256= over the body, the legacy sha1= header and the delivery id', () => {
    expect(headers['x-hub-signature-256']).toBe(`sha256=${hex(SECRET, body)}`)
    expect(headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}`)
    expect(headers['x-github-delivery']).toBe('72d3162e-cc78-11e3-81ab-4c9367dc0958')
  })

  it('says no_matching_version when only the legacy SHA-1 header or a sha1= value is present', () => {
    const legacyOnly = verify('github', { body, headers: { 'X-Hub-Signature': headers['x-hub-signature'] }, secrets: [SECRET] })
    expect(legacyOnly.reason).toBe('no_matching_version')
    expect(legacyOnly.detail).toContain('X-Hub-Signature-256')
    const wrongAlgo = verify('github', { body, headers: { 'X-Hub-Signature-256': headers['x-hub-signature'] }, secrets: [SECRET] })
    expect(wrongAlgo).toMatchObject({ reason: 'no_matching_version' })
    expect(wrongAlgo.detail).toContain('"sha1="')
  })

  it('says malformed_header for a value without prefix or with non-hex', () => {
    expect(verify('github', { body, headers: { 'x-hub-signature-256': hex(SECRET, body) }, secrets: [SECRET] }).reason).toBe('malformed_header')
    expect(verify('github', { body, headers: { 'x-hub-signature-256': 'sha256=xyz' }, secrets: [SECRET] }).reason).toBe('malformed_header')
  })

  it('accepts upper-case hex', () => {
    const upper = `sha256=${hex(SECRET, body).toUpperCase()}`
    expect(verify('github', { body, headers: { 'x-hub-signature-256': upper }, secrets: [SECRET] }).valid).toBe(true)
  })
})

describe('shopify', () => {
  it('signs base64 over the body and sends the webhook id', () => {
    const headers = sign('shopify', { body, secret: 'shpss_1', id: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043' })
    expect(headers['x-shopify-hmac-sha256']).toBe(createHmac('sha256', 'shpss_1').update(body).digest('base64'))
    expect(headers['x-shopify-webhook-id']).toBe('b54557e4-bdd9-4b37-8a5f-bf7d70bcd043')
    expect(verify('shopify', { body, headers: { 'x-shopify-hmac-sha256': 'not base64!' }, secrets: ['shpss_1'] }).reason).toBe('malformed_header')
  })
})

describe.each(['slack', 'zoom'] as const)('%s', (scheme) => {
  const headers = sign(scheme, { body, secret: 'signing', timestamp: NOW })
  const tsHeader = scheme === 'slack' ? 'x-slack-request-timestamp' : 'x-zm-request-timestamp'
  const check = (over: Partial<Parameters<typeof verify>[1]> = {}) => verify(scheme, { body, headers, secrets: ['signing'], now: NOW, ...over })

  it('signs v0= + hex over v0:{timestamp}:{body}', () => {
    expect(Object.values(headers)).toContain(`v0=${hex('signing', `v0:${NOW}:`, body)}`)
  })

  it('says missing_header / malformed_header for the timestamp header', () => {
    const { [tsHeader]: _ts, ...rest } = headers
    expect(check({ headers: rest }).detail).toContain(tsHeader)
    expect(check({ headers: { ...headers, [tsHeader]: '12.5' } }).reason).toBe('malformed_header')
  })

  it(scheme === 'slack' ? 'rejects requests more than 5 minutes away either way' : 'has no time limit unless one is given', () => {
    if (scheme === 'slack') {
      expect(check({ now: NOW + 301 })).toMatchObject({ reason: 'timestamp_too_old' })
      expect(check({ now: NOW - 301 })).toMatchObject({ reason: 'timestamp_too_new' })
      expect(check({ now: NOW - 300 }).valid).toBe(true)
    } else {
      expect(check({ now: NOW + 86_400 }).valid).toBe(true)
      expect(check({ now: NOW + 86_400, toleranceSeconds: 300 }).reason).toBe('timestamp_too_old')
    }
  })
})

describe('linear', () => {
  const check = (b: Buffer, now: number) => verify('linear', { body: b, headers: sign('linear', { body: b, secret: 'lin_wh' }), secrets: ['lin_wh'], now })

  it('checks webhookTimestamp (ms) in the body within 60 s', () => {
    expect(check(body, NOW + 60).valid).toBe(true)
    expect(check(body, NOW + 61)).toMatchObject({ reason: 'timestamp_too_old', skewSeconds: 61 })
    expect(check(body, NOW - 61)).toMatchObject({ reason: 'timestamp_too_new' })
    expect(check(body, NOW + 61).detail).toContain('webhookTimestamp in the body')
  })

  it('says so when the time cannot be checked', () => {
    const result = check(Buffer.from('{"action":"create"}'), NOW)
    expect(result.valid).toBe(true)
    expect(result.detail).toContain('time not checked')
  })
})

describe('square', () => {
  const headers = sign('square', { body, secret: 'sq-key', url: PUBLIC_URL })

  it('signs the notification URL followed by the body', () => {
    expect(headers['x-square-hmacsha256-signature']).toBe(createHmac('sha256', 'sq-key').update(PUBLIC_URL).update(body).digest('base64'))
    expect(() => sign('square', { body, secret: 'sq-key' })).toThrow(/pass url/)
  })

  it('says missing_url without a URL and points at the tunnel URL when checked against a local one', () => {
    expect(verify('square', { body, headers, secrets: ['sq-key'] }).reason).toBe('missing_url')
    const local = verify('square', { body, headers, secrets: ['sq-key'], url: 'http://127.0.0.1:4000/hooks/provider?tenant=7' })
    expect(local).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(local.detail).toContain('verify against the public tunnel URL')
    const elsewhere = verify('square', { body, headers, secrets: ['sq-key'], url: 'https://other.example/hooks' })
    expect(elsewhere.detail).toContain('(or the body or URL changed after signing)')
  })
})
