// "Try the loop": the first-run demonstration. An endpoint that fails the first 3 arrivals of
// each event id and then answers 200, a subscription delivering to it under seed provider A's
// policy, the virtual clock (so 2 + 4 + 8 minutes of waiting pass at once), and one event: four
// attempts on the timeline, each verified and flagged as the duplicate it is.
import { randomBytes } from 'node:crypto'
import type { CommandHandlers } from './control-server'
import { slugify, type HandlerContext } from './handlers'

const EVENT_ID_HEADER = 'X-Pandoktorek-Event-Id'

export function createLoopTry(ctx: HandlerContext): CommandHandlers['loop.try'] {
  // The endpoint and the subscription are made in the caller's workspace (with accounts).
  return async (_req, caller) => {
    await ctx.switchClock('virtual', 1, 'Try the loop')
    const { engine } = ctx.current()
    const secret = `whsec_${randomBytes(24).toString('base64')}`
    const taken = new Set(engine.receiver.endpoints.list().map((e) => e.slug))
    const slug = slugify('try-the-loop', (s) => taken.has(s))
    const endpoint = await engine.receiver.endpoints.create({
      slug,
      name: slug === 'try-the-loop' ? 'Try the loop' : `Try the loop (${slug.slice('try-the-loop-'.length)})`,
      scheme: 'standard-webhooks',
      secrets: [secret],
      dedupe: { type: 'header', name: EVENT_ID_HEADER },
    }, caller.workspace)
    await engine.receiver.rules.add(endpoint.id, { preset: 'fail-first', n: 3 })
    const subscription = await engine.sender.createSubscription({
      name: `Provider A → ${endpoint.name}`,
      target: { endpoint: endpoint.slug },
      scheme: 'standard-webhooks',
      secrets: [secret],
      policy: 'pandoktorek',
      eventIdHeader: EVENT_ID_HEADER,
    }, caller.workspace)
    ctx.changed('endpoints')
    ctx.changed('rules')
    ctx.changed('subscriptions')
    const sent = await engine.sendEvent({
      subscriptionIds: [subscription.id],
      eventType: 'booking.created',
      payload: { booking_id: 'b_1042', clinic_id: 'c_7', starts_at: '2026-12-01T09:30:00Z', status: 'confirmed' },
    })
    return { endpointId: endpoint.id, subscriptionId: subscription.id, eventId: sent.eventId }
  }
}
