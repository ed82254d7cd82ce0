import { PROVIDERS, type ProviderId } from '../providers'
import { fixtureContext } from './context'
import { EVENT_CATALOG } from './catalog'

/** What the sender's composer shows once a provider's event type is picked: its type and payload JSON. */
export interface Prefill {
  eventType: string
  payload: string
  /** One line for the composer: what the event is and where its payload sits in the provider's body. */
  note: string
}

export function prefill(provider: ProviderId, eventType: string, now: number): Prefill | null {
  const event = EVENT_CATALOG[provider].find((e) => e.type === eventType)
  if (!event) return null
  return {
    eventType: event.type,
    payload: JSON.stringify(event.payload(fixtureContext(now)), null, 2),
    note: `${PROVIDERS[provider].label}: ${event.description}`,
  }
}
