import { createHmac } from 'node:crypto'
import { judgeConsumer, matches } from '../support'
import type { Judge } from './types'

// Mailgun publishes no Node verifier: the check its "Securing webhooks" page gives, written from
// it — hex HMAC-SHA256 of signature.timestamp + signature.token keyed with the webhook signing key,
// compared with signature.signature — and the token cache it recommends (a token seen twice is a
// replay). Mailgun names no time limit, so no time is checked.
const secret = 'key-mailgun-webhook-signing-7a3f'

export const mailgunJudge: Judge = {
  provider: 'mailgun', library: "Mailgun's documented check", secret,
  start() {
    const tokens = new Set<string>()
    return judgeConsumer((body) => {
      const parsed = JSON.parse(body.toString('utf8')) as { signature?: { timestamp?: string; token?: string; signature?: string }; 'event-data'?: { event?: string } }
      const { timestamp = '', token = '', signature = '' } = parsed.signature ?? {}
      if (!matches(signature, createHmac('sha256', secret).update(timestamp + token).digest('hex'))) throw new Error('signature refused')
      if (tokens.has(token)) throw new Error('token seen before: a replay')
      tokens.add(token)
      return { accepted: String(parsed['event-data']?.event) }
    })
  },
}
