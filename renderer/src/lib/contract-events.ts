// The send form's contract events: a subscription that delivers to one of our endpoints made from a
// contract (`hookloop contract add`) is offered that spec's event types with their example
// payloads, as the host's endpoint views carry them (EndpointView.contract).
import type { ContractEventView, EndpointContractView, EndpointView } from '../../../shared/contract'

export interface ContractChoices {
  /** The endpoint the subscription delivers to. */
  endpoint: EndpointView
  contract: EndpointContractView
}

/** The subscription's URL without a trailing slash, for comparing with an endpoint's. */
const sameUrl = (a: string, b: string | null) => b !== null && a.replace(/\/+$/, '') === b.replace(/\/+$/, '')

/** The contract endpoint a subscription delivers to (its local or public URL); null for any other target. */
export function contractChoicesFor(subscription: { url: string } | undefined, endpoints: readonly EndpointView[]): ContractChoices | null {
  if (!subscription) return null
  const endpoint = endpoints.find((e) => e.contract !== null && (sameUrl(subscription.url, e.localUrl) || sameUrl(subscription.url, e.publicUrl)))
  return endpoint?.contract ? { endpoint, contract: endpoint.contract } : null
}

/** An event's line in the picker: its type, the operation declaring it, where its payload comes from. */
export function contractEventLabel(event: ContractEventView): string {
  const from = event.from === 'spec' ? "the spec's example" : 'made from the schema'
  return event.eventType === event.operation ? `${event.eventType} (${from})` : `${event.eventType} — ${event.operation} (${from})`
}

/** What picking an event puts in the composer: its type and its example payload. */
export function pickContractEvent(choices: ContractChoices, eventType: string): { eventType: string; payload: string } | null {
  const event = choices.contract.events.find((e) => e.eventType === eventType)
  return event ? { eventType: event.eventType, payload: event.payload } : null
}
