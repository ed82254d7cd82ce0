// Every provider's judge (judges/types.ts): one file per provider, one line here. The seed
// providers have no library and no judge (seeds.test.ts checks them against the seeds).
import type { ProviderId } from '../../../../shared/providers'
import { bitbucketJudge } from './bitbucket'
import { clerkJudge } from './clerk'
import { githubJudge } from './github'
import { gitlabJudge } from './gitlab'
import { linearJudge } from './linear'
import { paddleJudge } from './paddle'
import { pagerdutyJudge } from './pagerduty'
import { resendJudge } from './resend'
import { shopifyJudge } from './shopify'
import { slackJudge } from './slack'
import { squareJudge } from './square'
import { standardWebhooksJudge } from './standard-webhooks'
import { stripeJudge } from './stripe'
import { svixJudge } from './svix'
import { twilioJudge } from './twilio'
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
  gitlab: gitlabJudge,
  bitbucket: bitbucketJudge,
  clerk: clerkJudge,
  resend: resendJudge,
  pagerduty: pagerdutyJudge,
  typeform: typeformJudge,
}
