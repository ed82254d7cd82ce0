import { createHmac } from 'node:crypto'
import { judgeConsumer, refuse } from '../support'
import type { Judge } from './types'

// Zoom publishes no Node library for webhooks: its docs give the check as code (HMAC-SHA256 of
// `v0:${x-zm-request-timestamp}:${body}` with the secret token, hex, compared with
// x-zm-signature), written here from the docs, independent of Hookloop's verifier. The docs'
// check compares no time, so neither does this one.
const TOKEN = 'hookloop-zoom-secret-token'

export const zoomJudge: Judge = {
  provider: 'zoom', library: "Zoom's documented check", secret: TOKEN,
  start: () => judgeConsumer((raw, req) => {
    const body = raw.toString('utf8')
    const expected = `v0=${createHmac('sha256', TOKEN).update(`v0:${String(req.headers['x-zm-request-timestamp'])}:${body}`).digest('hex')}`
    if (req.headers['x-zm-signature'] !== expected) refuse(401)
    return { accepted: (JSON.parse(body) as { event: string }).event }
  }),
}
