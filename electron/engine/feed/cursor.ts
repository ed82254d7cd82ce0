// The feed's cursor: an opaque base64url token over the last returned event, its place in the
// store's sequence (the order events were committed) and its id. Positions, not offsets: events
// emitted between two polls never shift a page. A cursor made before the feed was ordered by
// sequence ([1, created_at, event_id]) is still read: it continues after that event.
import { Buffer } from 'node:buffer'
import type { FeedAfter } from '../../../shared/contract'

export function encodeCursor(position: { seq: number; event_id: string }): string {
  return Buffer.from(JSON.stringify([2, position.seq, position.event_id]), 'utf8').toString('base64url')
}

/** The position, or null when the token is not one of ours. */
export function decodeCursor(token: string): FeedAfter | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(token)) return null
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(value) || value.length !== 3 || (value[0] !== 1 && value[0] !== 2)) return null
  const [version, at, id] = value as unknown[]
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || typeof id !== 'string' || id.length === 0) return null
  return version === 2 ? { seq: at, event_id: id } : { created_at: at, event_id: id }
}
