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
export type ProviderId = keyof typeof PROVIDERS

/** Every provider's id, in the order of PROVIDERS (lists, pickers, help). */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]]

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value)
}
export { apiVersionFor, ApiVersionError } from './api-version'
export { splitEventType } from './envelope'
