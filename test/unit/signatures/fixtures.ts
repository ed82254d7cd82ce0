// Shared inputs for the signature tests: a secret in each scheme's own format and a JSON body
// written compactly, the way providers send it.
import type { CustomHmacOptions, SchemeId, SignInput, VerifyInput } from '../../../shared/signatures'
import { SCHEMES } from '../../../shared/signatures'

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

/** A valid secret for the scheme and a second one for rotation tests. */
export function secretsFor(scheme: SchemeId): [string, string] {
  if (SCHEMES[scheme].secretFormat === 'whsec-base64') return [WHSEC, WHSEC_OTHER]
  if (scheme === 'stripe') return ['whsec_stripeSecretFromTheDashboard1', 'whsec_stripeSecretRotatedOut2']
  return [`${scheme}-signing-secret`, `${scheme}-old-secret`]
}

/** Everything a scheme needs besides body and secret. */
export function extrasFor(scheme: SchemeId): Pick<SignInput, 'url' | 'custom'> & Pick<VerifyInput, 'url' | 'custom' | 'now'> {
  return { url: PUBLIC_URL, custom: scheme === 'custom' ? CUSTOM : undefined, now: NOW }
}
