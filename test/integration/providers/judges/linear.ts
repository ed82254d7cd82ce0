import { LinearWebhookClient } from '@linear/sdk/webhooks'
import { EVENT_CATALOG } from '../../../../shared/event-catalog'
import { serve } from '../support'
import type { Judge } from './types'

// The Linear SDK's LinearWebhookClient node handler with handler.on(type), as its docs show it:
// Linear-Signature plus the body's webhookTimestamp within a minute.
const SECRET = 'lin_wh_hookloop_secret'

export const linearJudge: Judge = {
  provider: 'linear', library: '@linear/sdk 98', secret: SECRET, signsTime: true,
  async start() {
    const accepted: string[] = []
    const handler = new LinearWebhookClient(SECRET).createHandler()
    for (const type of new Set(EVENT_CATALOG.linear.map((e) => e.type.split('.')[0]!))) {
      handler.on(type as 'Issue', (payload) => {
        accepted.push(`${payload.type}.${payload.action}`)
      })
    }
    const consumer = await serve(handler as unknown as Parameters<typeof serve>[0])
    return { ...consumer, accepted }
  },
}
