// The event catalog: a provider's common event types (a new one = an entry in its file).
import type { ProviderId } from '../providers'
import { githubEvents } from './github'
import { linearEvents } from './linear'
import { paddleEvents } from './paddle'
import { providerAEvents, providerBEvents } from './seeds'
import { shopifyEvents } from './shopify'
import { slackEvents } from './slack'
import { squareEvents } from './square'
import { standardWebhooksEvents } from './standard-webhooks'
import { stripeEvents } from './stripe'
import { twilioEvents } from './twilio'
import { bitbucketEvents } from './bitbucket'
import { clerkEvents } from './clerk'
import { gitlabEvents } from './gitlab'
import { pagerdutyEvents } from './pagerduty'
import { resendEvents } from './resend'
import { typeformEvents } from './typeform'
import type { CatalogEvent } from './types'
import { zoomEvents } from './zoom'
import { sendgridEvents } from './sendgrid'
import { discordEvents } from './discord'
import { twitchEvents } from './twitch'
import { hubspotEvents } from './hubspot'
import { intercomEvents } from './intercom'
import { mailgunEvents } from './mailgun'

export const EVENT_CATALOG: Record<ProviderId, readonly CatalogEvent[]> = {
  github: githubEvents,
  stripe: stripeEvents,
  shopify: shopifyEvents,
  slack: slackEvents,
  'standard-webhooks': standardWebhooksEvents,
  svix: standardWebhooksEvents,
  twilio: twilioEvents,
  square: squareEvents,
  paddle: paddleEvents,
  linear: linearEvents,
  zoom: zoomEvents,
  sendgrid: sendgridEvents,
  discord: discordEvents,
  twitch: twitchEvents,
  hubspot: hubspotEvents,
  intercom: intercomEvents,
  mailgun: mailgunEvents,
  gitlab: gitlabEvents,
  bitbucket: bitbucketEvents,
  clerk: clerkEvents,
  resend: resendEvents,
  pagerduty: pagerdutyEvents,
  typeform: typeformEvents,
  'provider-a': providerAEvents,
  'provider-b': providerBEvents,
}

export function catalogEvent(provider: ProviderId, type: string): CatalogEvent | undefined {
  return EVENT_CATALOG[provider].find((e) => e.type === type)
}
