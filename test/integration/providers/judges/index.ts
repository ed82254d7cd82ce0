// Every provider's judge (judges/types.ts): one file per provider, one line here.
import type { ProviderId } from '../../../../shared/providers'
import { bitbucketJudge } from './bitbucket'
import { clerkJudge } from './clerk'
import { gitlabJudge } from './gitlab'
import { pagerdutyJudge } from './pagerduty'
import { resendJudge } from './resend'
import type { Judge } from './types'

export type { Judge, JudgeConsumer } from './types'

export const JUDGES: Partial<Record<ProviderId, Judge>> = {
  gitlab: gitlabJudge,
  bitbucket: bitbucketJudge,
  clerk: clerkJudge,
  resend: resendJudge,
  pagerduty: pagerdutyJudge,
}
