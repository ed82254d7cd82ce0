// The id the consumer knows an event by, which is not always Hookloop's: Stripe's body says
// `evt_…`, Slack's and Paddle's `event_id`, while GitHub, Shopify, Svix or Standard Webhooks carry
// it in a header (X-GitHub-Delivery, webhook-id …). `hookloop trigger` prints it beside Hookloop's
// own id, so what a person reads in their app's log can be found in Hookloop and back.
import { bodyEventId, HOOKLOOP_EVENT_ID_HEADER, isProviderId, PROVIDERS, type ProviderPack } from '../../../shared/providers'
import { providerBody } from './envelopes'
import { providerHeaders } from './headers'

export interface ConsumerEventId {
  value: string
  /** Where the consumer reads it: a header name, or `body.<field>`. */
  where: string
}

export function consumerEventId(pack: ProviderPack, input: { eventId: string; eventType: string; createdAt: number; body: string }): ConsumerEventId | null {
  const header = pack.eventIdHeader.toLowerCase()
  if (header !== HOOKLOOP_EVENT_ID_HEADER) {
    // The sender writes the event id into the pack's id header unless the pack fills it itself.
    const filled = providerHeaders(pack, { eventId: input.eventId, eventType: input.eventType, attempt: 1, createdAt: input.createdAt, sentAt: input.createdAt })[header]
    return { value: filled ?? input.eventId, where: header }
  }
  let body: unknown
  try {
    body = JSON.parse(input.body)
  } catch {
    return null // a form body (Twilio): no id field the consumer reads
  }
  return bodyEventId(body)
}

/** The consumer's id of a stored event sent by a subscription (null without a provider): the body built as the attempts built it. */
export function storedConsumerEventId(provider: string | null, event: { eventId: string; eventType: string; payload: Buffer; createdAt: number; apiVersion: string | null }): ConsumerEventId | null {
  if (!provider || !isProviderId(provider)) return null
  const pack = PROVIDERS[provider]
  const body = providerBody(pack, { ...event, sentAt: event.createdAt })
  return consumerEventId(pack, { eventId: event.eventId, eventType: event.eventType, createdAt: event.createdAt, body: body.toString('utf8') })
}
