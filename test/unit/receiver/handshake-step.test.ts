import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { answerHandshake, handshakeStepOf } from '../../../electron/engine/receiver/handshake-step'
import { compileQueryMatcher } from '../../../electron/engine/receiver/query-matcher'
import { challengeOf, HANDSHAKE_KINDS, HANDSHAKES, handshakeNeedsSecret } from '../../../shared/receiver'
import { DefinitionError } from '../../../shared/receiver'
import { parseRule } from '../../../shared/receiver'
import { expandPreset } from '../../../shared/receiver'

const none = { query: '', body: Buffer.alloc(0), secrets: [] as string[] }
const text = (reply: { body: Buffer }) => reply.body.toString('utf8')
const header = (reply: { headers: [string, string][] }, name: string) => reply.headers.find(([n]) => n === name)?.[1]

describe('handshake definitions', () => {
  it('each names a source, a time limit, its challenge and matchers; presets exist for each', () => {
    for (const kind of HANDSHAKE_KINDS) {
      const h = HANDSHAKES.entries[kind]
      expect(h.sources.length, kind).toBeGreaterThan(0)
      for (const s of h.sources) expect(s.url, kind).toMatch(/^https:\/\//)
      expect(h.timeLimitMs, kind).toBeGreaterThan(0)
      expect(h.matchers.length, kind).toBeGreaterThan(0)
      expect(expandPreset({ preset: kind }).steps, kind).toEqual([{ type: 'handshake', kind }])
    }
    expect(HANDSHAKE_KINDS.filter(handshakeNeedsSecret)).toEqual(['slack-url-verification', 'zoom-url-validation', 'x-crc', 'discord-ping', 'twitch-challenge'])
    expect(expandPreset({ preset: 'x-crc', secret: 'consumer' }).steps).toEqual([{ type: 'handshake', kind: 'x-crc', secret: 'consumer' }])
  })

  it('finds the challenge in the query (decoded) or the JSON body, or says why it is not there', () => {
    expect(challengeOf('graph-validation', { query: 'validationToken=a%20b%2Bc', json: undefined })).toEqual({ ok: true, challenge: 'a b+c' })
    expect(challengeOf('zoom-url-validation', { query: '', json: { payload: { plainToken: 'tok' } } })).toEqual({ ok: true, challenge: 'tok' })
    expect(challengeOf('x-crc', { query: 'nonce=1', json: undefined })).toEqual({ ok: false, reason: 'the request has no crc_token query parameter' })
    expect(challengeOf('slack-url-verification', { query: '', json: undefined })).toEqual({ ok: false, reason: 'the body is not JSON, so it has no challenge' })
    expect(challengeOf('slack-url-verification', { query: '', json: { challenge: 7 } })).toEqual({ ok: false, reason: 'the body has no challenge string' })
    // Discord's PING carries no challenge: its answer is always PONG.
    expect(challengeOf('discord-ping', { query: '', json: { type: 1 } })).toEqual({ ok: true, challenge: '' })
    expect(challengeOf('twitch-challenge', { query: '', json: { challenge: 'c', subscription: {} } })).toEqual({ ok: true, challenge: 'c' })
  })

  it('a handshake step is final and its kind is checked', () => {
    expect(() => parseRule({ steps: [{ type: 'handshake', kind: 'x-crc' }, { type: 'reply', status: 200 }] })).toThrow(DefinitionError)
    expect(() => parseRule({ steps: [{ type: 'handshake', kind: 'github-ping' }] })).toThrow(/kind/)
    expect(handshakeStepOf([{ type: 'delay', ms: 1 }, { type: 'handshake', kind: 'x-crc' }])).toEqual({ type: 'handshake', kind: 'x-crc' })
    expect(handshakeStepOf([{ type: 'reply', status: 200 }])).toBeNull()
  })
})

describe('answerHandshake', () => {
  it('answers each provider as its docs require', () => {
    const slack = answerHandshake({ type: 'handshake', kind: 'slack-url-verification' }, { ...none, body: Buffer.from('{"token":"t","challenge":"ch","type":"url_verification"}') })
    expect([slack.status, header(slack, 'content-type'), text(slack)]).toEqual([200, 'text/plain', 'ch'])
    const zoom = answerHandshake({ type: 'handshake', kind: 'zoom-url-validation' }, { ...none, body: Buffer.from('{"payload":{"plainToken":"pt"},"event":"endpoint.url_validation"}'), secrets: ['newest', 'older'] })
    expect(JSON.parse(text(zoom))).toEqual({ plainToken: 'pt', encryptedToken: createHmac('sha256', 'newest').update('pt').digest('hex') })
    const x = answerHandshake({ type: 'handshake', kind: 'x-crc', secret: 'own' }, { ...none, query: 'crc_token=c1&nonce=n', secrets: ['endpoint'] })
    expect(JSON.parse(text(x))).toEqual({ response_token: `sha256=${createHmac('sha256', 'own').update('c1').digest('base64')}` })
    const dropbox = answerHandshake({ type: 'handshake', kind: 'dropbox-challenge' }, { ...none, query: 'challenge=abc' })
    expect([header(dropbox, 'x-content-type-options'), header(dropbox, 'content-length'), text(dropbox)]).toEqual(['nosniff', '3', 'abc'])
  })

  it('answers 400 without a challenge and 500 without the secret an HMAC needs, saying so', () => {
    const missing = answerHandshake({ type: 'handshake', kind: 'graph-validation' }, none)
    expect([missing.status, text(missing)]).toEqual([400, 'not a Microsoft Graph validationToken handshake: the request has no validationToken query parameter'])
    const noSecret = answerHandshake({ type: 'handshake', kind: 'x-crc' }, { ...none, query: 'crc_token=c' })
    expect(noSecret.status).toBe(500)
    expect(text(noSecret)).toMatch(/HMAC keyed with the app.s consumer secret; give the endpoint that secret/)
    expect(noSecret.fault).toEqual({ type: 'handshake', kind: 'x-crc' })
  })
})

describe('query matcher', () => {
  it('matches a parameter present, or equal to a value (decoded, exact name)', () => {
    const present = compileQueryMatcher({ type: 'query', name: 'crc_token' })
    expect([present('crc_token=1'), present('a=1&crc_token='), present('CRC_TOKEN=1'), present('')]).toEqual([true, true, false, false])
    const equal = compileQueryMatcher({ type: 'query', name: 'mode', value: 'a b' })
    expect([equal('mode=a%20b'), equal('mode=a+b'), equal('mode=x&mode=a%20b'), equal('mode=ab')]).toEqual([true, true, true, false])
  })
})
