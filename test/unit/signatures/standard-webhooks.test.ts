import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SecretFormatError, sign, verify } from '../../../electron/engine/signatures'
import { NOW, WHSEC, WHSEC_OTHER, jsonBody } from './support'

const body = jsonBody()
const signed = (secret = WHSEC, timestamp = NOW) => sign('standard-webhooks', { body, secret, id: 'msg_2Lq', timestamp })
const check = (headers: Record<string, string | string[]>, over: Partial<Parameters<typeof verify>[1]> = {}) =>
  verify('standard-webhooks', { body, headers, secrets: [WHSEC], now: NOW, ...over })

describe('standard-webhooks', () => {
  it('accepts a header with several signatures, skipping other versions (rotation on the sender side)', () => {
    const ours = signed()['webhook-signature']
    const old = signed(WHSEC_OTHER)['webhook-signature']
    const headers = { ...signed(), 'webhook-signature': `v1a,c29tZXRoaW5nIGVsc2U= ${old} ${ours}` }
    expect(check(headers)).toMatchObject({ valid: true, secretIndex: 0 })
    expect(check(headers, { secrets: [WHSEC_OTHER] })).toMatchObject({ valid: true, secretIndex: 0 })
  })

  it('accepts repeated headers joined the way Node joins them', () => {
    const headers = { ...signed(), 'webhook-signature': `${signed(WHSEC_OTHER)['webhook-signature']}, ${signed()['webhook-signature']}` }
    expect(check(headers).valid).toBe(true)
  })

  it('says no_matching_version when only other versions are present', () => {
    const result = check({ ...signed(), 'webhook-signature': 'v1a,c29tZXRoaW5nIGVsc2U= v2,YWJj' })
    expect(result).toMatchObject({ valid: false, reason: 'no_matching_version' })
    expect(result.detail).toContain('v1a, v2')
  })

  it('says malformed_header for a signature without version, bad base64 or a non-numeric timestamp', () => {
    expect(check({ ...signed(), 'webhook-signature': 'garbage' }).reason).toBe('malformed_header')
    expect(check({ ...signed(), 'webhook-signature': 'v1,not*base64!' }).reason).toBe('malformed_header')
    const result = check({ ...signed(), 'webhook-timestamp': '2026-11-29T10:00:00Z' })
    expect(result.reason).toBe('malformed_header')
    expect(result.detail).toContain('webhook-timestamp')
  })

  it('names each missing header', () => {
    const { 'webhook-id': _id, ...rest } = signed()
    const result = check(rest)
    expect(result).toMatchObject({ reason: 'missing_header' })
    expect(result.detail).toMatch(/^The webhook-id header is missing/)
  })

  it('rejects timestamps more than 5 minutes old or ahead, with the skew in the sentence', () => {
    const old = check(signed(), { now: NOW + 301 })
    expect(old).toMatchObject({ valid: false, reason: 'timestamp_too_old', skewSeconds: 301 })
    expect(old.detail).toContain('301 s old')
    const ahead = check(signed(), { now: NOW - 400 })
    expect(ahead).toMatchObject({ valid: false, reason: 'timestamp_too_new', skewSeconds: -400 })
    expect(ahead.detail).toContain('400 s in the future')
    expect(check(signed(), { now: NOW + 300 }).valid).toBe(true)
    const millis = check(signed(WHSEC, NOW * 1000))
    expect(millis.reason).toBe('timestamp_too_new')
    expect(millis.detail).toContain('looks like milliseconds')
    expect(check(signed(), { now: NOW + 3600, toleranceSeconds: 7200 }).valid).toBe(true)
  })

  it('says bad_secret_format for a secret that is not whsec_ + base64, and sign() refuses it', () => {
    for (const secret of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_not base64!']) {
      const result = check(signed(), { secrets: [secret] })
      expect(result.reason).toBe('bad_secret_format')
      expect(result.detail).toMatch(/^Secret 1 is not a valid Standard Webhooks secret/)
      expect(() => sign('standard-webhooks', { body, secret })).toThrow(SecretFormatError)
    }
  })

  it('still accepts a valid secret when another secret in the rotation list is malformed', () => {
    expect(check(signed(), { secrets: ['not-a-whsec', WHSEC] })).toMatchObject({ valid: true, secretIndex: 1 })
  })

  it('gives the same verdicts when a secret is checked again, its key imported once per secret format', () => {
    // The first check imports each secret as a key and keeps it (or why it is unusable); the
    // second answers from what was kept, and the same text under a format that reads it another
    // way (GitHub: the text's bytes) is a key of its own.
    const secrets = ['not-a-whsec', WHSEC_OTHER, WHSEC]
    const first = check(signed(), { secrets })
    expect(first).toMatchObject({ valid: true, secretIndex: 2 })
    expect(check(signed(), { secrets })).toEqual(first)
    expect(check(signed(WHSEC_OTHER), { secrets })).toMatchObject({ valid: true, secretIndex: 1 })
    expect(check(signed(), { secrets: ['not-a-whsec'] }).reason).toBe('bad_secret_format')
    expect(check(signed(), { secrets: [WHSEC_OTHER] })).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    const github = sign('github', { body, secret: WHSEC })
    expect(verify('github', { body, headers: github, secrets: [WHSEC] })).toMatchObject({ valid: true })
    expect(verify('github', { body, headers: github, secrets: [WHSEC_OTHER] })).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(check(signed(), { secrets: [WHSEC] })).toMatchObject({ valid: true })
  })

  it('diagnoses a secret used as raw bytes instead of base64-decoded', () => {
    // What a sender does when it feeds the whole whsec_ string to HMAC.
    const raw = createHmac('sha256', WHSEC).update(`msg_2Lq.${NOW}.`).update(body).digest('base64')
    const result = check({ ...signed(), 'webhook-signature': `v1,${raw}` })
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(result.detail).toContain("secret's text used as raw bytes")
    expect(result.detail).toContain('base64-decoded part after "whsec_"')
  })

  it('diagnoses a secret with a trailing newline pasted in', () => {
    const result = check(signed(), { secrets: [WHSEC + '\n'] })
    expect(result.reason).toBe('bad_secret_format')
    expect(result.detail).toContain('spaces or a newline around it')
    const viaUtf8 = verify('github', { body, headers: sign('github', { body, secret: 's3cret' }), secrets: ['s3cret\n'] })
    expect(viaUtf8.detail).toContain('without its surrounding whitespace')
  })

  it('diagnoses sorted keys as re-serialisation', () => {
    const headers = sign('standard-webhooks', { body: Buffer.from('{"a":1,"b":{"c":2,"d":3}}'), secret: WHSEC, id: 'm', timestamp: NOW })
    const result = check(headers, { body: Buffer.from('{"b":{"d":3,"c":2},"a":1}') })
    expect(result.detail).toContain('compact JSON with sorted keys')
  })
})

describe('svix', () => {
  it('signs svix-* headers and falls back to webhook-* names when verifying', () => {
    const headers = sign('svix', { body, secret: WHSEC, id: 'msg_x', timestamp: NOW })
    expect(Object.keys(headers).sort()).toEqual(['svix-id', 'svix-signature', 'svix-timestamp'])
    const renamed = { 'webhook-id': headers['svix-id'], 'webhook-timestamp': headers['svix-timestamp'], 'webhook-signature': headers['svix-signature'] }
    expect(verify('svix', { body, headers: renamed, secrets: [WHSEC], now: NOW }).valid).toBe(true)
  })
})
