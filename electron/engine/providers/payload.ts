import { applyOverrides, catalogEvent, EVENT_CATALOG, fixtureContext, type Override } from '../../../shared/event-catalog'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'

// The payload of one send: the catalog's fixture for (provider, event type) — or the user's own
// fixture — built with fresh ids and times, then the overrides applied.

export class CatalogError extends Error {
  override readonly name = 'CatalogError'
}

export interface PayloadInput {
  provider: ProviderId
  eventType: string
  /** The send time, ms (ids and times of the fixture are built from it). */
  now: number
  overrides?: readonly Override[]
  /** A fixture of one's own (the payload part of the body), instead of the catalog's. */
  fixture?: unknown
  /** The API version the payload follows; default: the pack's first. */
  apiVersion?: string | null
}

export function catalogPayload(input: PayloadInput): unknown {
  let payload: unknown
  if (input.fixture !== undefined) payload = input.fixture
  else {
    const event = catalogEvent(input.provider, input.eventType)
    if (!event) {
      const known = EVENT_CATALOG[input.provider].map((e) => e.type).join(', ')
      throw new CatalogError(`${PROVIDERS[input.provider].label} has no event type "${input.eventType}" in the catalog (known: ${known}); give a fixture file for another one`)
    }
    payload = event.payload(fixtureContext(input.now, input.apiVersion ?? PROVIDERS[input.provider].apiVersions?.[0]))
  }
  return applyOverrides(payload, input.overrides ?? [], PROVIDERS[input.provider].envelope.payloadPath)
}
