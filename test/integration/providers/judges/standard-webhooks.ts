import { Webhook } from 'standardwebhooks'
import { serveCheck } from '../support'
import type { Judge } from './types'

// standardwebhooks' Webhook(secret).verify(rawBody, headers), as the specification's library shows it.
const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

export const standardWebhooksJudge: Judge = {
  provider: 'standard-webhooks',
  library: 'standardwebhooks 1',
  secret: SECRET,
  signsTime: true,
  async start() {
    const accepted: string[] = []
    const webhook = new Webhook(SECRET)
    const consumer = await serveCheck((body, req) => accepted.push((webhook.verify(body.toString('utf8'), req.headers as Record<string, string>) as { type: string }).type))
    return { ...consumer, accepted }
  },
}
