import { createHash } from 'node:crypto'

// Provider-side ids that must stay the same across every attempt of an event (Stripe's evt_…,
// Slack's Ev…, a Shopify event id): derived from Hookloop's event id instead of stored.

function digest(eventId: string, salt: string): Buffer {
  return createHash('sha256').update(`${salt}:${eventId}`).digest()
}

/** A UUID v4-shaped id derived from the event id. */
export function derivedUuid(eventId: string, salt = 'uuid'): string {
  const b = digest(eventId, salt)
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const h = b.subarray(0, 16).toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyz'

/** `prefix` + `length` lower-case alphanumerics derived from the event id (evt_…, ntf_…). */
export function derivedToken(eventId: string, salt: string, length: number, alphabet = ALNUM): string {
  const b = digest(eventId, salt)
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet.charAt((b[i % b.length] ?? 0) % alphabet.length)
  return out
}
