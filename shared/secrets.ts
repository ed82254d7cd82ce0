import { SCHEMES, type SchemeId } from './signatures'

// A new signing secret in the form the scheme's providers hand out: `whsec_` + base64 where the
// provider's own libraries expect that (Stripe, Svix, Standard Webhooks: SCHEMES says which), hex
// otherwise. Web Crypto, so the engine and the app's subscription form make the same kind of secret.

const SECRET_BYTES = 24

/** The longest secret a subscription takes (the contract's limit). */
export const SECRET_MAX_LENGTH = 500

// The key-pair schemes sign with a private key (docs/signatures.md): Discord's Ed25519 as whsk_ +
// base64 of a random 32-byte seed; SendGrid's ECDSA P-256 as base64 PKCS#8 DER around a random
// scalar (the public key is derived when the key is read). Both are random bytes in a fixed
// wrapping, so they are made here synchronously, the same in the engine and the app.
const P256_PKCS8_PREFIX = [0x30, 0x41, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x04, 0x27, 0x30, 0x25, 0x02, 0x01, 0x01, 0x04, 0x20]
// A P-256 scalar must be below the group order n; a random one is above it with odds of 2^-32.
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

export function secretFormatOf(scheme: SchemeId): 'whsec' | 'hex' | 'ecdsa-p256' | 'ed25519' {
  const { secretFormat, whsecSecrets } = SCHEMES[scheme]
  if (secretFormat === 'ecdsa-p256' || secretFormat === 'ed25519') return secretFormat
  return secretFormat === 'whsec-base64' || whsecSecrets ? 'whsec' : 'hex'
}

const base64 = (bytes: Uint8Array | number[]) => btoa(String.fromCharCode(...bytes))

function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n)
  globalThis.crypto.getRandomValues(bytes)
  return bytes
}

function p256Scalar(): Uint8Array {
  for (;;) {
    const bytes = randomBytes(32)
    const value = BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`)
    if (value > 0n && value < P256_ORDER) return bytes
  }
}

export function freshSecret(scheme: SchemeId): string {
  const format = secretFormatOf(scheme)
  if (format === 'ed25519') return `whsk_${base64(randomBytes(32))}`
  if (format === 'ecdsa-p256') return base64([...P256_PKCS8_PREFIX, ...p256Scalar()])
  const bytes = randomBytes(SECRET_BYTES)
  if (format === 'whsec') return `whsec_${base64(bytes)}`
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
