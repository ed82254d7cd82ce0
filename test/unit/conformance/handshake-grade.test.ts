import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { gradeHandshakeAnswer, type HandshakeAnswer } from '../../../electron/engine/conformance/consumer/handshake'
import { handshakeAnswer, handshakeRequest } from '../../../electron/engine/providers'
import { freshPrivateKey } from '../../../electron/engine/signatures'
import type { ProbeObservation } from '../../../shared/conformance'
import { HANDSHAKE_KINDS, HANDSHAKES, type HandshakeKind } from '../../../shared/receiver'

// The handshake grade, pure: a request as the provider makes it, an answer as an app gave it.

const SECRET = 'grade-secret'
// Discord signs its PING with an Ed25519 private key, not a shared secret.
const DISCORD_KEY = freshPrivateKey('ed25519')

function answered(kind: HandshakeKind, response: { status?: number | null; headers?: Record<string, string>; body?: string; ms?: number; outcome?: string }): HandshakeAnswer {
  const request = handshakeRequest(kind, { url: 'http://127.0.0.1:1/hook', secret: kind === 'discord-ping' ? DISCORD_KEY : SECRET, now: 1_700_000_000_000 })
  const status = response.status === undefined ? 200 : response.status
  const observation: ProbeObservation = { outcome: response.outcome ?? (status === null ? 'timeout' : `http_${status}`), status_code: status, duration_ms: response.ms ?? 5, location: null, response_excerpt: response.body ?? null, error: null }
  return { request, observation, headers: response.headers ?? {}, body: Buffer.from(response.body ?? '') }
}

/** The documented answer to the request's own challenge. */
function right(kind: HandshakeKind, ms = 5): HandshakeAnswer {
  const base = answered(kind, {})
  const answer = handshakeAnswer(kind, base.request.challenge, SECRET)
  return { ...base, observation: { ...base.observation, duration_ms: ms }, headers: answer.headers, body: answer.body }
}

describe('gradeHandshakeAnswer', () => {
  it('the documented answer passes for every handshake, with the time it took', () => {
    for (const kind of HANDSHAKE_KINDS) {
      const check = gradeHandshakeAnswer(right(kind, 12), SECRET)
      expect(check, kind).toMatchObject({ id: 'handshake_answered', severity: 'pass', passed: true, title: `Answers the ${HANDSHAKES.entries[kind].label} handshake` })
      expect(check.detail, kind).toMatch(/ in 12 ms$/)
    }
  })

  it('no answer in the provider\u2019s time limit fails, naming the limit', () => {
    const x = gradeHandshakeAnswer(answered('x-crc', { status: null, ms: 3000 }), SECRET)
    expect(x).toMatchObject({ severity: 'fail', detail: 'the X (Twitter) CRC request got no answer within 3000 ms: X (Twitter) gives up after 3 s' })
    expect(x.fix).toMatch(/^Answer the handshake at once/)
    const graph = gradeHandshakeAnswer(answered('graph-validation', { status: null, ms: 10_000 }), SECRET)
    expect(graph.detail).toMatch(/within 10000 ms: Microsoft Graph gives up after 10 s/)
  })

  it('a right answer past the limit (in the timeout\u2019s grace) still fails', () => {
    const late = gradeHandshakeAnswer(right('dropbox-challenge', 10_001), SECRET)
    expect(late).toMatchObject({ severity: 'fail', detail: 'echoed the challenge with nosniff, but in 10001 ms: Dropbox waits 10000 ms at most' })
  })

  it('wrong status, challenge, HMAC and content type each say what is wrong', () => {
    expect(gradeHandshakeAnswer(answered('slack-url-verification', { status: 404, body: 'not found' }), SECRET).detail).toMatch(/^answered 404; the handshake needs 200 with the challenge/)
    expect(gradeHandshakeAnswer(answered('slack-url-verification', { body: 'OK' }), SECRET).detail).toMatch(/^the answer does not carry the challenge/)
    const zoom = answered('zoom-url-validation', {})
    const plainToken = zoom.request.challenge
    const wrongKey = { ...zoom, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ plainToken, encryptedToken: createHmac('sha256', 'other').update(plainToken).digest('hex') })) }
    expect(gradeHandshakeAnswer(wrongKey, SECRET).detail).toMatch(/^encryptedToken is not the hex HMAC-SHA256/)
    const dropbox = answered('dropbox-challenge', {})
    const html = { ...dropbox, headers: { 'content-type': 'text/html', 'x-content-type-options': 'nosniff' }, body: Buffer.from(dropbox.request.challenge) }
    expect(gradeHandshakeAnswer(html, SECRET)).toMatchObject({ severity: 'fail', detail: expect.stringMatching(/^echoed the challenge as text\/html; Dropbox asks for text\/plain/) as unknown as string })
    const graph = answered('graph-validation', {})
    const json = { ...graph, headers: { 'content-type': 'application/json' }, body: Buffer.from(graph.request.challenge) }
    expect(gradeHandshakeAnswer(json, SECRET).detail).toMatch(/Microsoft Graph needs text\/plain/)
  })

  it('a right JSON answer under another content type passes with a warning', () => {
    const x = right('x-crc')
    const check = gradeHandshakeAnswer({ ...x, headers: { 'content-type': 'text/plain' } }, SECRET)
    expect(check).toMatchObject({ severity: 'warn', passed: true, fix: 'Send the answer with Content-Type: application/json.' })
  })
})
