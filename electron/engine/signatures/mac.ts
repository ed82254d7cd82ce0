import { createHash, createHmac, type KeyObject } from 'node:crypto'

export type MacAlgorithm = 'sha1' | 'sha256' | 'sha512'
export type MacEncoding = 'hex' | 'base64'

/** A signed message made of text and raw byte parts; bytes are never re-encoded. */
export type SignedParts = Array<string | Uint8Array>

/** `key`: raw bytes, or a KeyObject made once for a key used again and again (secrets.ts `signingKey`), which halves an HMAC's cost. */
export function hmac(algorithm: MacAlgorithm, key: Uint8Array | KeyObject, parts: SignedParts): Buffer {
  const mac = createHmac(algorithm, key)
  for (const part of parts) mac.update(part)
  return mac.digest()
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

const HEX = /^[0-9a-fA-F]+$/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** Strict base64 check: Buffer.from(…, 'base64') silently skips junk, which would hide mistakes. */
export function isBase64(text: string): boolean {
  if (!BASE64.test(text)) return false
  const padded = text.includes('=')
  if (padded) return text.length % 4 === 0
  return text.length % 4 !== 1
}

/** Decodes a signature as sent in a header; undefined when it is not valid text of that encoding. */
export function decodeSignature(text: string, encoding: MacEncoding): Buffer | undefined {
  switch (encoding) {
    case 'hex':
      return HEX.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : undefined
    case 'base64':
      return isBase64(text) ? Buffer.from(text, 'base64') : undefined
    default: {
      const never: never = encoding
      throw new Error(`unknown encoding ${String(never)}`)
    }
  }
}
