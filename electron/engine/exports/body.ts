// Bodies in JSON exports: UTF-8 text when the bytes are exactly that text, base64 otherwise, so
// an export never changes a byte of what was sent.
import type { CaseBody } from '../../../shared/contract'

/** The text when the bytes are valid UTF-8 without NUL (they survive JSON and shells); else null. */
export function utf8Text(bytes: Uint8Array): string | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.includes(0)) return null
  const text = buffer.toString('utf8')
  return Buffer.from(text, 'utf8').equals(buffer) ? text : null
}

export function toCaseBody(bytes: Uint8Array): CaseBody {
  const text = utf8Text(bytes)
  return text !== null ? { text } : { base64: Buffer.from(bytes).toString('base64') }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Strict base64 (RFC 4648, padded; whitespace ignored), or null when it is not. */
export function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '')
  return BASE64.test(compact) ? Buffer.from(compact, 'base64') : null
}

export function headerValue(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1]
}
