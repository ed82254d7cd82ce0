// The provider catalog: one pack per provider (a new provider = a new file + a line here).
import { github } from './github'
import { linear } from './linear'
import { paddle } from './paddle'
import { providerA } from './provider-a'
import { providerB } from './provider-b'
import { shopify } from './shopify'
import { slack } from './slack'
import { square } from './square'
import { standardWebhooks } from './standard-webhooks'
import { stripe } from './stripe'
import { svix } from './svix'
import { twilio } from './twilio'
import { bitbucket } from './bitbucket'
import { clerk } from './clerk'
import { gitlab } from './gitlab'
import { pagerduty } from './pagerduty'
import { resend } from './resend'
import { typeform } from './typeform'
import { zoom } from './zoom'
import { sendgrid } from './sendgrid'
import { discord } from './discord'
import { twitch } from './twitch'
import { hubspot } from './hubspot'
import { intercom } from './intercom'
import { mailgun } from './mailgun'

import { POLICY_PRESETS } from '../sender'
import type { SchemeId } from '../signatures'

export * from './types'
export * from './event-id'
export * from './payload-schemas'

export const PROVIDERS = {
  github,
  stripe,
  shopify,
  slack,
  'standard-webhooks': standardWebhooks,
  svix,
  twilio,
  square,
  paddle,
  linear,
  zoom,
  sendgrid,
  discord,
  twitch,
  hubspot,
  intercom,
  mailgun,
  gitlab,
  bitbucket,
  clerk,
  resend,
  pagerduty,
  typeform,
  'provider-a': providerA,
  'provider-b': providerB,
}
/**
 * Headers that name an event's type (lower case, in the order they are read), read before a body's
 * fields wherever Hookloop names a request's event type (the timeline's rows and filter, a
 * contract's operation): the generic ones, then every header a pack sends with the event's type or
 * name in it (X-GitHub-Event, X-Shopify-Topic, Linear-Event …), so a new pack's is read too. A body
 * alone cannot tell a GitHub delivery's event: its payload names none.
 */
export const EVENT_TYPE_HEADERS: readonly string[] = [
  ...new Set([
    'x-event-type',
    'x-webhook-event',
    'x-gitlab-event',
    ...Object.values(PROVIDERS).flatMap((pack) => pack.headers.filter((h) => h.value === '{event_type}' || h.value === '{event_name}').map((h) => h.name.toLowerCase())),
  ]),
]

export type ProviderId = keyof typeof PROVIDERS

/** Every provider's id, in the order of PROVIDERS (lists, pickers, help). */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]]

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value)
}
export { apiVersionFor, ApiVersionError } from './api-version'
export { splitEventType } from './envelope'

// How long each provider waits for an answer before it counts a delivery as failed: the timeout of
// the pack's own retry policy (shared/sender/policy-presets.ts, each with its source). A breakpoint
// that holds a provider's request longer than this turns the held request into a timeout on the
// provider's side (and a retry), so the hold limit a breakpoint starts with stays below it.

export interface ProviderWait {
  id: ProviderId
  label: string
  scheme: SchemeId
  /** The provider's documented (or the preset's approximated) answer timeout, ms. */
  waitMs: number
}

export function providerWaits(): ProviderWait[] {
  return PROVIDER_IDS.map((id) => {
    const pack = PROVIDERS[id]
    return { id, label: pack.label, scheme: pack.scheme, waitMs: POLICY_PRESETS[pack.policy].timeout_ms }
  })
}

/** Time left for a person to act: a hold ends this long before the provider gives up. */
export const HOLD_MARGIN_MS = 1_000
/** A hold limit with no provider to go by: below the common 5–10 s timeouts. */
export const DEFAULT_HOLD_LIMIT_MS = 4_000

/**
 * The hold limit a breakpoint starts with for requests verified with this scheme: the shortest wait
 * among the providers signing with it, less HOLD_MARGIN_MS; DEFAULT_HOLD_LIMIT_MS without one.
 */
export function defaultHoldLimitMs(scheme: SchemeId | null | undefined): number {
  if (!scheme) return DEFAULT_HOLD_LIMIT_MS
  const waits = providerWaits().filter((w) => w.scheme === scheme).map((w) => w.waitMs)
  if (waits.length === 0) return DEFAULT_HOLD_LIMIT_MS
  return Math.max(1_000, Math.min(...waits) - HOLD_MARGIN_MS)
}
