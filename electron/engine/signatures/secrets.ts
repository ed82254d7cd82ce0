import { createSecretKey, type KeyObject } from 'node:crypto'
import type { SchemeMeta } from '../../../shared/signatures'
import { isBase64 } from './mac'

const WHSEC = 'whsec_'

/** Thrown by sign() when the secret cannot be a key of the scheme. */
export class SecretFormatError extends Error {
  override readonly name = 'SecretFormatError'
}

export type DecodedKey = { key: Buffer } | { error: string }

/** Standard Webhooks / Svix: `whsec_` + base64 of the key bytes. */
function decodeWhsec(secret: string): DecodedKey {
  if (secret.trim() !== secret) return { error: 'it has spaces or a newline around it (remove them)' }
  if (!secret.startsWith(WHSEC)) {
    return { error: 'it does not start with "whsec_" (the secret must be whsec_ followed by base64, as the provider shows it)' }
  }
  const encoded = secret.slice(WHSEC.length)
  if (encoded.length === 0 || !isBase64(encoded)) return { error: 'the part after "whsec_" is not valid base64' }
  return { key: Buffer.from(encoded, 'base64') }
}

export function decodeSecret(secret: string, format: SchemeMeta['secretFormat']): DecodedKey {
  if (secret.length === 0) return { error: 'it is empty' }
  switch (format) {
    case 'whsec-base64':
      return decodeWhsec(secret)
    case 'utf8':
      return { key: Buffer.from(secret, 'utf8') }
    case 'ecdsa-p256':
    case 'ed25519':
      return { error: 'it is a key pair\'s key, not an HMAC secret (the scheme signs with the private key)' }
    default: {
      const never: never = format
      throw new Error(`unknown secret format ${String(never)}`)
    }
  }
}

// The sender signs every attempt of a subscription with the same secret, and the receiver checks
// every request to an endpoint against the same secrets. Decoding a secret each time (whsec_: a
// base64 check and decode) and handing createHmac raw bytes, which it imports anew on every call,
// was half of an attempt's signature cost (docs/BENCHMARKS.md); a KeyObject imported once makes
// each HMAC about twice as fast. Kept per secret format and secret text, unusable secrets with
// their reason, a few hundred at most (the subscriptions and endpoints a process signs and checks
// for; their objects hold the same secrets).
const KEYS_KEPT = 256
export type SecretKey = { key: KeyObject } | { error: string }
const keys = new Map<SchemeMeta['secretFormat'], Map<string, SecretKey>>()

/** The secret imported as an HMAC key once, or why it cannot be one; for sign() and verify(). */
export function secretKey(secret: string, format: SchemeMeta['secretFormat']): SecretKey {
  let kept = keys.get(format)
  const known = kept?.get(secret)
  if (known) return known
  const decoded = decodeSecret(secret, format)
  const key: SecretKey = 'error' in decoded ? decoded : { key: createSecretKey(decoded.key) }
  if (!kept) keys.set(format, (kept = new Map()))
  if (kept.size >= KEYS_KEPT) kept.clear()
  kept.set(secret, key)
  return key
}

/** For sign(): the key, or a clear error naming what is wrong with the secret. */
export function signingKey(secret: string, meta: SchemeMeta): KeyObject {
  const key = secretKey(secret, meta.secretFormat)
  if ('error' in key) throw new SecretFormatError(`${meta.label} secret is not usable: ${key.error}`)
  return key.key
}

export interface KeyAlternative {
  key: Buffer
  /** Completes "the signature was made with …". */
  hint: string
}

/**
 * The keys people derive by mistake from a secret, so a mismatch can name the mistake instead
 * of just saying "wrong secret".
 */
export function keyAlternatives(secret: string, meta: SchemeMeta): KeyAlternative[] {
  const alternatives: KeyAlternative[] = []
  const trimmed = secret.trim()
  if (trimmed !== secret && trimmed.length > 0) {
    const key = decodeSecret(trimmed, meta.secretFormat)
    if ('key' in key) alternatives.push({ key: key.key, hint: 'the secret without its surrounding whitespace: remove the spaces or newline around the configured secret' })
  }
  const bare = secret.startsWith(WHSEC) ? secret.slice(WHSEC.length) : secret
  switch (meta.secretFormat) {
    case 'whsec-base64':
      alternatives.push({
        key: Buffer.from(secret, 'utf8'),
        hint: `the secret's text used as raw bytes: ${meta.label} keys are the base64-decoded part after "whsec_"`,
      })
      if (bare !== secret) {
        alternatives.push({
          key: Buffer.from(bare, 'utf8'),
          hint: `the text after "whsec_" used as raw bytes: ${meta.label} keys are that text base64-decoded`,
        })
      }
      break
    case 'utf8':
      if (bare.length > 0 && isBase64(bare)) {
        alternatives.push({
          key: Buffer.from(bare, 'base64'),
          hint: `the secret base64-decoded: ${meta.label} uses the whole secret string${bare !== secret ? ' (whsec_ prefix included)' : ''} as UTF-8 bytes`,
        })
      }
      break
    case 'ecdsa-p256':
    case 'ed25519':
      break // no shared secret: nothing to derive by mistake
    default: {
      const never: never = meta.secretFormat
      throw new Error(`unknown secret format ${String(never)}`)
    }
  }
  return alternatives
}
