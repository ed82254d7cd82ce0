// The verification handshakes providers make before they deliver to a new URL (or, for Zoom and
// X, again from time to time): where the challenge is in the request, what the answer must be,
// how fast, and which document says so. Data only (the renderer reads it too): the sender's
// request, the receiver's answer (a `handshake` rule step) and the consumer check's grade are
// built from it in electron/engine/. A new handshake = a new entry here (and a case in each of
// those exhaustive switches).
import { defineCatalog, type PresetInfo } from '../catalog'
import type { Matcher } from './rules'

export interface HandshakeSource {
  title: string
  url: string
  /** What the document says that Hookloop follows. */
  note: string
}

/**
 * Where the challenge is: a query parameter, a field of the JSON body (dotted path), or nowhere —
 * the answer is fixed and the request only has to be told apart (Discord's PING, answered PONG).
 */
export type ChallengeAt = { in: 'query'; name: string } | { in: 'body'; path: string } | { in: 'none' }

export interface HandshakeDefinition extends PresetInfo {
  provider: string
  method: 'GET' | 'POST'
  challenge: ChallengeAt
  /**
   * What keys the answer's HMAC: null when the answer is the challenge echoed (the request may still
   * be signed, as Slack's is, with the endpoint's signing secret).
   */
  answerSecret: string | null
  /** The content type the answer must have (a prefix match; null = any). */
  answerType: string | null
  /** How long the provider waits for the answer. */
  timeLimitMs: number
  /** The answer the docs require, in words. */
  answer: string
  /** What picks the request out among the others an endpoint receives (the receiver preset's matchers). */
  matchers: Matcher[]
  /**
   * The provider signs the handshake request with the endpoint's signing secret (Slack, Zoom): on an
   * endpoint with a secret, the receiver answers only a request whose signature verifies.
   */
  requestSigned: boolean
  sources: HandshakeSource[]
}

type Where = Pick<HandshakeDefinition, 'method' | 'challenge' | 'matchers'>

/** A handshake told apart by a query parameter that carries the challenge (X, Graph, Dropbox). */
function byQuery(method: HandshakeDefinition['method'], name: string): Where {
  return { method, challenge: { in: 'query', name }, matchers: [{ type: 'method', method }, { type: 'query', name }] }
}

/** A POST told apart by a JSON body field's value, the challenge in another field (Slack, Zoom). */
function byBodyType(typePath: string, value: string, challengePath: string): Where {
  return { method: 'POST', challenge: { in: 'body', path: challengePath }, matchers: [{ type: 'method', method: 'POST' }, { type: 'event-type', path: typePath, value }] }
}

/** A POST told apart by a header's value, the challenge in a JSON body field (Twitch's message type). */
function byHeader(name: string, value: string, challengePath: string): Where {
  return { method: 'POST', challenge: { in: 'body', path: challengePath }, matchers: [{ type: 'method', method: 'POST' }, { type: 'header', name, value }] }
}

function handshake(entry: Omit<HandshakeDefinition, 'requestSigned'> & { requestSigned?: boolean }): HandshakeDefinition {
  return { ...entry, requestSigned: entry.requestSigned ?? false }
}

