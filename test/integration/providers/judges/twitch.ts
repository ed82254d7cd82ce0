import { createHmac } from 'node:crypto'
import { judgeConsumer, matches } from '../support'
import type { Judge } from './types'

// Twitch's documented check ("Handling webhook events — Verifying the event message"), written
// from the docs: @twurple/eventsub-http verifies only inside its middleware, for subscriptions it
// created itself through the Twitch API, so it cannot judge a single request here. HMAC-SHA256 of
// message id + timestamp + raw body, "sha256=" + hex, compared in constant time; a message older
// than 10 minutes is refused; a webhook_callback_verification is answered with its challenge.
const secret = 'twitch-eventsub-secret-4f2a9c'
const TEN_MINUTES_MS = 10 * 60_000

export function twitchVerifies(body: Buffer, headers: Record<string, string | string[] | undefined>, key: string, now = Date.now()): string | null {
  const id = String(headers['twitch-eventsub-message-id'] ?? '')
  const timestamp = String(headers['twitch-eventsub-message-timestamp'] ?? '')
  const expected = 'sha256=' + createHmac('sha256', key).update(id + timestamp).update(body).digest('hex')
  if (!matches(headers['twitch-eventsub-message-signature'], expected)) return 'signature refused'
  if (now - Date.parse(timestamp) > TEN_MINUTES_MS || Number.isNaN(Date.parse(timestamp))) return 'message older than 10 minutes'
  return null
}

export const twitchJudge: Judge = {
  provider: 'twitch', library: "Twitch's documented check", secret, signsTime: true,
  start: () => judgeConsumer((body, req) => {
    const refused = twitchVerifies(body, req.headers, secret)
    if (refused) throw new Error(refused)
    const type = String(req.headers['twitch-eventsub-message-type'])
    const message = JSON.parse(body.toString('utf8')) as { subscription: { type: string } }
    return { accepted: type === 'revocation' ? 'revocation' : message.subscription.type }
  }),
}
