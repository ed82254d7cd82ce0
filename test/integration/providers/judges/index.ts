// Every provider's judge (judges/types.ts): one file per provider, one line here.
import type { ProviderId } from '../../../../shared/providers'
import { discord } from './discord'
import { hubspot } from './hubspot'
import { intercom } from './intercom'
import { sendgrid } from './sendgrid'
import { twitch } from './twitch'
import type { Judge } from './types'

export type { Judge, JudgeConsumer } from './types'

export const JUDGES: Partial<Record<ProviderId, Judge>> = {
  sendgrid,
  discord,
  twitch,
  hubspot,
  intercom,
}
