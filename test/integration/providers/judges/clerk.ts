import { verifyWebhook } from '@clerk/backend/webhooks'
import { judgeConsumer } from '../support'
import type { Judge } from './types'

// Clerk's own check: `verifyWebhook(request, {signingSecret})` from @clerk/backend/webhooks, in
// process, on a Fetch Request built from what arrived (as Clerk's docs show it in a route handler).

const SECRET = 'whsec_' + Buffer.from('hookloop clerk signing secret!!!').toString('base64')

export const clerkJudge: Judge = {
  provider: 'clerk', library: '@clerk/backend 3 verifyWebhook', secret: SECRET, signsTime: true,
  start: () => judgeConsumer(async (body, req) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const event = await verifyWebhook(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: 'POST', headers, body }), { signingSecret: SECRET })
    if (event.object !== 'event' || !event.instance_id) throw new Error('not a Clerk event envelope')
    return { accepted: event.type, deliveryId: String(req.headers['svix-id']) }
  }, { deliveryIds: true }),
}
