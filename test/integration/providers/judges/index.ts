// Every provider's judge (judges/types.ts): one file per provider, one line here. The seed
// providers have no library and no judge (seeds.test.ts checks them against the seeds).
import type { ProviderId } from '../../../../shared/providers'
import { discordJudge } from './discord'
import { githubJudge } from './github'
import { hubspotJudge } from './hubspot'
import { intercomJudge } from './intercom'
import { linearJudge } from './linear'
import { mailgunJudge } from './mailgun'
import { paddleJudge } from './paddle'
import { sendgridJudge } from './sendgrid'
import { shopifyJudge } from './shopify'
import { slackJudge } from './slack'
import { squareJudge } from './square'
import { standardWebhooksJudge } from './standard-webhooks'
import { stripeJudge } from './stripe'
import { svixJudge } from './svix'
import { twilioJudge } from './twilio'
import { twitchJudge } from './twitch'
import { bitbucketJudge } from './bitbucket'
import { clerkJudge } from './clerk'
import { gitlabJudge } from './gitlab'
import { pagerdutyJudge } from './pagerduty'
import { resendJudge } from './resend'
import { typeformJudge } from './typeform'
import type { Judge } from './types'
import { zoomJudge } from './zoom'

export type { Judge, JudgeConsumer } from './types'

export const JUDGES: Partial<Record<ProviderId, Judge>> = {
  github: githubJudge,
  stripe: stripeJudge,
  shopify: shopifyJudge,
  slack: slackJudge,
  'standard-webhooks': standardWebhooksJudge,
  svix: svixJudge,
  twilio: twilioJudge,
  square: squareJudge,
  paddle: paddleJudge,
  linear: linearJudge,
  zoom: zoomJudge,
  sendgrid: sendgridJudge,
  discord: discordJudge,
  twitch: twitchJudge,
  hubspot: hubspotJudge,
  intercom: intercomJudge,
  mailgun: mailgunJudge,
  gitlab: gitlabJudge,
  bitbucket: bitbucketJudge,
  clerk: clerkJudge,
  resend: resendJudge,
  pagerduty: pagerdutyJudge,
  typeform: typeformJudge,
}
