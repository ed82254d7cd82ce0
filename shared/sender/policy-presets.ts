// Retry policies of real providers, each with where its numbers come from. The two seed
// providers are exact; the public ones follow their documentation as far as it is precise.
import { z } from 'zod'
import { defineCatalog, mapEntries, type PresetInfo } from '../catalog'
import { classificationSchema, jitterSchema, policySchema, scheduleSchema, type Classification, type Policy } from './policy'

const MIN = 60_000
const HOUR = 60 * MIN

/** A preset: what the UI lists (the description is the policy's `source`) and the policy itself. */
type PolicyPresetEntry = PresetInfo & Omit<Policy, 'name' | 'source'> & {
  /** Not listed in a UI: a starting point for policy files. */
  fileOnly?: boolean
}

/** Any 2xx succeeds; every other status and every network outcome is retried. */
const ANY_2XX_ELSE_RETRY: Classification = {
  rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }],
  otherwise: 'retry',
}

const NO_RETRY_AFTER = { honour: false, statuses: [429, 503], max_ms: 86_400_000 }

/** The schedule the Standard Webhooks spec recommends, as Svix (its reference implementation) runs it. */
const STANDARD_WEBHOOKS = {
  schedule: { kind: 'list', delays_ms: [5_000, 5 * MIN, 30 * MIN, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] },
  max_attempts: 8,
  timeout_ms: 15_000,
  classification: ANY_2XX_ELSE_RETRY,
  follow_redirects: 0,
  retry_after: NO_RETRY_AFTER,
} satisfies Omit<PolicyPresetEntry, keyof PresetInfo>

