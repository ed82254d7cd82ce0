import { randomBytes, randomUUID } from 'node:crypto'
import type { SchemeId } from '../../../shared/signatures'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** A fresh message id in the provider's style: `msg_` + 27 base62 chars for Standard Webhooks/Svix, a UUID otherwise. */
export function freshId(scheme: SchemeId): string {
  if (scheme === 'standard-webhooks' || scheme === 'svix') {
    // 27 chars from 27 random bytes; the modulo bias is irrelevant for an id.
    return 'msg_' + Array.from(randomBytes(27), (byte) => BASE62[byte % 62]).join('')
  }
  return randomUUID()
}
