import { createHmac } from 'node:crypto'
import { judgeConsumer, matches, refuse } from '../support'
import type { Judge } from './types'

// Typeform publishes no Node library for webhooks. Its docs give the check: "sha256=" + base64
// HMAC-SHA256 of the whole raw payload with the secret, compared with Typeform-Signature.
// Written here from the docs, not with Hookloop's verifier.

const SECRET = 'hookloop-typeform-webhook-secret'

export const typeformJudge: Judge = {
  provider: 'typeform', library: "Typeform's documented signature check", secret: SECRET,
  start: () => judgeConsumer((body, req) => {
    if (!matches(req.headers['typeform-signature'], `sha256=${createHmac('sha256', SECRET).update(body).digest('base64')}`)) refuse(401, "Typeform-Signature doesn't match")
    const event = JSON.parse(body.toString('utf8')) as { event_id?: string; event_type?: string; form_response?: { form_id?: string; answers?: Array<{ field?: { id?: string } }>; definition?: { fields?: Array<{ id: string }> } } }
    const known = new Set(event.form_response?.definition?.fields?.map((f) => f.id))
    if (!event.event_id || !event.event_type || !event.form_response?.form_id || !event.form_response.answers?.every((a) => known.has(a.field?.id ?? ''))) refuse(400, 'not a Typeform response whose answers name its fields')
    return { accepted: event.event_type }
  }),
}
