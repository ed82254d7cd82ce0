// The signature vocabulary both sides share: which schemes exist, what verify() answers.
// Implementations live in electron/engine/signatures/ (one module per scheme).

export type SchemeId = keyof typeof SCHEMES

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
  /** The custom scheme's settings are incomplete or contradictory (e.g. {timestamp} without a header). */
  | 'bad_options'

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
  /** now - timestamp in seconds, when a timestamp was checked (negative = from the future). */
  skewSeconds?: number
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
  /**
   * More secrets that sign too, after `secret`: during a rotation a delivery carries a signature
   * per secret (as Svix sends them). Only schemes with multipleSignatures can carry them.
   */
  additionalSecrets?: string[]
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

/** What the UI and the receiver need to know about a scheme without running it. */
export interface SchemeMeta {
  id: SchemeId
  label: string
  /** Lower-case names of every header the scheme reads or writes. */
  headers: string[]
  /** Lower-case name of the signature header; null when configurable (custom) or in the body (Mailgun). */
  signatureHeader: string | null
  /**
   * The signature travels inside the JSON body, not in a header (Mailgun's `signature` object):
   * the sender signs with signBody(), and a missing signature is reported as `missing_header`.
   */
  signatureIn?: 'body'
  timestampHeader?: string
  /** Header carrying the provider's message/delivery id, for duplicate detection. */
  idHeader?: string
  /** Signs the public URL the request went to (verify needs `url`). */
  needsUrl: boolean
  /** Default tolerance in seconds; null = the scheme has no time check. */
  toleranceSeconds: number | null
  /** 'both' rejects too old and too new; 'past' rejects only too old. */
  toleranceMode: 'both' | 'past'
  /**
   * How the secret string becomes key bytes, or which key pair it is: the asymmetric schemes sign
   * with a private key and verify with the public key or, given the private key, the public key
   * derived from it (see docs/signatures.md).
   */
  secretFormat: 'whsec-base64' | 'utf8' | 'ecdsa-p256' | 'ed25519'
  /** Whether one request may carry several signatures (secret rotation). */
  multipleSignatures: boolean
  /**
   * The signature header carries the secret itself (GitLab's X-Gitlab-Token): nothing is signed,
   * so a changed body still verifies and results show the token masked.
   */
  tokenOnly?: true
  /** The provider hands out `whsec_` + base64 secrets though it keys with the string's bytes (Stripe): fresh secrets take that form. */
  whsecSecrets?: true
}

// A scheme states what differs from the usual one: a signature over the body in one header, no
// time check, the secret's own bytes as the key, one signature per request.
function scheme(id: string, label: string, own: Omit<SchemeMeta, 'id' | 'label' | 'headers' | 'needsUrl' | 'toleranceSeconds' | 'toleranceMode' | 'secretFormat' | 'multipleSignatures'> & Partial<SchemeMeta>): SchemeMeta {
  const headers = [own.signatureHeader, own.timestampHeader].filter((name) => typeof name === 'string')
  return { id: id as SchemeId, label, headers, needsUrl: false, toleranceSeconds: null, toleranceMode: 'both', secretFormat: 'utf8', multipleSignatures: false, ...own }
}

