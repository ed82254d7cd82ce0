import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto'
import { HANDSHAKES, type HandshakeKind } from '../../../shared/receiver'
import { sign } from '../signatures'

// The verification handshakes providers make before they deliver to a new URL (their definitions
// and source notes: shared/receiver/handshakes.ts), from the sender's side: the challenge request each
// provider sends, the answer its docs require, and a grade of the answer a consumer gave.
// `handshakeAnswer` is the correct answer (what a consumer must do, and what Hookloop's receiver
// answers with a `handshake` step).

export { HANDSHAKE_KINDS, handshakeNeedsSecret, isHandshakeKind, type HandshakeKind } from '../../../shared/receiver'

export interface HandshakeRequest {
  kind: HandshakeKind
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  body: Buffer
  /** The challenge value the answer must carry. */
  challenge: string
}

export interface HandshakeResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
}

export interface HandshakeGrade {
  ok: boolean
  detail: string
}

const DISCORD_APP = '1180000000000000001'
const snowflake = () => `11${String(randomInt(10 ** 8, 10 ** 9 - 1))}${String(randomInt(10 ** 8, 10 ** 9 - 1))}`

const hmacHex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')
const hmacBase64 = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64')

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url)
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v)
  return u.toString()
}

/** The request the provider sends; `now` (ms) is the signing time. */
export function handshakeRequest(kind: HandshakeKind, input: { url: string; secret?: string; now: number }): HandshakeRequest {
  const challenge = randomBytes(18).toString('base64url')
  const secret = input.secret ?? ''
  const timestamp = Math.floor(input.now / 1000)
  switch (kind) {
    case 'slack-url-verification': {
      const body = Buffer.from(JSON.stringify({ token: 'hookloopVerificationToken', challenge, type: 'url_verification' }))
      return { kind, method: 'POST', url: input.url, body, challenge, headers: { 'content-type': 'application/json', ...sign('slack', { body, secret, timestamp }) } }
    }
    case 'zoom-url-validation': {
      const body = Buffer.from(JSON.stringify({ payload: { plainToken: challenge }, event_ts: input.now, event: 'endpoint.url_validation' }))
      return { kind, method: 'POST', url: input.url, body, challenge, headers: { 'content-type': 'application/json; charset=utf-8', ...sign('zoom', { body, secret, timestamp }) } }
    }
    case 'x-crc':
      return { kind, method: 'GET', url: withQuery(input.url, { crc_token: challenge, nonce: randomBytes(8).toString('hex') }), body: Buffer.alloc(0), challenge, headers: {} }
    case 'graph-validation':
      return { kind, method: 'POST', url: withQuery(input.url, { validationToken: `Validation: Testing client application reachability for subscription Request-Id: ${challenge}` }), body: Buffer.alloc(0), challenge: `Validation: Testing client application reachability for subscription Request-Id: ${challenge}`, headers: { 'content-type': 'text/plain; charset=utf-8' } }
    case 'dropbox-challenge':
      return { kind, method: 'GET', url: withQuery(input.url, { challenge }), body: Buffer.alloc(0), challenge, headers: {} }
    case 'discord-ping': {
      // A PING carries no challenge: the answer is always PONG, to a request whose signature verifies.
      const body = Buffer.from(JSON.stringify({ id: snowflake(), application_id: DISCORD_APP, type: 1, token: randomBytes(48).toString('base64url'), version: 1, user: { id: snowflake(), username: 'discord', discriminator: '0', global_name: null, avatar: null }, entitlements: [], authorizing_integration_owners: {} }))
      return { kind, method: 'POST', url: input.url, body, challenge: '', headers: { 'content-type': 'application/json', 'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)', ...sign('discord', { body, secret, timestamp }) } }
    }
    case 'twitch-challenge': {
      const id = randomUUID()
      const body = Buffer.from(JSON.stringify({ challenge, subscription: { id: randomUUID(), status: 'webhook_callback_verification_pending', type: 'stream.online', version: '1', cost: 0, condition: { broadcaster_user_id: '1337' }, transport: { method: 'webhook', callback: input.url }, created_at: new Date(input.now).toISOString() } }))
      const headers = { 'content-type': 'application/json', 'twitch-eventsub-message-type': 'webhook_callback_verification', 'twitch-eventsub-message-retry': '0', 'twitch-eventsub-subscription-type': 'stream.online', 'twitch-eventsub-subscription-version': '1', ...sign('twitch', { body, secret, timestamp, id }) }
      return { kind, method: 'POST', url: input.url, body, challenge, headers }
    }
    default: {
      const never: never = kind
      throw new Error(`unknown handshake ${String(never)}`)
    }
  }
}

/** The answer the provider's docs require for a challenge. */
export function handshakeAnswer(kind: HandshakeKind, challenge: string, secret = ''): HandshakeResponse {
  const json = (value: unknown): HandshakeResponse => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)) })
  switch (kind) {
    case 'slack-url-verification':
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(challenge) }
    case 'zoom-url-validation':
      return json({ plainToken: challenge, encryptedToken: hmacHex(secret, challenge) })
    case 'x-crc':
      return json({ response_token: `sha256=${hmacBase64(secret, challenge)}` })
    case 'graph-validation':
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(challenge) }
    case 'dropbox-challenge':
      return { status: 200, headers: { 'content-type': 'text/plain', 'x-content-type-options': 'nosniff' }, body: Buffer.from(challenge) }
    case 'discord-ping':
      return json({ type: 1 })
    case 'twitch-challenge':
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(challenge) }
    default: {
      const never: never = kind
      throw new Error(`unknown handshake ${String(never)}`)
    }
  }
}

