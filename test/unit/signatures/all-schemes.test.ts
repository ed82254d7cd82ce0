// Properties every scheme must have, checked for each one: round trip, rotation, and the
// failures that do not depend on the scheme's format.
import { describe, expect, it } from 'vitest'
import { isAsymmetricFormat, SCHEME_IDS, SCHEMES, sign, signBody, twilioBodyHashUrl, verify } from '../../../electron/engine/signatures'
import type { SchemeId } from '../../../electron/engine/signatures'
import { NOW, PUBLIC_URL, extrasFor, jsonBody, secretsFor, wrongSecretFor } from './support'

// Mailgun's signature travels in the body and covers only its own timestamp and token.
const inBody = (scheme: SchemeId) => SCHEMES[scheme].signatureIn === 'body'

function setup(scheme: SchemeId) {
  const [secret, other] = secretsFor(scheme)
  const body = inBody(scheme) ? signBody(scheme, { body: jsonBody(), secret, timestamp: NOW }) : jsonBody()
  const extras = extrasFor(scheme)
  // Twilio signs JSON bodies through ?bodySHA256= in the URL.
  const url = scheme === 'twilio' ? twilioBodyHashUrl(PUBLIC_URL, body) : extras.url
  const headers = sign(scheme, { body, secret, timestamp: NOW, id: 'msg_fixed', ...extras, url })
  const check = (over: Partial<Parameters<typeof verify>[1]> = {}) => verify(scheme, { body, headers, secrets: [secret], ...extras, url, ...over })
  return { body, secret, other, headers, check, url }
}

describe.each(SCHEME_IDS)('%s', (scheme) => {
  it('signs with lower-case header names and verifies its own signature', () => {
    const { headers, check } = setup(scheme)
    for (const name of Object.keys(headers)) expect(name).toBe(name.toLowerCase())
    const result = check()
    expect(result).toMatchObject({ valid: true, scheme, reason: 'ok', secretIndex: 0 })
    expect(result.detail).toMatch(/valid/)
  })

  it('names the signature header in SCHEMES and sends the id header when it has one', () => {
    const { headers, body } = setup(scheme)
    const meta = SCHEMES[scheme]
    if (inBody(scheme)) {
      expect(headers).toEqual({})
      expect(JSON.parse(body.toString())).toMatchObject({ signature: { timestamp: String(NOW), token: expect.stringMatching(/^[0-9a-f]{50}$/) as unknown as string } })
      return
    }
    const signatureHeader = meta.signatureHeader ?? 'x-acme-signature'
    expect(headers[signatureHeader]).toBeTruthy()
    if (meta.idHeader) expect(headers[meta.idHeader]).toBe('msg_fixed')
    for (const name of meta.headers) expect(name).toBe(name.toLowerCase())
  })

  it('accepts any of several secrets and reports which one matched (rotation)', () => {
    const { secret, other, check } = setup(scheme)
    expect(check({ secrets: [other, secret] })).toMatchObject({ valid: true, secretIndex: 1 })
    expect(check({ secrets: [other, secret] }).detail).toContain('secret 2 of 2')
    expect(check({ secrets: [other] })).toMatchObject({ valid: false, reason: 'signature_mismatch' })
  })

  it('finds headers whatever their case and in array form', () => {
    const { headers, check } = setup(scheme)
    const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]))
    expect(check({ headers: shouted }).valid).toBe(true)
  })

  it('says missing_header when there are no headers', () => {
    // In the body: a body without its signature object.
    const result = setup(scheme).check(inBody(scheme) ? { body: jsonBody() } : { headers: {} })
    expect(result).toMatchObject({ valid: false, reason: 'missing_header' })
    expect(result.detail).toMatch(/missing/)
  })

  it('says no_secret when no secret is given', () => {
    expect(setup(scheme).check({ secrets: [] }).reason).toBe('no_secret')
  })

  it('says signature_mismatch with a wrong-secret sentence, expected and received', () => {
    const { check, body, url } = setup(scheme)
    const wrong = wrongSecretFor(scheme)
    const result = check({ secrets: [wrong] })
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(result.detail).toMatch(/secret is probably wrong/)
    expect(result.received).toBeTruthy()
    // A private-key signature cannot be recomputed by the verifier (ECDSA is not even
    // deterministic): the asymmetric schemes have no `expected` to show.
    // Mailgun signs a fresh token each time: the wrong secret's signature cannot be made again.
    if (isAsymmetricFormat(SCHEMES[scheme].secretFormat) || inBody(scheme)) return
    expect(result.expected).toBeTruthy()
    expect(result.expected).not.toContain(secretsFor(scheme)[0])
    expect(result.expected).not.toBe(result.received)
    // `expected` is what the given (wrong) secret signs: the inspector can show both side by side.
    // A token-only scheme's "signature" is the secret: it shows a masked form, never the token.
    if (SCHEMES[scheme].tokenOnly) return void expect(result.expected).not.toContain(wrong)
    const wrongHeaders = sign(scheme, { body, secret: wrong, timestamp: NOW, id: 'msg_fixed', ...extrasFor(scheme), url })
    expect(Object.values(wrongHeaders).join(' ')).toContain(result.expected)
  })

})

// A token-only scheme (GitLab) signs no body: these properties belong to the schemes that do.
describe.each(SCHEME_IDS.filter((id) => !SCHEMES[id].tokenOnly))('%s signs the body', (scheme) => {
  it('says empty_body when the body was lost before verification', () => {
    const result = setup(scheme).check({ body: Buffer.alloc(0) })
    expect(result).toMatchObject({ valid: false, reason: 'empty_body' })
    expect(result.detail).toMatch(/raw request body/)
  })

  it('diagnoses a re-serialised JSON body', (ctx) => {
    // Mailgun's signature covers no byte of the body: a re-serialised body still verifies.
    if (inBody(scheme)) return ctx.skip()
    const { body, check } = setup(scheme)
    const pretty = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2))
    const result = check({ body: pretty })
    expect(result).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(result.detail).toMatch(/re-serialised: verify the raw bytes/)
  })

  it('diagnoses a trailing newline added after signing', (ctx) => {
    // Likewise: a newline after the body changes no byte Mailgun signs.
    if (inBody(scheme)) return ctx.skip()
    const { body, check } = setup(scheme)
    const result = check({ body: Buffer.concat([body, Buffer.from('\n')]) })
    expect(result.valid).toBe(false)
    expect(result.detail).toMatch(/newline/)
  })
})
