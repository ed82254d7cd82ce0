// Where an event's id sits in a delivery, as its consumer reads it: a provider's id header
// (X-GitHub-Delivery, Standard Webhooks' webhook-id, Shopify's X-Shopify-Webhook-Id …, each pack's
// `eventIdHeader`) or a field of the body (Stripe's `id`, the seed envelope's `event_id` …). One
// place for both uses: the receiver's automatic dedupe key looks here for the id of a request it
// knows nothing about, and the sender names the id the consumer sees (consumer-id.ts) by the same
// body fields.
import type { ProviderPack } from './types'

/** Hookloop's own event id header: every pack without an id header of its own sends it. */
export const HOOKLOOP_EVENT_ID_HEADER = 'x-hookloop-event-id'

/**
 * The body fields that carry an event id, in the order they are tried: the seed envelope's
 * `event_id` (Slack and Paddle too), Stripe's and most JSON APIs' `id`, SendGrid's `sg_event_id`,
 * HubSpot's `eventId`.
 */
export const BODY_EVENT_ID_FIELDS = ['event_id', 'id', 'sg_event_id', 'eventId'] as const

/** A found id and where it was read: a header's name (lower-case) or `body.<field>`. */
export interface FoundEventId {
  value: string
  where: string
}

/** The id headers of the packs given (lower-case, each once), Hookloop's own left out. */
export function eventIdHeadersOf(packs: readonly ProviderPack[]): string[] {
  return [...new Set(packs.map((p) => p.eventIdHeader.toLowerCase()))].filter((h) => h !== HOOKLOOP_EVENT_ID_HEADER)
}

/** Every path a body's event id may sit at (the receiver reads only these fields of a body). */
export function bodyEventIdPaths(): (string | number)[][] {
  return [[], [0], ['event-data']].flatMap((place) => BODY_EVENT_ID_FIELDS.map((field) => [...place, field]))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * The one event of a body and where it sits: the first entry of an array body (SendGrid and
 * HubSpot batch their events; a delivery of one event carries it alone), Mailgun's `event-data`,
 * or the body itself.
 */
function eventOf(body: unknown): { event: Record<string, unknown>; at: string } | null {
  if (Array.isArray(body)) return isObject(body[0]) ? { event: body[0], at: 'body.0.' } : null
  if (!isObject(body)) return null
  const mailgun = body['event-data']
  return isObject(mailgun) ? { event: mailgun, at: 'body.event-data.' } : { event: body, at: 'body.' }
}

function scalarId(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return null
}

/**
 * The event id a parsed JSON body carries in one of BODY_EVENT_ID_FIELDS, or null. `scalar` reads
 * a field's value (the receiver's sparse document keeps long strings as bytes).
 */
export function bodyEventId<V = string>(body: unknown, scalar: (value: unknown) => V | null = scalarId as (value: unknown) => V | null): { value: V; where: string } | null {
  const found = eventOf(body)
  if (!found) return null
  for (const field of BODY_EVENT_ID_FIELDS) {
    const value = Object.prototype.hasOwnProperty.call(found.event, field) ? scalar(found.event[field]) : null
    if (value !== null) return { value, where: `${found.at}${field}` }
  }
  return null
}

/**
 * The event id of a request nothing was configured for: a provider's id header first (the id its
 * consumer dedupes by, the same on every retry), then the body's id fields, then Hookloop's own
 * header (a delivery of Hookloop's sender in its own shape). `headers` are lower-case names.
 */
export function findEventId<V = string>(
  idHeaders: readonly string[],
  header: (name: string) => string | undefined,
  body: () => unknown,
  scalar?: (value: unknown) => V | null,
): { value: string | V; where: string } | null {
  for (const name of idHeaders) {
    const value = header(name)?.trim()
    if (value) return { value, where: name }
  }
  const inBody = bodyEventId(body(), scalar)
  if (inBody) return inBody
  const own = header(HOOKLOOP_EVENT_ID_HEADER)?.trim()
  return own ? { value: own, where: HOOKLOOP_EVENT_ID_HEADER } : null
}