export const HANDSHAKES = defineCatalog({
  'slack-url-verification': handshake({
    label: 'Slack url_verification',
    description: 'Slack Events API: a signed POST {token, challenge, type: "url_verification"}; answer 200 with the challenge',
    provider: 'Slack',
    ...byBodyType('type', 'url_verification', 'challenge'),
    requestSigned: true,
    answerSecret: null,
    answerType: null,
    timeLimitMs: 3000,
    answer: '200 with the challenge as plain text (JSON {"challenge": …} or form challenge=… are accepted too), within 3 s',
    sources: [
      {
        title: 'Slack API — url_verification event',
        url: 'https://api.slack.com/events/url_verification',
        note: 'The whole payload is {token, challenge, type: "url_verification"} (no inner event). Verify the request, then respond 200 with the challenge value: text/plain, or application/x-www-form-urlencoded challenge=…, or application/json {"challenge": …}. Events API answers are due within 3 s.',
      },
    ],
  }),
  'zoom-url-validation': handshake({
    label: 'Zoom endpoint.url_validation',
    description: 'Zoom: a signed POST {event: "endpoint.url_validation", payload: {plainToken}}; answer {plainToken, encryptedToken}',
    provider: 'Zoom',
    ...byBodyType('event', 'endpoint.url_validation', 'payload.plainToken'),
    requestSigned: true,
    answerSecret: 'the app\u2019s secret token',
    answerType: 'application/json',
    timeLimitMs: 3000,
    answer: '200 JSON {plainToken, encryptedToken}, encryptedToken = hex HMAC-SHA256 of plainToken keyed with the secret token, within 3 s',
    sources: [
      {
        title: 'Zoom Developer — Using webhooks: Validate your webhook endpoint',
        url: 'https://developers.zoom.us/docs/api/webhooks/#validate-your-webhook-endpoint',
        note: 'A POST {payload: {plainToken}, event_ts, event: "endpoint.url_validation"}, signed like any event (x-zm-signature). Respond 200 within 3 s with JSON {plainToken, encryptedToken}, encryptedToken the HMAC-SHA256 of plainToken keyed with the secret token, hex. Zoom repeats the check every 72 h.',
      },
      {
        title: 'Zoom Developer changelog — Webhook URL validation',
        url: 'https://developers.zoom.us/changelog/platform/webhook-url-validation.md',
        note: 'Validation is required before Zoom sends events, and repeated every 72 hours (challenge-response check).',
      },
    ],
  }),
  'x-crc': handshake({
    label: 'X (Twitter) CRC',
    description: 'X Account Activity / webhooks: GET ?crc_token=…; answer {"response_token": "sha256=<base64 HMAC>"}',
    provider: 'X (Twitter)',
    ...byQuery('GET', 'crc_token'),
    answerSecret: 'the app\u2019s consumer secret',
    answerType: 'application/json',
    timeLimitMs: 3000,
    answer: '200 JSON {"response_token": "sha256=" + base64 HMAC-SHA256(consumer secret, crc_token)}, within 3 s',
    sources: [
      {
        title: 'X Developer — Securing webhooks (Challenge-Response Checks)',
        url: 'https://developer.x.com/en/docs/twitter-api/enterprise/account-activity-api/guides/securing-webhooks',
        note: 'X makes a GET with a crc_token parameter; the answer is JSON {"response_token": "sha256=<base64 HMAC-SHA256 of crc_token keyed with the consumer secret>"} within 3 s. The CRC comes at registration, roughly hourly, and on demand (PUT); a failed one stops deliveries.',
      },
      {
        title: 'X API — Webhooks quickstart',
        url: 'https://docs.x.com/x-api/webhooks/quickstart',
        note: 'The same CRC for X API v2 webhooks: GET ?crc_token=…, answer {"response_token": "sha256=…"}.',
      },
    ],
  }),
  'graph-validation': handshake({
    label: 'Microsoft Graph validationToken',
    description: 'Microsoft Graph subscriptions: POST ?validationToken=…; answer 200 text/plain with the token decoded',
    provider: 'Microsoft Graph',
    ...byQuery('POST', 'validationToken'),
    answerSecret: null,
    answerType: 'text/plain',
    timeLimitMs: 10_000,
    answer: '200, Content-Type text/plain, the body the validationToken URL-decoded, within 10 s',
    sources: [
      {
        title: 'Microsoft Learn — Receive change notifications through webhooks (notification endpoint validation)',
        url: 'https://learn.microsoft.com/en-us/graph/change-notifications-delivery-webhooks',
        note: 'When a subscription is created, Graph POSTs to {notificationUrl}?validationToken={opaque token}. Within 10 s the endpoint answers 200 OK, Content-Type text/plain, the body the validation token decoded (it is URL-encoded in the query); otherwise creating the subscription fails with 400.',
      },
    ],
  }),
  'dropbox-challenge': handshake({
    label: 'Dropbox challenge',
    description: 'Dropbox webhooks: GET ?challenge=…; answer the challenge, text/plain with X-Content-Type-Options: nosniff',
    provider: 'Dropbox',
    ...byQuery('GET', 'challenge'),
    answerSecret: null,
    answerType: 'text/plain',
    timeLimitMs: 10_000,
    answer: '200 with the challenge echoed, Content-Type text/plain and X-Content-Type-Options: nosniff, within 10 s',
    sources: [
      {
        title: 'Dropbox — Webhooks reference (the verification request)',
        url: 'https://www.dropbox.com/developers/reference/webhooks',
        note: 'The first request is a GET with a challenge query parameter; echo it back as the body, with Content-Type: text/plain and X-Content-Type-Options: nosniff (so the echo is no reflected XSS). Dropbox waits up to 10 s and does not retry a failed verification.',
      },
    ],
  }),
  'discord-ping': handshake({
    label: 'Discord PING',
    description: 'Discord interactions: a signed POST {"type": 1, …} when the endpoint URL is saved; answer {"type": 1} (PONG)',
    provider: 'Discord',
    method: 'POST',
    challenge: { in: 'none' },
    // The interaction type is a JSON number: the event-type matcher compares a number by its text.
    matchers: [{ type: 'method', method: 'POST' }, { type: 'event-type', path: 'type', value: '1' }],
    requestSigned: true,
    answerSecret: null,
    answerType: 'application/json',
    timeLimitMs: 3000,
    answer: '200 JSON {"type": 1} (PONG) to a PING whose Ed25519 signature verifies (401 otherwise), within 3 s',
    sources: [
      {
        title: 'Discord Developer Docs — Interactions overview: configuring an interactions endpoint URL',
        url: 'https://discord.com/developers/docs/interactions/overview#configuring-an-interactions-endpoint-url',
        note: 'When the URL is saved Discord POSTs a PING interaction (type 1), signed like any interaction (X-Signature-Ed25519 over X-Signature-Timestamp + body); the endpoint must acknowledge it with a 200 JSON {"type": 1} (PONG), and must answer 401 to requests whose signature does not verify, which Discord also sends. Interactions are answered within 3 s.',
      },
    ],
  }),
  'twitch-challenge': handshake({
    label: 'Twitch EventSub challenge',
    description: 'Twitch EventSub: a signed POST with Twitch-Eventsub-Message-Type: webhook_callback_verification and {challenge, subscription}; answer the challenge as text/plain',
    provider: 'Twitch',
    ...byHeader('twitch-eventsub-message-type', 'webhook_callback_verification', 'challenge'),
    requestSigned: true,
    answerSecret: null,
    answerType: 'text/plain',
    timeLimitMs: 3000,
    answer: '200, Content-Type text/plain, the body the challenge value exactly, within a few seconds (3 s here)',
    sources: [
      {
        title: 'Twitch Developers — Handling webhook events: responding to a challenge request',
        url: 'https://dev.twitch.tv/docs/eventsub/handling-webhook-events/#responding-to-a-challenge-request',
        note: 'After a subscription is created Twitch POSTs a webhook_callback_verification message {challenge, subscription (status webhook_callback_verification_pending)}, signed like notifications with the subscription\u2019s secret. Verify it, then answer 200 with the raw challenge as the body and Content-Type text/plain; otherwise the subscription is not enabled. The docs ask for answers "within a few seconds" and give no exact limit: 3 s here.',
      },
    ],
  }),
})

