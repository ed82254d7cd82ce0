// The attempt link: the value of the x-hookloop-attempt header every attempt carries, and the
// check the receiver makes before it files a request under an attempt. An attempt id alone is a
// number anyone can send — another engine's attempt #1, a `hookloop trigger` with its own store, a
// stranger who found the public URL — so the value is `<attempt id>.<mac>`: an HMAC-SHA256 under
// the data folder's link key (store/attempt-links.ts) over the attempt id, its delivery, its event
// and the exact body sent. Only a process on the same data folder can make one, and
// only for the attempt that sent these bytes: a header copied onto another body, or one made for
// an attempt id since reused (history cleared), does not check out.
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto'

/** What a link binds: the attempt as the store has it. */
export interface LinkedAttempt {
  id: number
  deliveryId: number
  eventId: string
}

const MAC_BYTES = 16
const VALUE = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/
const DOMAIN = 'hookloop attempt link v1'

// One HMAC over the fields, then the body's bytes; the event id goes with its length, so no
// event id and body can be cut apart another way.
function mac(key: Buffer | KeyObject, attempt: LinkedAttempt, body: Buffer): Buffer {
  const fields = `${DOMAIN}\n${attempt.id}\n${attempt.deliveryId}\n${attempt.eventId.length}:${attempt.eventId}\n`
  return createHmac('sha256', key).update(fields).update(body).digest().subarray(0, MAC_BYTES)
}

/** The header value for this attempt sending `body`; the sender passes its key as a KeyObject, made once (an HMAC under one costs half). */
export function attemptLink(key: Buffer | KeyObject, attempt: LinkedAttempt, body: Buffer): string {
  return `${attempt.id}.${mac(key, attempt, body).toString('base64url')}`
}

/** The attempt id a header value names, with its MAC; null for anything not shaped like a link (a bare number included). */
export function parseAttemptLink(value: string | readonly string[] | undefined): { attemptId: number; mac: Buffer } | null {
  const text = Array.isArray(value) ? value[0] : value
  const match = typeof text === 'string' ? VALUE.exec(text.trim()) : null
  if (!match) return null
  return { attemptId: Number(match[1]), mac: Buffer.from(match[2] as string, 'base64url') }
}

/** Whether `link` was made under `key` by `attempt` sending exactly `body`. */
export function linkChecksOut(key: Buffer, link: { attemptId: number; mac: Buffer }, attempt: LinkedAttempt, body: Buffer): boolean {
  if (link.attemptId !== attempt.id || link.mac.length !== MAC_BYTES) return false
  return timingSafeEqual(link.mac, mac(key, attempt, body))
}
