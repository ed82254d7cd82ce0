// Standard Webhooks' asymmetric signatures: `v1a,<base64 Ed25519 signature>` over the same
// `${id}.${timestamp}.${body}` the symmetric v1 signs. Keys as the spec writes them: the signing
// key `whsk_` + base64 (the 32-byte seed, or seed and public key, 64 bytes) and the verifying key
// `whpk_` + base64 (the 32-byte public key). A verifier given a whsk_ key derives its public key.
import { createPrivateKey, createPublicKey, sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto'
import { isBase64 } from './mac'

export const ED25519_SECRET_PREFIX = 'whsk_'
export const ED25519_PUBLIC_PREFIX = 'whpk_'

// DER wrappers of a raw Ed25519 key (RFC 8410): Node imports keys as PKCS#8 / SPKI only.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

export function isAsymmetricKey(secret: string): boolean {
  return secret.startsWith(ED25519_SECRET_PREFIX) || secret.startsWith(ED25519_PUBLIC_PREFIX)
}

function raw(secret: string, prefix: string): Buffer | { error: string } {
  const encoded = secret.slice(prefix.length)
  if (!isBase64(encoded)) return { error: `the part after "${prefix}" is not valid base64` }
  return Buffer.from(encoded, 'base64')
}

/** The signing key of a whsk_ secret, or why it is not one. */
export function ed25519PrivateKey(secret: string): KeyObject | { error: string } {
  if (!secret.startsWith(ED25519_SECRET_PREFIX)) return { error: `an Ed25519 signing key starts with "${ED25519_SECRET_PREFIX}"` }
  const bytes = raw(secret, ED25519_SECRET_PREFIX)
  if (!Buffer.isBuffer(bytes)) return bytes
  if (bytes.length !== 32 && bytes.length !== 64) return { error: `an Ed25519 signing key is 32 bytes (or 64: seed and public key), this one is ${bytes.length}` }
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, bytes.subarray(0, 32)]), format: 'der', type: 'pkcs8' })
}

/** The verifying key of a whpk_ key or a whsk_ secret, or why it is neither. */
export function ed25519PublicKey(secret: string): KeyObject | { error: string } {
  if (secret.startsWith(ED25519_SECRET_PREFIX)) {
    const key = ed25519PrivateKey(secret)
    return 'error' in key ? key : createPublicKey(key)
  }
  if (!secret.startsWith(ED25519_PUBLIC_PREFIX)) return { error: `an Ed25519 verifying key starts with "${ED25519_PUBLIC_PREFIX}"` }
  const bytes = raw(secret, ED25519_PUBLIC_PREFIX)
  if (!Buffer.isBuffer(bytes)) return bytes
  if (bytes.length !== 32) return { error: `an Ed25519 public key is 32 bytes, this one is ${bytes.length}` }
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, bytes]), format: 'der', type: 'spki' })
}

export function ed25519Sign(key: KeyObject, message: Buffer): Buffer {
  return edSign(null, message, key)
}

export function ed25519Verify(key: KeyObject, message: Buffer, signature: Buffer): boolean {
  return signature.length === 64 && edVerify(null, message, key, signature)
}

/** A fresh key pair in the spec's text form: {secret: whsk_…, public: whpk_…}. */
export function ed25519KeyPair(seed: Buffer): { secret: string; public: string } {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' })
  return { secret: `${ED25519_SECRET_PREFIX}${seed.toString('base64')}`, public: `${ED25519_PUBLIC_PREFIX}${spki.subarray(SPKI_PREFIX.length).toString('base64')}` }
}
