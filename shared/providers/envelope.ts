import type { ProviderEnvelope } from './types'

// What envelopes are built from, in bytes rather than Node's Buffer: the renderer reads the packs
// too. The payload's stored bytes go into a body unchanged wherever the provider's shape allows.

const encoder = new TextEncoder()
export const iso = (ms: number): string => new Date(ms).toISOString()
export const unixS = (ms: number): number => Math.floor(ms / 1000)
export const json = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value))

/** The payload's bytes between two pieces of text, never re-serialised. */
export function spliced(before: string, payload: Uint8Array, after: string): Uint8Array {
  const [head, tail] = [encoder.encode(before), encoder.encode(after)]
  const body = new Uint8Array(head.length + payload.length + tail.length)
  body.set(head)
  body.set(payload, head.length)
  body.set(tail, head.length + payload.length)
  return body
}

export function parsed(payload: Uint8Array): unknown {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(payload)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

export function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value }
}

/** `Issue.create` → ['Issue', 'create']; a type without a dot has an empty action. */
export function splitEventType(eventType: string): [string, string] {
  const dot = eventType.indexOf('.')
  return dot < 0 ? [eventType, ''] : [eventType.slice(0, dot), eventType.slice(dot + 1)]
}

/** The payload is the whole body (GitHub, Shopify: the resource itself): a pack's default. */
export const PAYLOAD_ENVELOPE: ProviderEnvelope = { kind: 'payload', payloadPath: '', words: 'the resource itself as the body', body: (e) => e.payload }

/** A JSON array of events, this delivery's one event in it (SendGrid's Event Webhook, HubSpot). */
export const ARRAY_ENVELOPE: ProviderEnvelope = { kind: 'array', payloadPath: '0', words: 'a JSON array holding the event', body: (e) => spliced('[', e.payload, ']') }

/** Standard Webhooks' `{type, timestamp, data}` (Svix's too). */
export const TYPE_TIMESTAMP_DATA_ENVELOPE: ProviderEnvelope = {
  kind: 'type-timestamp-data',
  payloadPath: 'data',
  words: '{type, timestamp, data}',
  body: (e) => json({ type: e.eventType, timestamp: iso(e.createdAt), data: parsed(e.payload) }),
}
