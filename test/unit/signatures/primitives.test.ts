import { describe, expect, it } from 'vitest'
import { bodyVariants } from '../../../electron/engine/signatures/body-variants'
import { constantTimeEqual } from '../../../electron/engine/signatures/compare'
import { headerValue, headerValues } from '../../../electron/engine/signatures/headers'
import { decodeSignature, isBase64 } from '../../../electron/engine/signatures/mac'
import { defaultPortVariant, isLocalUrl } from '../../../electron/engine/signatures/url'
import { freshId } from '../../../electron/engine/signatures/ids'

describe('constantTimeEqual', () => {
  it('is true only for identical bytes and false (not a throw) for different lengths', () => {
    expect(constantTimeEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true)
    expect(constantTimeEqual(Buffer.from('abc'), Buffer.from('abd'))).toBe(false)
    expect(constantTimeEqual(Buffer.from('abc'), Buffer.from('abcd'))).toBe(false)
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true)
  })
})

describe('header lookup', () => {
  const headers = { 'X-Hub-Signature-256': 'sha256=1', 'webhook-signature': ['v1,a', 'v1,b'], absent: undefined }
  it('ignores the case of names and flattens repeated values', () => {
    expect(headerValues(headers, 'x-hub-signature-256')).toEqual(['sha256=1'])
    expect(headerValues(headers, 'WEBHOOK-SIGNATURE')).toEqual(['v1,a', 'v1,b'])
    expect(headerValue(headers, 'webhook-signature')).toBe('v1,a, v1,b')
    expect(headerValue(headers, 'absent')).toBeUndefined()
    expect(headerValue(headers, 'nope')).toBeUndefined()
  })
  it('finds a name among others of its length, and a name whose lower case is longer than it', () => {
    const mixed = { 'webhook-id': 'msg_1', 'Webhook-Id': 'msg_2', 'webhook-ix': 'no', 'x-İd': 'dotted' }
    expect(headerValues(mixed, 'WEBHOOK-ID')).toEqual(['msg_1', 'msg_2'])
    expect(headerValues(mixed, 'x-i\u0307d')).toEqual(['dotted'])
    expect(headerValues(mixed, 'x-id')).toEqual([])
  })
})

describe('signature decoding', () => {
  it('refuses text that is not strictly hex or base64', () => {
    expect(decodeSignature('0aFF', 'hex')).toEqual(Buffer.from([0x0a, 0xff]))
    expect(decodeSignature('abc', 'hex')).toBeUndefined()
    expect(decodeSignature('zz', 'hex')).toBeUndefined()
    expect(decodeSignature('YWJj', 'base64')).toEqual(Buffer.from('abc'))
    expect(decodeSignature('YWJj!', 'base64')).toBeUndefined()
    expect(isBase64('YWI=')).toBe(true)
    expect(isBase64('YWI')).toBe(true)
    expect(isBase64('Y')).toBe(false)
    expect(isBase64('YW=I')).toBe(false)
  })
})

describe('URLs', () => {
  it('recognises loopback URLs', () => {
    expect(isLocalUrl('http://127.0.0.1:4000/x')).toBe(true)
    expect(isLocalUrl('http://localhost/x')).toBe(true)
    expect(isLocalUrl('http://[::1]:80/x')).toBe(true)
    expect(isLocalUrl('https://brave-otter-42.loca.lt/x')).toBe(false)
    expect(isLocalUrl('not a url')).toBe(false)
  })
  it('adds or removes the default port without otherwise touching the text', () => {
    expect(defaultPortVariant('https://a.example/p?q=1')).toBe('https://a.example:443/p?q=1')
    expect(defaultPortVariant('https://a.example:443/p?q=1')).toBe('https://a.example/p?q=1')
    expect(defaultPortVariant('http://a.example')).toBe('http://a.example:80')
    expect(defaultPortVariant('http://a.example:8080/p')).toBeUndefined()
    expect(defaultPortVariant('ftp://a.example/p')).toBeUndefined()
  })
})

describe('body variants', () => {
  it('offers re-serialisations and newline changes, never the body itself', () => {
    const body = Buffer.from('{"b":1,"a":[1,2]}')
    const variants = bodyVariants(body).map((v) => v.body.toString())
    expect(variants).toContain('{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}')
    expect(variants).toContain('{"a":[1,2],"b":1}')
    expect(variants).toContain('{"b":1,"a":[1,2]}\n')
    expect(variants).not.toContain(body.toString())
    expect(bodyVariants(Buffer.from('plain\r\n')).map((v) => v.body.toString())).toEqual(['plain'])
  })
})

describe('freshId', () => {
  it('makes msg_ ids for Standard Webhooks and Svix, UUIDs otherwise', () => {
    expect(freshId('svix')).toMatch(/^msg_[0-9A-Za-z]{27}$/)
    expect(freshId('standard-webhooks')).not.toBe(freshId('standard-webhooks'))
    expect(freshId('github')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
