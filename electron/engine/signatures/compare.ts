import { timingSafeEqual } from 'node:crypto'

/**
 * Constant-time equality of two byte strings. timingSafeEqual throws on different lengths, and
 * a length difference leaks nothing useful (MAC lengths are public), so it answers false early.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  return timingSafeEqual(a, b)
}
