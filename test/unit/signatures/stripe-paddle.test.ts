import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'
import { NOW, jsonBody } from './support'

const body = jsonBody()
const SECRET = 'whsec_c3RyaXBlIHNpZ25pbmcgc2VjcmV0'

describe('stripe', () => {
  const header = (secret = SECRET, t = NOW) => sign('stripe', { body, secret, timestamp: t })['stripe-signature'] ?? ''
  const check = (value: string, over: Partial<Parameters<typeof verify>[1]> = {}) =>
    verify('stripe', { body, headers: { 'Stripe-Signature': value }, secrets: [SECRET], now: NOW, ...over })

  it('writes t=<unix>,v1=<hex>', () => {
    expect(header()).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
  })

  it('accepts several v1 signatures and ignores v0', () => {
    const ours = header().split(',')[1] ?? ''
    const other = header('whsec_b3RoZXI=').split(',')[1] ?? ''
    expect(check(`t=${NOW},v0=abcdef,${other},${ours}`)).toMatchObject({ valid: true })
    expect(check(`t=${NOW},${other},${ours}`, { secrets: ['whsec_b3RoZXI=', SECRET] })).toMatchObject({ valid: true, secretIndex: 0 })
  })

  it('says no_matching_version when only v0 is present and malformed_header without t or v1', () => {
    expect(check(`t=${NOW},v0=abcdef`).reason).toBe('no_matching_version')
    expect(check(`v1=${'a'.repeat(64)}`).reason).toBe('malformed_header')
    expect(check(`t=${NOW}`).reason).toBe('malformed_header')
    expect(check(`t=soon,v1=${'a'.repeat(64)}`).reason).toBe('malformed_header')
    expect(check(`t=${NOW},v1=zz`).reason).toBe('malformed_header')
  })

  it('rejects only too-old timestamps (now - t > 300)', () => {
    expect(check(header(), { now: NOW + 300 }).valid).toBe(true)
    const old = check(header(), { now: NOW + 301 })
    expect(old).toMatchObject({ reason: 'timestamp_too_old', skewSeconds: 301 })
    expect(old.detail).toContain('301 s old')
    expect(check(header(), { now: NOW - 10_000 }).valid).toBe(true)
  })

  it('diagnoses a base64-decoded secret', () => {
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64')
    const mac = createHmac('sha256', key).update(`${NOW}.`).update(body).digest('hex')
    const result = check(`t=${NOW},v1=${mac}`)
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(result.detail).toBe('The signature was made with the secret base64-decoded: Stripe uses the whole secret string (whsec_ prefix included) as UTF-8 bytes.')
  })
})

describe('paddle', () => {
  const SECRET_P = 'pdl_ntfset_01h8ddd0wtaysd1ya8fqh1xvtv_Zz8oZJ+nL6x1IKMJn3D9VDPc6u8YMlK5'
  const header = (t = NOW, secret = SECRET_P) => sign('paddle', { body, secret, timestamp: t })['paddle-signature'] ?? ''
  const check = (value: string, over: Partial<Parameters<typeof verify>[1]> = {}) =>
    verify('paddle', { body, headers: { 'Paddle-Signature': value }, secrets: [SECRET_P], now: NOW, ...over })

  it('writes ts=<unix>;h1=<hex> over `${ts}:${body}`', () => {
    const mac = createHmac('sha256', SECRET_P).update(`${NOW}:`).update(body).digest('hex')
    expect(header()).toBe(`ts=${NOW};h1=${mac}`)
  })

  it('accepts several h1 signatures (secret rotation)', () => {
    const other = header(NOW, 'pdl_old').split(';')[1] ?? ''
    expect(check(`${header()};${other}`).valid).toBe(true)
    expect(check(`${header()};${other}`, { secrets: ['pdl_old'] }).valid).toBe(true)
  })

  it('allows 5 seconds, only into the past', () => {
    expect(check(header(), { now: NOW + 5 }).valid).toBe(true)
    expect(check(header(), { now: NOW + 6 })).toMatchObject({ reason: 'timestamp_too_old', skewSeconds: 6 })
    expect(check(header(), { now: NOW - 60 }).valid).toBe(true)
  })

  it('says malformed_header and no_matching_version for the wrong shapes', () => {
    expect(check(`h1=${'a'.repeat(64)}`).reason).toBe('malformed_header')
    expect(check(`ts=${NOW};h2=${'a'.repeat(64)}`).reason).toBe('no_matching_version')
  })
})