function jsonOf(body: Buffer): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Grades a consumer's answer to a handshake: ok, or the sentence naming what is wrong. */
export function gradeHandshake(request: HandshakeRequest, response: HandshakeResponse, secret = ''): HandshakeGrade {
  const { kind, challenge } = request
  const text = response.body.toString('utf8')
  const type = (response.headers['content-type'] ?? '').toLowerCase()
  if (response.status !== 200) return { ok: false, detail: `answered ${response.status}; the handshake needs 200 with the challenge, or the provider will not deliver to this URL` }
  switch (kind) {
    case 'slack-url-verification':
      if (text.trim() === challenge || jsonOf(response.body)?.challenge === challenge) return { ok: true, detail: 'answered the url_verification challenge' }
      return { ok: false, detail: 'the answer does not carry the challenge: reply with the `challenge` field of the body, as plain text or JSON {"challenge": …}' }
    case 'zoom-url-validation': {
      const body = jsonOf(response.body)
      if (body?.plainToken !== challenge) return { ok: false, detail: 'the answer has no plainToken equal to the one sent: reply JSON {plainToken, encryptedToken}' }
      if (body.encryptedToken !== hmacHex(secret, challenge)) return { ok: false, detail: 'encryptedToken is not the hex HMAC-SHA256 of plainToken keyed with the secret token (the wrong secret, or base64 instead of hex?)' }
      return { ok: true, detail: 'answered endpoint.url_validation with the right encryptedToken' }
    }
    case 'x-crc': {
      const token = jsonOf(response.body)?.response_token
      if (token === `sha256=${hmacBase64(secret, challenge)}`) return { ok: true, detail: 'answered the CRC with the right response_token' }
      return { ok: false, detail: typeof token === 'string' ? 'response_token is not "sha256=" + base64 HMAC-SHA256 of crc_token keyed with the consumer secret' : 'the answer has no response_token: reply JSON {"response_token": "sha256=…"}' }
    }
    case 'graph-validation':
      if (text !== challenge) return { ok: false, detail: 'the body is not the validationToken (URL-decoded, as plain text)' }
      if (!type.startsWith('text/plain')) return { ok: false, detail: `the token came back as ${type || 'no content type'}; Microsoft Graph needs text/plain` }
      return { ok: true, detail: 'echoed the validationToken as text/plain' }
    case 'dropbox-challenge':
      if (text !== challenge) return { ok: false, detail: 'the body is not the challenge query parameter' }
      if (!type.startsWith('text/plain')) return { ok: false, detail: `echoed the challenge as ${type || 'no content type'}; Dropbox asks for text/plain (with nosniff), so the echo cannot be read as HTML` }
      if (response.headers['x-content-type-options'] !== 'nosniff') return { ok: false, detail: 'echoed the challenge without X-Content-Type-Options: nosniff (Dropbox asks for it, with text/plain)' }
      return { ok: true, detail: 'echoed the challenge with nosniff' }
    case 'discord-ping': {
      if (jsonOf(response.body)?.type !== 1) return { ok: false, detail: 'the answer is not JSON {"type": 1}: a PING is acknowledged with a PONG (type 1), not with an interaction response' }
      if (!type.startsWith('application/json')) return { ok: false, detail: `the PONG came back as ${type || 'no content type'}; Discord reads application/json` }
      return { ok: true, detail: 'answered the PING with a PONG' }
    }
    case 'twitch-challenge':
      if (text !== challenge) return { ok: false, detail: text.includes(challenge) ? 'the body carries the challenge but more than it (JSON?): answer the raw challenge string only' : 'the body is not the challenge field of the request' }
      if (!type.startsWith('text/plain')) return { ok: false, detail: `echoed the challenge as ${type || 'no content type'}; Twitch asks for text/plain` }
      return { ok: true, detail: 'answered the webhook_callback_verification challenge' }
    default: {
      const never: never = kind
      throw new Error(`unknown handshake ${String(never)}`)
    }
  }
}

/** Sends the handshake over HTTP and grades the answer. */
export async function runHandshake(kind: HandshakeKind, input: { url: string; secret?: string; now: number; timeoutMs?: number }): Promise<HandshakeGrade & { request: HandshakeRequest; response: HandshakeResponse | null }> {
  const request = handshakeRequest(kind, input)
  let response: HandshakeResponse
  try {
    const answer = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.method === 'POST' ? { body: request.body } : {}), signal: AbortSignal.timeout(input.timeoutMs ?? HANDSHAKES.entries[kind].timeLimitMs), redirect: 'manual' })
    const headers: Record<string, string> = {}
    answer.headers.forEach((value, name) => (headers[name] = value))
    response = { status: answer.status, headers, body: Buffer.from(await answer.arrayBuffer()) }
  } catch (error) {
    return { ok: false, detail: `no answer: ${error instanceof Error ? error.message : String(error)}`, request, response: null }
  }
  return { ...gradeHandshake(request, response, input.secret), request, response }
}
