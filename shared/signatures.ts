// The signature vocabulary both sides share: which schemes exist, what verify() answers.
// Implementations live in electron/engine/signatures/ (one module per scheme).

export const SCHEME_IDS = [
  'standard-webhooks',
  'svix',
  'stripe',
  'github',
  'shopify',
  'slack',
  'twilio',
  'square',
  'paddle',
  'linear',
  'zoom',
  'custom',
] as const

export type SchemeId = (typeof SCHEME_IDS)[number]

export function isSchemeId(value: string): value is SchemeId {
  return (SCHEME_IDS as readonly string[]).includes(value)
}

/** Stable reason codes: UIs, reports and tests match on these, never on the sentence. */
export type VerifyReason =
  | 'ok'
  | 'missing_header'
  | 'malformed_header'
  | 'no_matching_version'
  | 'signature_mismatch'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'bad_secret_format'
  | 'no_secret'
  | 'missing_url'
  | 'empty_body'
  | 'malformed_body'

export interface VerifyResult {
  valid: boolean
  scheme: SchemeId
  reason: VerifyReason
  /** One sentence a person understands, with a hint for the classic mistake where one fits. */
  detail: string
  /** Which of the given secrets matched (index into secrets), when valid. */
  secretIndex?: number
  /** What we computed vs what arrived, for the inspector (never the secret itself). */
  expected?: string
  received?: string
}

/** Settings of the configurable custom HMAC scheme. */
export interface CustomHmacOptions {
  header: string
  prefix?: string
  algorithm: 'sha1' | 'sha256' | 'sha512'
  encoding: 'hex' | 'base64'
  /** Template of the signed bytes: `{body}`, `{timestamp}`, `{id}`, `{url}`; default `{body}`. */
  signedTemplate?: string
  timestampHeader?: string
  idHeader?: string
  toleranceSeconds?: number
}

export type HeaderMap = Record<string, string | string[] | undefined>

export interface SignInput {
  body: Uint8Array
  secret: string
  /** Message id for schemes that sign one (webhook-id …); a fresh one when absent. */
  id?: string
  /** Unix seconds; the current time when absent. */
  timestamp?: number
  /** Public URL the request goes to (Twilio, Square). */
  url?: string
  custom?: CustomHmacOptions
}

export interface VerifyInput {
  body: Uint8Array
  headers: HeaderMap
  /** Several secrets for rotation: valid when any one matches. */
  secrets: string[]
  /** Public URL the provider called (Twilio, Square). */
  url?: string
  /** Unix seconds used for tolerance checks; the current time when absent. */
  now?: number
  /** Override the scheme's default tolerance in seconds. */
  toleranceSeconds?: number
  custom?: CustomHmacOptions
}
