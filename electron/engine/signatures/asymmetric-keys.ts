// The key pairs of the asymmetric schemes, in the forms the providers show them. A subscription
// holds the private key (it signs); an endpoint may hold the public key as the provider's
// dashboard shows it, or the private key, from which the public key is derived.
//
// SendGrid (ECDSA P-256): the private key as PEM or as base64 PKCS#8 DER (one line, what Hookloop
// generates); the public key as SendGrid's "verification key" (base64 SPKI DER) or PEM.
// Discord (Ed25519): the private key as whsk_ (ed25519.ts) or PEM; the public key as Discord's
// Developer Portal shows it (64 hex characters), whpk_ or PEM.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto'
import type { SchemeMeta } from '../../../shared/signatures'
import { ED25519_PUBLIC_PREFIX, ED25519_SECRET_PREFIX, ed25519KeyPair, ed25519PrivateKey, ed25519PublicKey } from './ed25519'
import { isBase64 } from './mac'

export type AsymmetricFormat = 'ecdsa-p256' | 'ed25519'
export type KeyResult = KeyObject | { error: string }

const PEM = /^-----BEGIN ([A-Z ]+)-----[\s\S]+-----END \1-----\s*$/
const HEX_64 = /^[0-9a-fA-F]{64}$/
// An Ed25519 SPKI DER prefix (RFC 8410), to read Discord's raw 32-byte hex public key.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export function isAsymmetricFormat(format: SchemeMeta['secretFormat']): format is AsymmetricFormat {
  return format === 'ecdsa-p256' || format === 'ed25519'
}

function tryKey<T>(make: () => T): T | undefined {
  try {
    return make()
  } catch {
    return undefined
  }
}

function expectType(key: KeyObject, format: AsymmetricFormat): KeyResult {
  if (format === 'ed25519') return key.asymmetricKeyType === 'ed25519' ? key : { error: `it is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key, not an Ed25519 one` }
  if (key.asymmetricKeyType !== 'ec') return { error: `it is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key, not an ECDSA P-256 one` }
  const curve = key.asymmetricKeyDetails?.namedCurve
  return curve === 'prime256v1' ? key : { error: `it is an EC key on ${curve ?? 'an unknown curve'}, not P-256` }
}

/** The private key a secret holds, or why it holds none (a public key cannot sign). */
export function privateKeyOf(secret: string, format: AsymmetricFormat): KeyResult {
  const text = secret.trim()
  if (text === '') return { error: 'it is empty' }
  if (format === 'ed25519' && text.startsWith(ED25519_SECRET_PREFIX)) return ed25519PrivateKey(text)
  if (PEM.test(text)) {
    const key = tryKey(() => createPrivateKey(text))
    return key ? expectType(key, format) : { error: 'it is PEM but not a private key (a public key verifies, it cannot sign)' }
  }
  if (isBase64(text)) {
    const key = tryKey(() => createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' }))
    if (key) return expectType(key, format)
  }
  return { error: format === 'ed25519' ? `it is not an Ed25519 private key (${ED25519_SECRET_PREFIX}… or PEM); a public key verifies, it cannot sign` : 'it is not an ECDSA P-256 private key (PEM, or base64 PKCS#8 DER); a public key verifies, it cannot sign' }
}

/** The public key a secret holds or derives from its private key, or why it is neither. */
export function publicKeyOf(secret: string, format: AsymmetricFormat): KeyResult {
  const text = secret.trim()
  if (text === '') return { error: 'it is empty' }
  if (format === 'ed25519') {
    if (text.startsWith(ED25519_SECRET_PREFIX) || text.startsWith(ED25519_PUBLIC_PREFIX)) return ed25519PublicKey(text)
    if (HEX_64.test(text)) return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(text, 'hex')]), format: 'der', type: 'spki' })
  }
  if (PEM.test(text)) {
    const key = tryKey(() => createPublicKey(text))
    return key ? expectType(key, format) : { error: 'it is PEM but no key could be read from it' }
  }
  if (isBase64(text)) {
    const der = Buffer.from(text, 'base64')
    const key = tryKey(() => createPublicKey({ key: der, format: 'der', type: 'spki' })) ?? tryKey(() => createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })))
    if (key) return expectType(key, format)
  }
  return { error: format === 'ed25519' ? 'it is not an Ed25519 key (the 64 hex characters of the public key Discord shows, whpk_…, whsk_… or PEM)' : 'it is not an ECDSA P-256 key (the base64 verification key SendGrid shows, a base64 PKCS#8 private key, or PEM)' }
}

/** The public key of a private key in the provider's own text form (what the consumer configures). */
export function publicKeyText(secret: string, format: AsymmetricFormat): string | { error: string } {
  const key = publicKeyOf(secret, format)
  if ('error' in key) return key
  const spki = key.export({ format: 'der', type: 'spki' })
  return format === 'ed25519' ? spki.subarray(ED25519_SPKI_PREFIX.length).toString('hex') : spki.toString('base64')
}

/** A fresh private key in the text form Hookloop stores: base64 PKCS#8 (P-256), whsk_ (Ed25519). */
export function freshPrivateKey(format: AsymmetricFormat): string {
  if (format === 'ed25519') return ed25519KeyPair(randomBytes(32)).secret
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')
}
