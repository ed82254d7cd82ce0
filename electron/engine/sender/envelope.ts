import type { Envelope } from '../../../shared/sender'
import type { StoredEvent } from '../store'

// The bytes an attempt sends, built from the stored event columns. The payload is stored once as
// its JSON bytes; the 'event' envelope wraps them without re-serialising, so its bytes equal
// JSON.stringify({event_id, event_type, payload}) and the 'payload' envelope sends them as they are.

/** The payload as JSON bytes (an absent payload is `null`). */
export function payloadBytes(payload: unknown): Buffer {
  return Buffer.from(JSON.stringify(payload) ?? 'null')
}

export function sentBody(event: Pick<StoredEvent, 'id' | 'eventType' | 'payload'>, envelope: Envelope): Buffer {
  switch (envelope) {
    case 'payload':
      return event.payload
    case 'event':
      return Buffer.concat([
        Buffer.from(`{"event_id":${JSON.stringify(event.id)},"event_type":${JSON.stringify(event.eventType)},"payload":`),
        event.payload,
        Buffer.from('}'),
      ])
    default: {
      const never: never = envelope
      throw new Error(`unknown envelope ${String(never)}`)
    }
  }
}

/** The stored payload parsed back (the raw text when it is not JSON). */
export function parsedPayload(payload: Buffer): unknown {
  const text = payload.toString('utf8')
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
