import { createRequire } from 'node:module'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// Loaded without its types: resend's declarations import React's, whose DOM stand-ins would
// change the types of the whole test program. The part used here, as resend 6 declares it:
interface ResendClient {
  webhooks: { verify(options: { payload: string; headers: { id: string; timestamp: string; signature: string }; webhookSecret: string }): { type: string; created_at: string; data: unknown } }
}
const { Resend } = createRequire(__filename)('resend') as { Resend: new (key: string) => ResendClient }

// Resend's own check: `resend.webhooks.verify({payload, headers: {id, timestamp, signature},
// webhookSecret})` on the raw body, as Resend's "Verify webhooks requests" page shows it. The
// client needs an API key to be made; verify() never calls the API, so a placeholder does.

const SECRET = 'whsec_' + Buffer.from('hookloop resend signing secret!!').toString('base64')

export const resendJudge: Judge = {
  provider: 'resend', library: 'resend 6 webhooks.verify', secret: SECRET, signsTime: true,
  start() {
    const resend = new Resend('re_hookloop_placeholder')
    return judgeConsumer((body, req) => {
      const header = (name: string) => String(req.headers[name] ?? '')
      const event = resend.webhooks.verify({ payload: body.toString('utf8'), headers: { id: header('svix-id'), timestamp: header('svix-timestamp'), signature: header('svix-signature') }, webhookSecret: SECRET })
      if (typeof event.created_at !== 'string' || !event.data) throw new Error('not a Resend event: no created_at or data')
      return { accepted: event.type, deliveryId: String(req.headers['svix-id']) }
    }, { deliveryIds: true })
  },
}
