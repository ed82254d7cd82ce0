import type { SchemeId } from './signatures'

// A new signing secret in the form the scheme's providers hand out: `whsec_` + base64 where the
// provider's own libraries expect that (Stripe, Svix, Standard Webhooks), hex otherwise. Web Crypto,
// so the engine and the app's subscription form make the same kind of secret.

const SECRET_BYTES = 24
const WHSEC_SCHEMES: ReadonlySet<SchemeId> = new Set(['standard-webhooks', 'svix', 'stripe'])

/** The longest secret a subscription takes (the contract's limit). */
export const SECRET_MAX_LENGTH = 500

export function secretFormatOf(scheme: SchemeId): 'whsec' | 'hex' {
  return WHSEC_SCHEMES.has(scheme) ? 'whsec' : 'hex'
}

export function freshSecret(scheme: SchemeId): string {
  const bytes = new Uint8Array(SECRET_BYTES)
  globalThis.crypto.getRandomValues(bytes)
  if (secretFormatOf(scheme) === 'whsec') return `whsec_${btoa(String.fromCharCode(...bytes))}`
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
