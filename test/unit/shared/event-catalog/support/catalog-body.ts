import { randomUUID } from 'node:crypto'
import { providerBody } from '../../../../../electron/engine/providers'
import { EVENT_CATALOG, fixtureContext } from '../../../../../shared/event-catalog'
import { PROVIDERS, type EnvelopeInput, type ProviderId } from '../../../../../shared/providers'

// A catalog event as the whole body its provider's pack sends, parsed: what a provider's published
// types and schemas are checked against. Every body is made at one instant, with an event id of
// its own; `apiVersion` is the version the catalog builds the payload for, `input` what else the
// envelope is given (a subscription's API version).
export function catalogBody<T>(provider: ProviderId, type: string, apiVersion?: string, input: Partial<EnvelopeInput> = {}): T {
  const event = EVENT_CATALOG[provider].find((e) => e.type === type)
  if (!event) throw new Error(`no ${PROVIDERS[provider].label} catalog event ${type}`)
  const now = Date.UTC(2026, 11, 1)
  const payload = Buffer.from(JSON.stringify(event.payload(fixtureContext(now, apiVersion))))
  return JSON.parse(providerBody(PROVIDERS[provider], { eventId: randomUUID(), eventType: type, payload, createdAt: now, sentAt: now, ...input }).toString('utf8')) as T
}
