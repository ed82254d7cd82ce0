// What a spec says a sender delivers, whatever the format: operations, each with the messages
// (bodies) it may carry, the event types that select them and the signature it declares.
import type { SchemeId } from '../../../shared/signatures'
import type { SchemaDialect } from '../payload-schemas'


export interface ContractMessage {
  /** The event type as reports name it: the body's type field's const, else the message's name, else the operation's. */
  eventType: string
  /** Every name that selects this message for a captured request (eventType first). */
  aliases: string[]
  /** The body's media type, when the spec gives one. */
  contentType: string | null
  /** The body's schema, $refs resolved; null when the spec gives none. */
  schema: Record<string, unknown> | null
  /** The spec's own example bodies. */
  examples: unknown[]
}

export interface ContractOperation {
  /** The spec's name for it: the webhook's, the callback's, the AsyncAPI operation's. */
  name: string
  /** The endpoint's slug `contract add` makes for it. */
  slug: string
  /** Where the spec declares it, as a path a person finds: "webhooks › order.created › post". */
  where: string
  messages: ContractMessage[]
  /** The signature scheme the spec declares, and what declared it. */
  signature: { scheme: SchemeId; from: string } | null
}

export interface ContractSpec {
  location: string
  title: string
  version: string
  /** "OpenAPI 3.1.0", "AsyncAPI 2.6.0". */
  format: string
  dialect: SchemaDialect
  /** OpenAPI 3.0's `nullable: true` is a type that also takes null. */
  nullableKeyword: boolean
  operations: ContractOperation[]
  /** The sha256 of the document as read, every document it refers to brought in. */
  digest: string
}

/** Top-level body fields that name an event's type, in the order they are read. */
export const EVENT_TYPE_FIELDS = ['type', 'event_type', 'event', 'eventType', 'topic'] as const

/** Headers that name an event's type, read before the body (shared with the timeline's reads). */
export { EVENT_TYPE_HEADERS } from '../../../shared/providers'

/** "Order created!" → "order-created": a slug the receiver takes (1–63 of a-z, 0-9 and dashes). */
export function slugOf(name: string): string {
  const slug = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '')
  return slug || 'operation'
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The body's own event type when its schema pins a type field to one value (`const`, or an enum of one). */
export function pinnedEventType(schema: Record<string, unknown> | null): string | null {
  const properties = schema && isObject(schema.properties) ? schema.properties : null
  if (!properties) return null
  for (const field of EVENT_TYPE_FIELDS) {
    const property = properties[field]
    if (!isObject(property)) continue
    if (typeof property.const === 'string') return property.const
    if (Array.isArray(property.enum) && property.enum.length === 1 && typeof property.enum[0] === 'string') return property.enum[0]
  }
  return null
}

/** A message's event type and aliases from the names the spec gives it (first given wins). */
export function messageNames(schema: Record<string, unknown> | null, names: (string | null | undefined)[]): { eventType: string; aliases: string[] } {
  const pinned = pinnedEventType(schema)
  const aliases = [...new Set([pinned, ...names].filter((n): n is string => typeof n === 'string' && n !== ''))]
  return { eventType: aliases[0] ?? 'message', aliases }
}
