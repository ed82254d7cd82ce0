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
  'sendgrid',
  'discord',
  'twitch',
  'hubspot',
  'intercom',
  'mailgun',
  'gitlab',
  'bitbucket',
  'pagerduty',
  'typeform',
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
}

export const SCHEMES: Record<SchemeId, SchemeMeta> = {
  'standard-webhooks': {
    id: 'standard-webhooks',
    label: 'Standard Webhooks',
    headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    signatureHeader: 'webhook-signature',
    timestampHeader: 'webhook-timestamp',
    idHeader: 'webhook-id',
    needsUrl: false,
    toleranceSeconds: 300,
    toleranceMode: 'both',
    secretFormat: 'whsec-base64',
    multipleSignatures: true,
  },
  svix: {
    id: 'svix',
    label: 'Svix',
    headers: ['svix-id', 'svix-timestamp', 'svix-signature'],
    signatureHeader: 'svix-signature',
    timestampHeader: 'svix-timestamp',
    idHeader: 'svix-id',
    needsUrl: false,
    toleranceSeconds: 300,
    toleranceMode: 'both',
    secretFormat: 'whsec-base64',
    multipleSignatures: true,
  },
  stripe: {
    id: 'stripe',
    label: 'Stripe',
    headers: ['stripe-signature'],
    signatureHeader: 'stripe-signature',
    needsUrl: false,
    toleranceSeconds: 300,
    toleranceMode: 'past',
    secretFormat: 'utf8',
    multipleSignatures: true,
  },
  github: {
    id: 'github',
    label: 'GitHub',
    headers: ['x-hub-signature-256', 'x-hub-signature', 'x-github-delivery', 'x-github-event'],
    signatureHeader: 'x-hub-signature-256',
    idHeader: 'x-github-delivery',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  shopify: {
    id: 'shopify',
    label: 'Shopify',
    headers: ['x-shopify-hmac-sha256', 'x-shopify-webhook-id'],
    signatureHeader: 'x-shopify-hmac-sha256',
    idHeader: 'x-shopify-webhook-id',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  slack: {
    id: 'slack',
    label: 'Slack',
    headers: ['x-slack-signature', 'x-slack-request-timestamp'],
    signatureHeader: 'x-slack-signature',
    timestampHeader: 'x-slack-request-timestamp',
    needsUrl: false,
    toleranceSeconds: 300,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  twilio: {
    id: 'twilio',
    label: 'Twilio',
    headers: ['x-twilio-signature'],
    signatureHeader: 'x-twilio-signature',
    needsUrl: true,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  square: {
    id: 'square',
    label: 'Square',
    headers: ['x-square-hmacsha256-signature'],
    signatureHeader: 'x-square-hmacsha256-signature',
    needsUrl: true,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  paddle: {
    id: 'paddle',
    label: 'Paddle Billing',
    headers: ['paddle-signature'],
    signatureHeader: 'paddle-signature',
    needsUrl: false,
    toleranceSeconds: 5,
    toleranceMode: 'past',
    secretFormat: 'utf8',
    multipleSignatures: true,
  },
  linear: {
    id: 'linear',
    label: 'Linear',
    headers: ['linear-signature', 'linear-delivery', 'linear-event'],
    signatureHeader: 'linear-signature',
    idHeader: 'linear-delivery',
    needsUrl: false,
    toleranceSeconds: 60,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  zoom: {
    id: 'zoom',
    label: 'Zoom',
    headers: ['x-zm-signature', 'x-zm-request-timestamp'],
    signatureHeader: 'x-zm-signature',
    timestampHeader: 'x-zm-request-timestamp',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  sendgrid: {
    id: 'sendgrid',
    label: 'SendGrid Event Webhook',
    headers: ['x-twilio-email-event-webhook-signature', 'x-twilio-email-event-webhook-timestamp'],
    signatureHeader: 'x-twilio-email-event-webhook-signature',
    timestampHeader: 'x-twilio-email-event-webhook-timestamp',
    needsUrl: false,
    // SendGrid documents no time limit and its library checks none; VerifyInput.toleranceSeconds adds one.
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'ecdsa-p256',
    multipleSignatures: false,
  },
  discord: {
    id: 'discord',
    label: 'Discord interactions',
    headers: ['x-signature-ed25519', 'x-signature-timestamp'],
    signatureHeader: 'x-signature-ed25519',
    timestampHeader: 'x-signature-timestamp',
    needsUrl: false,
    // Discord documents no time limit and discord-interactions checks none.
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'ed25519',
    multipleSignatures: false,
  },
  twitch: {
    id: 'twitch',
    label: 'Twitch EventSub',
    headers: ['twitch-eventsub-message-id', 'twitch-eventsub-message-timestamp', 'twitch-eventsub-message-signature'],
    signatureHeader: 'twitch-eventsub-message-signature',
    timestampHeader: 'twitch-eventsub-message-timestamp',
    idHeader: 'twitch-eventsub-message-id',
    needsUrl: false,
    // Twitch: "make sure the value in the timestamp field isn't older than 10 minutes".
    toleranceSeconds: 600,
    toleranceMode: 'past',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  hubspot: {
    id: 'hubspot',
    label: 'HubSpot (v3)',
    headers: ['x-hubspot-signature-v3', 'x-hubspot-request-timestamp'],
    signatureHeader: 'x-hubspot-signature-v3',
    timestampHeader: 'x-hubspot-request-timestamp',
    needsUrl: true,
    // HubSpot: reject a request whose timestamp is older than 5 minutes.
    toleranceSeconds: 300,
    toleranceMode: 'past',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  intercom: {
    id: 'intercom',
    label: 'Intercom',
    headers: ['x-hub-signature'],
    signatureHeader: 'x-hub-signature',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  mailgun: {
    id: 'mailgun',
    label: 'Mailgun',
    headers: [],
    signatureHeader: null,
    signatureIn: 'body',
    needsUrl: false,
    // Mailgun asks to check the timestamp is recent and cache tokens, and names no limit.
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  gitlab: {
    id: 'gitlab',
    label: 'GitLab',
    headers: ['x-gitlab-token'],
    signatureHeader: 'x-gitlab-token',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
    tokenOnly: true,
  },
  bitbucket: {
    id: 'bitbucket',
    label: 'Bitbucket Cloud',
    headers: ['x-hub-signature'],
    signatureHeader: 'x-hub-signature',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  pagerduty: {
    id: 'pagerduty',
    label: 'PagerDuty',
    headers: ['x-pagerduty-signature'],
    signatureHeader: 'x-pagerduty-signature',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: true,
  },
  typeform: {
    id: 'typeform',
    label: 'Typeform',
    headers: ['typeform-signature'],
    signatureHeader: 'typeform-signature',
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
  custom: {
    id: 'custom',
    label: 'Custom HMAC',
    headers: [],
    signatureHeader: null,
    needsUrl: false,
    toleranceSeconds: null,
    toleranceMode: 'both',
    secretFormat: 'utf8',
    multipleSignatures: false,
  },
}