export const POLICY_CATALOG = defineCatalog({
  pandoktorek: {
    label: 'Provider A (pandoktorek)',
    description: 'Seed provider A (Pandoktorek docs): min(2^N, 360) min after failed attempt N, 10 attempts, 10 s timeout; 200/201/204 succeed, 301/302 and 4xx final, 5xx/timeout/refused/DNS retry.',
    schedule: { kind: 'exponential', base: 2, unit_ms: MIN, cap_ms: 360 * MIN },
    max_attempts: 10,
    timeout_ms: 10_000,
    classification: {
      rules: [
        { when: { status: [200, 201, 204] }, then: 'succeeded' },
        // The table names 200/201/204; the prose says "outside 2xx fails", so the rest of 2xx succeeds too.
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        // 301/302 are final and never followed; the seed does not name other 3xx, treated alike.
        { when: { status_range: [300, 399] }, then: 'failed' },
        { when: { status_range: [400, 499] }, then: 'failed' },
        { when: { status_range: [500, 599] }, then: 'retry' },
      ],
      // timeout, connection refused, DNS failure, reset and other connection errors.
      otherwise: 'retry',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  csku: {
    label: 'Provider B (csku)',
    description: 'Seed provider B (CSKU AI docs): 3 retries 30 s apart (4 attempts in all), success = HTTP 200 only, then failed_permanent; the docs also say "exponential backoff", which their fixed 30 s contradicts: the 30 s table wins. Timeout: the docs ask for an answer within 5 s.',
    schedule: { kind: 'fixed', interval_ms: 30_000 },
    max_attempts: 4,
    timeout_ms: 5_000,
    classification: { rules: [{ when: { status: [200] }, then: 'succeeded' }], otherwise: 'retry' },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  'standard-webhooks': {
    label: 'Standard Webhooks',
    description: 'Standard Webhooks spec: the example schedule it recommends (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 2xx succeeds, 3xx is a failure; 15 s timeout as its reference implementation (Svix).',
    ...STANDARD_WEBHOOKS,
  },
  svix: {
    label: 'Svix',
    description: 'docs.svix.com/retries: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 2xx within 15 s succeeds; any other status, 3xx included, is a failure.',
    ...STANDARD_WEBHOOKS,
  },
  stripe: {
    label: 'Stripe',
    description: 'Stripe docs: live mode retries "for up to three days with an exponential back off", no exact intervals published; this preset doubles from 1 h up to 12 h (≈3 days in 10 attempts), 2xx succeeds, redirects are not followed. An approximation.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30 * MIN, cap_ms: 12 * HOUR },
    max_attempts: 10,
    timeout_ms: 20_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  github: {
    label: 'GitHub (no retries)',
    description: 'GitHub docs: no automatic redelivery (failed deliveries are redelivered by hand); a response is expected within 10 s; 2xx succeeds.',
    schedule: { kind: 'fixed', interval_ms: 0 },
    max_attempts: 1,
    timeout_ms: 10_000,
    classification: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'failed' },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  shopify: {
    label: 'Shopify',
    description: 'Shopify docs: 5 s timeout; a failed webhook is retried 8 times over 4 hours with exponential backoff (exact intervals unpublished: 1 min doubling, capped at 2 h, so 8 retries span ≈4 h); 2xx succeeds, 3xx counts as an error.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: 2 * HOUR },
    max_attempts: 9,
    timeout_ms: 5_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  slack: {
    label: 'Slack',
    description: 'Slack Events API docs: answer with a 2xx within 3 s; a failed event is retried 3 times, nearly at once, after 1 min and after 5 min, with X-Slack-Retry-Num and X-Slack-Retry-Reason.',
    schedule: { kind: 'list', delays_ms: [0, MIN, 5 * MIN] },
    max_attempts: 4,
    timeout_ms: 3_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  twilio: {
    label: 'Twilio',
    description: 'Twilio webhooks connection overrides: total timeout 15 s, 1 retry (rc=1) by default, and only when the connection could not be made (rp=ct); an HTTP answer other than 2xx is not retried.',
    schedule: { kind: 'fixed', interval_ms: 0 },
    max_attempts: 2,
    timeout_ms: 15_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { outcome: ['connection_refused', 'dns', 'connection_error'] }, then: 'retry' },
      ],
      otherwise: 'failed',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  square: {
    label: 'Square',
    description: 'Square webhooks docs: acknowledge with a 2xx within 10 s; failed deliveries are retried for up to 24 hours (intervals unpublished: 1 min doubling, capped at 6 h, 11 attempts ≈ 20 h). An approximation.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: 6 * HOUR },
    max_attempts: 11,
    timeout_ms: 10_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  paddle: {
    label: 'Paddle',
    description: 'Paddle Billing "Handle webhook delivery": answer 200 within 5 s; live accounts retry up to 60 times over 3 days with exponential backoff (intervals unpublished: 1 min doubling, capped at 80 min, 60 attempts ≈ 3 days). An approximation.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: 80 * MIN },
    max_attempts: 60,
    timeout_ms: 5_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  linear: {
    label: 'Linear',
    description: 'Linear webhooks docs: answer with HTTP 200 within 5 s; a failed delivery is retried 3 times, after 1 min, 1 h and 6 h.',
    schedule: { kind: 'list', delays_ms: [MIN, HOUR, 6 * HOUR] },
    max_attempts: 4,
    timeout_ms: 5_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  zoom: {
    label: 'Zoom',
    description: 'Zoom webhooks docs: answer 200 or 204 within 3 s; otherwise Zoom retries 3 times, after 5 min, 30 min and 90 min.',
    schedule: { kind: 'list', delays_ms: [5 * MIN, 30 * MIN, 90 * MIN] },
    max_attempts: 4,
    timeout_ms: 3_000,
    classification: { rules: [{ when: { status: [200, 204] }, then: 'succeeded' }], otherwise: 'retry' },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  sendgrid: {
    label: 'SendGrid Event Webhook',
    description: 'SendGrid Event Webhook docs: anything but a 2xx is retried "at increasing intervals for up to 24 hours after the event occurs"; intervals and timeout unpublished: 1 min doubling, capped at 4 h (12 attempts ≈ 24 h), 10 s timeout. An approximation.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: 4 * HOUR },
    max_attempts: 12,
    timeout_ms: 10_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  discord: {
    label: 'Discord interactions (no retries)',
    description: 'Discord interactions: the app must answer within 3 s (an interaction response, or PONG to a PING); Discord does not retry an interaction, the user sees it fail.',
    schedule: { kind: 'fixed', interval_ms: 0 },
    max_attempts: 1,
    timeout_ms: 3_000,
    classification: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'failed' },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  twitch: {
    label: 'Twitch EventSub',
    description: 'Twitch EventSub webhooks: answer a notification with a 2xx "within a few seconds"; Twitch resends when unsure it was received (at least once) and revokes a subscription that fails too often (notification_failures_exceeded). No schedule published: 3 s timeout, 3 attempts 1 min and 5 min apart. An approximation.',
    schedule: { kind: 'list', delays_ms: [MIN, 5 * MIN] },
    max_attempts: 3,
    timeout_ms: 3_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  hubspot: {
    label: 'HubSpot',
    description: 'HubSpot Webhooks API: a notification that fails (connection failed, 5 s timeout, a 5xx) is retried up to 10 times over the next 24 hours, with varying delays (unpublished: 1 min doubling, capped at 8 h); a 4xx is not retried (429 is). An approximation of the delays.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: 8 * HOUR },
    max_attempts: 11,
    timeout_ms: 5_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { status: [429] }, then: 'retry' },
        { when: { status_range: [400, 499] }, then: 'failed' },
      ],
      otherwise: 'retry',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  intercom: {
    label: 'Intercom',
    description: 'Intercom webhooks docs: answer 200 within 5 s; a failed notification is retried once, after 1 minute (subscriptions that keep failing are suspended).',
    schedule: { kind: 'list', delays_ms: [MIN] },
    max_attempts: 2,
    timeout_ms: 5_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  mailgun: {
    label: 'Mailgun',
    description: 'Mailgun webhooks docs: a 200 succeeds; a 406 (Not Acceptable) is final; anything else is retried over 8 hours, after 10 min, 10 min, 15 min, 30 min, 1 h, 2 h and 4 h. The timeout is unpublished: 10 s here.',
    schedule: { kind: 'list', delays_ms: [10 * MIN, 10 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 4 * HOUR] },
    max_attempts: 8,
    timeout_ms: 10_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { status: [406] }, then: 'failed' },
      ],
      otherwise: 'retry',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  gitlab: {
    label: 'GitLab (no retries, auto-disable)',
    description: 'GitLab webhooks docs: a delivery is not retried; any 2xx within the hook\'s timeout (10 s by default) succeeds. What GitLab does instead is disable a failing hook: after 4 consecutive failures it is disabled for 1 min, then twice as long after each further failure up to 24 h, and permanently after 40; a disabled hook gets no deliveries at all. That state is the hook\'s, not one delivery\'s, so this preset models the single attempt.',
    schedule: { kind: 'fixed', interval_ms: 0 },
    max_attempts: 1,
    timeout_ms: 10_000,
    classification: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'failed' },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  bitbucket: {
    label: 'Bitbucket Cloud',
    description: 'Bitbucket Cloud "Troubleshoot webhooks": a response is expected within 10 s; a 5xx answer is resent up to two more times (X-Attempt-Number counts them); other answers, timeouts and network errors are not resent. The interval is unpublished (older docs: one minute between attempts), so 1 min here.',
    schedule: { kind: 'fixed', interval_ms: MIN },
    max_attempts: 3,
    timeout_ms: 10_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { status_range: [500, 599] }, then: 'retry' },
      ],
      otherwise: 'failed',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  pagerduty: {
    label: 'PagerDuty (V3 webhooks)',
    description: 'PagerDuty V3 webhooks docs: a 2xx within the delivery timeout succeeds; a failed delivery is retried with backoff, and a subscription that keeps failing is disabled. The schedule is not published: 1 min doubling, capped at 1 h, 6 attempts here, 10 s timeout. An approximation.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: HOUR },
    max_attempts: 6,
    timeout_ms: 10_000,
    classification: ANY_2XX_ELSE_RETRY,
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  typeform: {
    label: 'Typeform',
    description: 'Typeform webhooks docs: a 2xx within 30 s succeeds; after 408, 423, 429 or 503 the delivery is retried every 2 to 3 minutes for up to 10 hours (every 3 min here: 200 retries); other answers are final, and 404 or 410 disable the webhook.',
    schedule: { kind: 'fixed', interval_ms: 3 * MIN },
    max_attempts: 201,
    timeout_ms: 30_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { status: [408, 423, 429, 503] }, then: 'retry' },
      ],
      otherwise: 'failed',
    },
    follow_redirects: 0,
    retry_after: NO_RETRY_AFTER,
  },
  custom: {
    label: 'Custom',
    fileOnly: true,
    description: 'A starting point to edit: 5 attempts, 1 min doubling to 1 h, 10 s timeout, 2xx succeeds, 4xx final, Retry-After honoured on 429/503.',
    schedule: { kind: 'exponential', base: 2, unit_ms: 30_000, cap_ms: HOUR },
    max_attempts: 5,
    timeout_ms: 10_000,
    classification: {
      rules: [
        { when: { status_range: [200, 299] }, then: 'succeeded' },
        { when: { status: [408, 429] }, then: 'retry' },
        { when: { status_range: [400, 499] }, then: 'failed' },
      ],
      otherwise: 'retry',
    },
    follow_redirects: 0,
    retry_after: { honour: true, statuses: [429, 503], max_ms: 6 * HOUR },
  },
} satisfies Record<string, PolicyPresetEntry>)
export const POLICY_PRESET_IDS = POLICY_CATALOG.ids
export type PolicyPresetId = (typeof POLICY_PRESET_IDS)[number]
export const isPolicyPresetId = POLICY_CATALOG.has

/** Each preset's policy, named by its id. */
export const POLICY_PRESETS: Record<PolicyPresetId, Policy> = mapEntries(POLICY_CATALOG.entries, ({ label: _label, description, fileOnly: _fileOnly, ...policy }, id) => ({ name: id, source: description, ...policy }))

/**
 * A policy as subscriptions and scenario files give it: a preset name, or an object that starts
 * from a preset (default `custom`) and overrides any field.
 */
export const policySpecSchema = z.union([
  z.enum(POLICY_PRESET_IDS),
  z.strictObject({
    preset: z.enum(POLICY_PRESET_IDS).optional(),
    name: z.string().min(1).optional(),
    source: z.string().optional(),
    schedule: scheduleSchema.optional(),
    jitter: jitterSchema.optional(),
    max_attempts: z.number().int().min(1).max(1000).optional(),
    timeout_ms: z.number().int().positive().optional(),
    classification: classificationSchema.optional(),
    follow_redirects: z.number().int().min(0).max(20).optional(),
    // Without its default: an override that leaves retry_after out keeps the preset's own.
    retry_after: policySchema.shape.retry_after.unwrap().optional(),
  }),
])
export type PolicySpec = z.input<typeof policySpecSchema>

/** The full policy a spec names. Throws a ZodError (with paths) for an invalid spec. */
export function resolvePolicy(spec: PolicySpec): Policy {
  const parsed = policySpecSchema.parse(spec)
  if (typeof parsed === 'string') return structuredClone(POLICY_PRESETS[parsed])
  const { preset, ...overrides } = parsed
  const base = POLICY_PRESETS[preset ?? 'custom']
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
  return policySchema.parse({ ...structuredClone(base), ...defined })
}
