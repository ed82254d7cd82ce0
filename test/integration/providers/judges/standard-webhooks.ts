import { Webhook } from 'standardwebhooks'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// standardwebhooks' Webhook(secret).verify(rawBody, headers), as the specification's library shows it.
const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const webhook = new Webhook(SECRET)

export const standardWebhooksJudge: Judge = {
  provider: 'standard-webhooks', library: 'standardwebhooks 1', secret: SECRET, signsTime: true,
  start: () => judgeConsumer((body, req) => ({ accepted: (webhook.verify(body.toString('utf8'), req.headers as Record<string, string>) as { type: string }).type })),
}