export const SCHEMES = {
  'standard-webhooks': scheme('standard-webhooks', 'Standard Webhooks', { headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'], signatureHeader: 'webhook-signature', timestampHeader: 'webhook-timestamp', idHeader: 'webhook-id', toleranceSeconds: 300, secretFormat: 'whsec-base64', multipleSignatures: true }),
  svix: scheme('svix', 'Svix', { headers: ['svix-id', 'svix-timestamp', 'svix-signature'], signatureHeader: 'svix-signature', timestampHeader: 'svix-timestamp', idHeader: 'svix-id', toleranceSeconds: 300, secretFormat: 'whsec-base64', multipleSignatures: true }),
  stripe: scheme('stripe', 'Stripe', { signatureHeader: 'stripe-signature', toleranceSeconds: 300, toleranceMode: 'past', multipleSignatures: true, whsecSecrets: true }),
  github: scheme('github', 'GitHub', { headers: ['x-hub-signature-256', 'x-hub-signature', 'x-github-delivery', 'x-github-event'], signatureHeader: 'x-hub-signature-256', idHeader: 'x-github-delivery' }),
  shopify: scheme('shopify', 'Shopify', { headers: ['x-shopify-hmac-sha256', 'x-shopify-webhook-id'], signatureHeader: 'x-shopify-hmac-sha256', idHeader: 'x-shopify-webhook-id' }),
  slack: scheme('slack', 'Slack', { signatureHeader: 'x-slack-signature', timestampHeader: 'x-slack-request-timestamp', toleranceSeconds: 300 }),
  twilio: scheme('twilio', 'Twilio', { signatureHeader: 'x-twilio-signature', needsUrl: true }),
  square: scheme('square', 'Square', { signatureHeader: 'x-square-hmacsha256-signature', needsUrl: true }),
  paddle: scheme('paddle', 'Paddle Billing', { signatureHeader: 'paddle-signature', toleranceSeconds: 5, toleranceMode: 'past', multipleSignatures: true }),
  linear: scheme('linear', 'Linear', { headers: ['linear-signature', 'linear-delivery', 'linear-event'], signatureHeader: 'linear-signature', idHeader: 'linear-delivery', toleranceSeconds: 60 }),
  zoom: scheme('zoom', 'Zoom', { signatureHeader: 'x-zm-signature', timestampHeader: 'x-zm-request-timestamp' }),
  // SendGrid documents no time limit and its library checks none; VerifyInput.toleranceSeconds adds one.
  sendgrid: scheme('sendgrid', 'SendGrid Event Webhook', { signatureHeader: 'x-twilio-email-event-webhook-signature', timestampHeader: 'x-twilio-email-event-webhook-timestamp', secretFormat: 'ecdsa-p256' }),
  // Discord documents no time limit and discord-interactions checks none.
  discord: scheme('discord', 'Discord interactions', { signatureHeader: 'x-signature-ed25519', timestampHeader: 'x-signature-timestamp', secretFormat: 'ed25519' }),
  twitch: scheme('twitch', 'Twitch EventSub', {
    headers: ['twitch-eventsub-message-id', 'twitch-eventsub-message-timestamp', 'twitch-eventsub-message-signature'],
    signatureHeader: 'twitch-eventsub-message-signature',
    timestampHeader: 'twitch-eventsub-message-timestamp',
    idHeader: 'twitch-eventsub-message-id',
    // Twitch: "make sure the value in the timestamp field isn't older than 10 minutes".
    toleranceSeconds: 600,
    toleranceMode: 'past',
  }),
  // HubSpot: reject a request whose timestamp is older than 5 minutes.
  hubspot: scheme('hubspot', 'HubSpot (v3)', { signatureHeader: 'x-hubspot-signature-v3', timestampHeader: 'x-hubspot-request-timestamp', needsUrl: true, toleranceSeconds: 300, toleranceMode: 'past' }),
  intercom: scheme('intercom', 'Intercom', { signatureHeader: 'x-hub-signature' }),
  // Mailgun asks to check the timestamp is recent and cache tokens, and names no limit.
  mailgun: scheme('mailgun', 'Mailgun', { signatureHeader: null, signatureIn: 'body' }),
  gitlab: scheme('gitlab', 'GitLab', { signatureHeader: 'x-gitlab-token', tokenOnly: true }),
  bitbucket: scheme('bitbucket', 'Bitbucket Cloud', { signatureHeader: 'x-hub-signature' }),
  pagerduty: scheme('pagerduty', 'PagerDuty', { signatureHeader: 'x-pagerduty-signature', multipleSignatures: true }),
  typeform: scheme('typeform', 'Typeform', { signatureHeader: 'typeform-signature' }),
  custom: scheme('custom', 'Custom HMAC', { signatureHeader: null }),
}

/** Every scheme's id, in the order the schemes are listed (help texts, pickers). */
export const SCHEME_IDS = Object.keys(SCHEMES) as [SchemeId, ...SchemeId[]]
