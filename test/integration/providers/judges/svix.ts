import { Webhook } from 'svix'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// svix's Webhook(secret).verify(rawBody, headers), as Svix's docs show it (5 min tolerance).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const webhook = new Webhook(SECRET)

export const svixJudge: Judge = {
  provider: 'svix', library: 'svix 1', secret: SECRET, signsTime: true,
  start: () => judgeConsumer((body, req) => ({ accepted: (webhook.verify(body.toString('utf8'), req.headers as Record<string, string>) as { type: string }).type })),
}