export const HANDSHAKE_KINDS = HANDSHAKES.ids
export type HandshakeKind = (typeof HANDSHAKE_KINDS)[number]

export function isHandshakeKind(value: string): value is HandshakeKind {
  return HANDSHAKES.has(value)
}

/** Whether the handshake's answer (or its request's signature) depends on a secret. */
export function handshakeNeedsSecret(kind: HandshakeKind): boolean {
  const entry = HANDSHAKES.entries[kind]
  return entry.answerSecret !== null || entry.requestSigned
}

/**
 * The challenge a request carries for the handshake, or why there is none. `query` is the raw
 * query string (without `?`), `json` the parsed body (undefined when it is not JSON).
 */
export function challengeOf(kind: HandshakeKind, request: { query: string; json: unknown }): { ok: true; challenge: string } | { ok: false; reason: string } {
  const at = HANDSHAKES.entries[kind].challenge
  if (at.in === 'none') return { ok: true, challenge: '' }
  if (at.in === 'query') {
    const value = new URLSearchParams(request.query).get(at.name)
    if (value === null) return { ok: false, reason: `the request has no ${at.name} query parameter` }
    return { ok: true, challenge: value }
  }
  let cur: unknown = request.json
  for (const part of at.path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) {
      cur = undefined
      break
    }
    cur = (cur as Record<string, unknown>)[part]
  }
  if (typeof cur !== 'string') return { ok: false, reason: request.json === undefined ? `the body is not JSON, so it has no ${at.path}` : `the body has no ${at.path} string` }
  return { ok: true, challenge: cur }
}
