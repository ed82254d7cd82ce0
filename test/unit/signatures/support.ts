// Shared inputs for the signature tests: a secret in each scheme's own format and a JSON body
// written compactly, the way providers send it.
import type { CustomHmacOptions, SchemeId, SignInput, VerifyInput } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'
import { freshPrivateKey } from '../../../electron/engine/signatures'

export const KEY_BYTES = Buffer.from('a 32-byte key for standard hooks')
export const WHSEC = 'whsec_' + KEY_BYTES.toString('base64')
export const WHSEC_OTHER = 'whsec_' + Buffer.from('another key, rotated out of use!').toString('base64')

export const NOW = 1_700_000_000
export const PUBLIC_URL = 'https://brave-otter-42.loca.lt/hooks/provider?tenant=7'
export const CUSTOM: CustomHmacOptions = {
  header: 'X-Acme-Signature',
  prefix: 'sha512=',
  algorithm: 'sha512',
  encoding: 'base64',
  signedTemplate: '{id}.{timestamp}.{body}',
  timestampHeader: 'X-Acme-Timestamp',
  idHeader: 'X-Acme-Id',
  toleranceSeconds: 120,
}

export function jsonBody(extra: Record<string, unknown> = {}): Buffer {
  return Buffer.from(JSON.stringify({ id: 'evt_1', type: 'order.paid', webhookTimestamp: NOW * 1000, data: { amount: 4200, currency: 'PLN' }, ...extra }))
}

// The asymmetric schemes sign with a private key: two of each kind, made once per run.
const KEY_PAIRS = {
  'ecdsa-p256': [freshPrivateKey('ecdsa-p256'), freshPrivateKey('ecdsa-p256')],
  ed25519: [freshPrivateKey('ed25519'), freshPrivateKey('ed25519')],
} satisfies Record<string, [string, string]>

/** A secret of another key pair of the scheme's kind, or a different HMAC secret. */
export function wrongSecretFor(scheme: SchemeId): string {
  const format = SCHEMES[scheme].secretFormat
  if (format === 'whsec-base64') return 'whsec_' + Buffer.from('x'.repeat(24)).toString('base64')
  if (format === 'ecdsa-p256' || format === 'ed25519') return freshPrivateKey(format)
  return 'an entirely different secret'
}

/** A valid secret for the scheme and a second one for rotation tests. */
export function secretsFor(scheme: SchemeId): [string, string] {
  const format = SCHEMES[scheme].secretFormat
  if (format === 'whsec-base64') return [WHSEC, WHSEC_OTHER]
  if (format === 'ecdsa-p256' || format === 'ed25519') return KEY_PAIRS[format]
  if (scheme === 'stripe') return ['whsec_stripeSecretFromTheDashboard1', 'whsec_stripeSecretRotatedOut2']
  return [`${scheme}-signing-secret`, `${scheme}-old-secret`]
}

/** Everything a scheme needs besides body and secret. */
export function extrasFor(scheme: SchemeId): Pick<SignInput, 'url' | 'custom'> & Pick<VerifyInput, 'url' | 'custom' | 'now'> {
  return { url: PUBLIC_URL, custom: scheme === 'custom' ? CUSTOM : undefined, now: NOW }
}
