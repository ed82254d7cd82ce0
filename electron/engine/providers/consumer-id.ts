// The id the consumer knows an event by, which is not always Hookloop's: Stripe's body says
// `evt_…`, Slack's and Paddle's `event_id`, while GitHub, Shopify, Svix or Standard Webhooks carry
// it in a header (X-GitHub-Delivery, webhook-id …). `hookloop trigger` prints it beside Hookloop's
// own id, so what a person reads in their app's log can be found in Hookloop and back.
import { isProviderId, PROVIDERS, type ProviderPack } from '../../../shared/providers'
import { providerBody } from './envelopes'
import { providerHeaders } from './headers'

export interface ConsumerEventId {
  value: string
  /** Where the consumer reads it: a header name, or `body.<field>`. */
  where: string
}

const HOOKLOOP_HEADER = 'x-hookloop-event-id'
// SendGrid's sg_event_id and HubSpot's eventId are their consumers' deduplication keys.
const BODY_ID_FIELDS = ['id', 'event_id', 'sg_event_id', 'eventId'] as const

export function consumerEventId(pack: ProviderPack, input: { eventId: string; eventType: string; createdAt: number; body: string }): ConsumerEventId | null {
  const header = pack.eventIdHeader.toLowerCase()
  if (header !== HOOKLOOP_HEADER) {
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
  // An array body (SendGrid, HubSpot) carries this delivery's event as its one entry.
  // Mailgun's event sits under "event-data".
  const mailgun = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['event-data'] : undefined
  const [event, at] = Array.isArray(body) ? [body[0] as unknown, 'body.0.'] : mailgun && typeof mailgun === 'object' ? [mailgun, 'body.event-data.'] : [body, 'body.']
  if (!event || typeof event !== 'object') return null
  for (const field of BODY_ID_FIELDS) {
    const value = (event as Record<string, unknown>)[field]
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') return { value: String(value), where: `${at}${field}` }
  }
  return null
}

/** The consumer's id of a stored event sent by a subscription (null without a provider): the body built as the attempts built it. */
export function storedConsumerEventId(provider: string | null, event: { eventId: string; eventType: string; payload: Buffer; createdAt: number; apiVersion: string | null }): ConsumerEventId | null {
  if (!provider || !isProviderId(provider)) return null
  const pack = PROVIDERS[provider]
  const body = providerBody(pack, { ...event, sentAt: event.createdAt })
  return consumerEventId(pack, { eventId: event.eventId, eventType: event.eventType, createdAt: event.createdAt, body: body.toString('utf8') })
}
