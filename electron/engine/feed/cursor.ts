// The feed's cursor: an opaque base64url token over the last returned (created_at, event_id).
// Positions, not offsets: events emitted between two polls never shift a page.
import { Buffer } from 'node:buffer'

export interface FeedPosition {
  created_at: number
  event_id: string
}

export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(JSON.stringify([1, position.created_at, position.event_id]), 'utf8').toString('base64url')
}

/** The position, or null when the token is not one of ours. */
export function decodeCursor(token: string): FeedPosition | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(token)) return null
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(value) || value.length !== 3 || value[0] !== 1) return null
  const [, at, id] = value as unknown[]
  if (typeof at !== 'number' || !Number.isSafeInteger(at) || typeof id !== 'string' || id.length === 0) return null
  return { created_at: at, event_id: id }
}
