import { verifyWebhook } from '@clerk/backend/webhooks'
import { rawBody, serve } from '../support'
import type { Judge } from './types'

// Clerk's own check: `verifyWebhook(request, {signingSecret})` from @clerk/backend/webhooks, in
// process, on a Fetch Request built from what arrived (as Clerk's docs show it in a route handler).

const SECRET = 'whsec_' + Buffer.from('hookloop clerk signing secret!!!').toString('base64')

export const clerkJudge: Judge = {
  provider: 'clerk',
  library: '@clerk/backend 3 verifyWebhook',
  secret: SECRET,
  signsTime: true,
  async start() {
    const accepted: string[] = []
    const deliveryIds: string[] = []
    const consumer = await serve(async (req, res) => {
      const body = await rawBody(req)
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
      try {
        const event = await verifyWebhook(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: 'POST', headers, body }), { signingSecret: SECRET })
        if (event.object !== 'event' || !event.instance_id) throw new Error('not a Clerk event envelope')
        deliveryIds.push(String(req.headers['svix-id']))
      accepted.push(event.type)
        res.writeHead(200).end()
      } catch (error) {
        res.writeHead(400).end(String(error))
      }
    })
    return { url: consumer.url, accepted, deliveryIds, close: consumer.close }
  },
}
