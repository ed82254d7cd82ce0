import { Webhook } from 'svix'
import { serveCheck } from '../support'
import type { Judge } from './types'

// svix's Webhook(secret).verify(rawBody, headers), as Svix's docs show it (5 min tolerance).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

export const svixJudge: Judge = {
  provider: 'svix',
  library: 'svix 1',
  secret: SECRET,
  signsTime: true,
  async start() {
    const accepted: string[] = []
    const webhook = new Webhook(SECRET)
    const consumer = await serveCheck((body, req) => accepted.push((webhook.verify(body.toString('utf8'), req.headers as Record<string, string>) as { type: string }).type))
    return { ...consumer, accepted }
  },
}
