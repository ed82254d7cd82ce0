import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sign, twilioBodyHashUrl, verify } from '../../../electron/engine/signatures'
import { jsonBody } from './support'

const TOKEN = 'twilio-auth-token'
const form = Buffer.from('To=%2B48123456789&Body=Hello+world&From=%2B15005550006&MediaUrl=b&MediaUrl=a')
const URL_ = 'https://brave-otter-42.loca.lt/sms'

describe('twilio', () => {
  it('signs the URL plus sorted key+value pairs with HMAC-SHA1 (repeated keys: values sorted)', () => {
    const data = `${URL_}BodyHello worldFrom+15005550006MediaUrlaMediaUrlbTo+48123456789`
    expect(sign('twilio', { body: form, secret: TOKEN, url: URL_ })['x-twilio-signature']).toBe(createHmac('sha1', TOKEN).update(data).digest('base64'))
  })

  it('accepts the URL with or without the default port, as Twilio validators do', () => {
    const headers = sign('twilio', { body: form, secret: TOKEN, url: URL_ })
    expect(verify('twilio', { body: form, headers, secrets: [TOKEN], url: 'https://brave-otter-42.loca.lt:443/sms' }).valid).toBe(true)
    const withPort = sign('twilio', { body: form, secret: TOKEN, url: 'https://brave-otter-42.loca.lt:443/sms' })
    expect(verify('twilio', { body: form, headers: withPort, secrets: [TOKEN], url: URL_ }).valid).toBe(true)
    expect(verify('twilio', { body: form, headers, secrets: [TOKEN], url: 'https://brave-otter-42.loca.lt:8443/sms' }).valid).toBe(false)
  })

  it('says missing_url, and points at the tunnel when checked against 127.0.0.1', () => {
    const headers = sign('twilio', { body: form, secret: TOKEN, url: URL_ })
    expect(verify('twilio', { body: form, headers, secrets: [TOKEN] }).reason).toBe('missing_url')
    const local = verify('twilio', { body: form, headers, secrets: [TOKEN], url: 'http://localhost:8080/sms' })
    expect(local.detail).toContain('checked against the local http://localhost:8080/sms: verify against the public tunnel URL')
    expect(() => sign('twilio', { body: form, secret: TOKEN })).toThrow(/pass url/)
  })

  it('signs JSON bodies through bodySHA256 in the URL and checks the hash', () => {
    const body = jsonBody()
    const url = twilioBodyHashUrl(URL_, body)
    expect(url).toMatch(/\?bodySHA256=[0-9a-f]{64}$/)
    const headers = sign('twilio', { body, secret: TOKEN, url })
    expect(headers['x-twilio-signature']).toBe(createHmac('sha1', TOKEN).update(url).digest('base64'))
    expect(verify('twilio', { body, headers, secrets: [TOKEN], url }).valid).toBe(true)
    const changed = verify('twilio', { body: jsonBody({ extra: true }), headers, secrets: [TOKEN], url })
    expect(changed).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(changed.detail).toContain('bodySHA256 is not the SHA-256 of this body')
    expect(() => sign('twilio', { body: jsonBody({ other: 1 }), secret: TOKEN, url })).toThrow(/bodySHA256/)
  })

  it('says malformed_header for a signature that is not base64', () => {
    expect(verify('twilio', { body: form, headers: { 'X-Twilio-Signature': '***' }, secrets: [TOKEN], url: URL_ }).reason).toBe('malformed_header')
  })
})
