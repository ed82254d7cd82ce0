// What each event of an `event.send` carries: the payload given, or — for a provider's
// subscription when none is given — the provider's catalog payload built afresh per event, the very
// payload `hookloop trigger` sends (electron/engine/providers/payload.ts), so an app sees the same.
import type { CommandRequest } from '../../../shared/contract'
import { catalogEvent, EVENT_CATALOG } from '../../../shared/event-catalog'
import { PROVIDERS } from '../../../shared/providers'
import type { Engine } from '../engine'
import { catalogPayload } from '../providers'
import { HostError } from './host-error'

export function sendPayload(engine: Engine, req: CommandRequest<'event.send'>): () => unknown {
  if (req.payload !== undefined) {
    const payload = JSON.parse(req.payload) as unknown
    return () => payload
  }
  const subscription = engine.sender.getSubscription(req.subscriptionId)
  if (!subscription) throw new HostError('not_found', `event.send: subscription ${req.subscriptionId} does not exist`)
  const provider = subscription.provider
  if (provider === null) throw new HostError('bad_request', `event.send: payload: subscription ${subscription.name} has no provider, so the payload must be given`)
  const eventType = req.eventType.trim()
  if (!catalogEvent(provider, eventType)) {
    const known = EVENT_CATALOG[provider].map((e) => e.type).join(', ')
    throw new HostError('bad_request', `event.send: eventType: ${PROVIDERS[provider].label}'s catalog has no "${eventType}" (known: ${known}); give a payload for another type`)
  }
  return () => catalogPayload({ provider, eventType, now: engine.clock.now(), apiVersion: subscription.apiVersion })
}
