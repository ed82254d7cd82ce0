import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sign, verify } from '../../../electron/engine/signatures'
import type { CustomHmacOptions } from '../../../electron/engine/signatures'
import { CUSTOM, NOW, jsonBody } from './support'

const body = jsonBody()

describe('custom HMAC', () => {
  it('signs the template with the chosen algorithm, encoding, prefix and headers', () => {
    const headers = sign('custom', { body, secret: 'k', id: 'evt_9', timestamp: NOW, custom: CUSTOM })
    const mac = createHmac('sha512', 'k').update(`evt_9.${NOW}.`).update(body).digest('base64')
    expect(headers).toEqual({ 'x-acme-signature': `sha512=${mac}`, 'x-acme-timestamp': String(NOW), 'x-acme-id': 'evt_9' })
  })

  it('defaults to the body alone and applies the configured tolerance', () => {
    const simple: CustomHmacOptions = { header: 'X-Sig', algorithm: 'sha1', encoding: 'hex' }
    const headers = sign('custom', { body, secret: 'k', custom: simple })
    expect(headers).toEqual({ 'x-sig': createHmac('sha1', 'k').update(body).digest('hex') })
    const timed = sign('custom', { body, secret: 'k', id: 'e', timestamp: NOW, custom: CUSTOM })
    expect(verify('custom', { body, headers: timed, secrets: ['k'], custom: CUSTOM, now: NOW + 121 }).reason).toBe('timestamp_too_old')
  })

  it('signs a URL template and needs the URL to verify', () => {
    const opts: CustomHmacOptions = { header: 'X-Sig', algorithm: 'sha256', encoding: 'hex', signedTemplate: '{url}|{body}' }
    const headers = sign('custom', { body, secret: 'k', url: 'https://x.example/h', custom: opts })
    expect(verify('custom', { body, headers, secrets: ['k'], custom: opts }).reason).toBe('missing_url')
    expect(verify('custom', { body, headers, secrets: ['k'], custom: opts, url: 'http://127.0.0.1:3000/h' }).detail).toContain('public tunnel URL')
  })

  it('says bad_options for incomplete settings, and sign() throws', () => {
    const cases: Array<[CustomHmacOptions | undefined, RegExp]> = [
      [undefined, /needs its options/],
      [{ header: '', algorithm: 'sha256', encoding: 'hex' }, /signature header/],
      [{ header: 'X', algorithm: 'md5' as 'sha1', encoding: 'hex' }, /algorithm "md5"/],
      [{ header: 'X', algorithm: 'sha256', encoding: 'base32' as 'hex' }, /encoding "base32"/],
      [{ header: 'X', algorithm: 'sha256', encoding: 'hex', signedTemplate: '{timestamp}{body}' }, /no timestamp header/],
      [{ header: 'X', algorithm: 'sha256', encoding: 'hex', signedTemplate: '{id}{body}' }, /no id header/],
      [{ header: 'X', algorithm: 'sha256', encoding: 'hex', toleranceSeconds: 5 }, /tolerance needs a timestamp header/],
    ]
    for (const [custom, why] of cases) {
      const result = verify('custom', { body, headers: { x: 'abc' }, secrets: ['k'], custom })
      expect(result.reason).toBe('bad_options')
      expect(result.detail).toMatch(why)
      expect(() => sign('custom', { body, secret: 'k', custom })).toThrow(why)
    }
  })

  it('says no_matching_version for another prefix and missing_header for the id it signs', () => {
    const headers = sign('custom', { body, secret: 'k', id: 'e', timestamp: NOW, custom: CUSTOM })
    const other = { ...headers, 'x-acme-signature': (headers['x-acme-signature'] ?? '').replace('sha512=', 'sha1=') }
    expect(verify('custom', { body, headers: other, secrets: ['k'], custom: CUSTOM, now: NOW }).reason).toBe('no_matching_version')
    const { 'x-acme-id': _id, ...noId } = headers
    expect(verify('custom', { body, headers: noId, secrets: ['k'], custom: CUSTOM, now: NOW }).detail).toContain('x-acme-id')
  })
})
