// A provider pack: what one real provider's webhook delivery looks like on the wire — its headers,
// body envelope, content type, signature scheme and retry policy — with the documents it follows.
// Data only (the renderer reads it too); electron/engine/providers/ builds requests from it.
import { isPolicyPresetId, type PolicyPresetId } from '../sender'
import { isSchemeId, type SchemeId } from '../signatures'

export const PROVIDER_IDS = [
  'github',
  'stripe',
  'shopify',
  'slack',
  'standard-webhooks',
  'svix',
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
  'clerk',
  'resend',
  'pagerduty',
  'typeform',
  'provider-a',
  'provider-b',
] as const
export type ProviderId = (typeof PROVIDER_IDS)[number]

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value)
}

/**
 * How the catalog's payload becomes the body. Each kind is built in
 * electron/engine/providers/envelopes.ts (one exhaustive switch).
 */
export type ProviderEnvelope =
  /** The payload is the whole body (GitHub, Shopify: the resource itself). */
  | { kind: 'payload' }
  /** Seed provider A: `{event_id, event_type, payload}`. */
  | { kind: 'hookloop' }
  /** Seed provider B: `{event, message}` (the payload is the message). */
  | { kind: 'event-message' }
  /** Stripe's Event object around `data.object`. */
  | { kind: 'stripe'; apiVersion: string }
  /** Slack Events API `event_callback` around the inner event. */
  | { kind: 'slack'; teamId: string; apiAppId: string }
  /** Standard Webhooks' `{type, timestamp, data}`. */
  | { kind: 'type-timestamp-data' }
  /** Square's `{merchant_id, type, event_id, created_at, data: {type, id, object}}`. */
  | { kind: 'square'; merchantId: string }
  /** Paddle Billing's notification `{event_id, event_type, occurred_at, notification_id, data}`. */
  | { kind: 'paddle' }
  /** Linear's `{action, type, data, createdAt, organizationId, webhookTimestamp, webhookId, url}`. */
  | { kind: 'linear'; organizationId: string }
  /** Zoom's `{event, event_ts, payload: {account_id, object}}`. */
  | { kind: 'zoom'; accountId: string }
  /** Form-encoded parameters (Twilio): the payload is a flat object of strings. */
  | { kind: 'form' }
  /** A JSON array of events, this delivery's one event in it (SendGrid's Event Webhook, HubSpot). */
  | { kind: 'array' }
  /** Intercom's notification `{type: "notification_event", topic, data: {type, item}, …}`. */
  | { kind: 'intercom'; appId: string }
  /** Mailgun's `{signature, "event-data": <payload>}`; the signature object is added when signing. */
  | { kind: 'mailgun' }
  /** Clerk's `{data, object: "event", type, timestamp (ms), instance_id, event_attributes}`. */
  | { kind: 'clerk'; instanceId: string }
  /** Resend's `{type, created_at, data}`. */
  | { kind: 'type-created-at-data' }
  /** PagerDuty V3's `{event: {id, event_type, resource_type, occurred_at, …<payload>}}` (payload: agent, client, data). */
  | { kind: 'pagerduty' }
  /** Typeform's `{event_id, event_type, form_response}`. */
  | { kind: 'typeform' }

/**
 * A header every attempt carries. Values are templates over the attempt:
 * `{event_id}`, `{event_type}`, `{event_name}` (the type up to its first '.'), `{event_action}`
 * (after it), `{attempt}` (1, 2 …), `{retry_num}` (0 on the first attempt), `{sent_at_iso}`,
 * `{created_at_iso}`, `{derived_uuid}` (a UUID derived from the event id: stable across retries),
 * `{api_version}` (the subscription's API version, else the pack's first `apiVersions` entry).
 */
export interface ProviderHeader {
  name: string
  value: string
  /** Only on retries (Slack's X-Slack-Retry-Num), never on the first attempt. */
  on?: 'retries'
}

export interface ProviderSource {
  /** The provider document this pack follows. */
  title: string
  url: string
  /** What it says that the pack uses, and what it leaves open (where the pack approximates). */
  note: string
}

export interface ProviderPack {
  id: ProviderId
  label: string
  scheme: SchemeId
  /** The provider does not sign: subscriptions made from the pack get no secret unless given one. */
  unsigned?: true
  policy: PolicyPresetId
  contentType: string
  envelope: ProviderEnvelope
  headers: ProviderHeader[]
  /**
   * The provider's API versions Hookloop delivers, newest first; the first is the default. Where
   * the provider's schemas differ between versions, the catalog's payload follows the chosen one.
   */
  apiVersions?: readonly string[]
  /**
   * Headers of one event type over the pack's (Twitch's revocation message is another message
   * type than its notifications): event type → header name → template.
   */
  eventHeaders?: Record<string, Record<string, string>>
  /** The header that carries the event id (dedupe key), lower-case. */
  eventIdHeader: string
  /** What the provider counts as success, in words (the policy's classification encodes it). */
  success: string
  sources: ProviderSource[]
}

/**
 * What a pack file writes: only what is its own. The rest defaults: scheme and policy are the
 * pack's id (a scheme and a policy preset of that name exist for every real provider), a JSON body
 * that is the payload itself, no headers of its own, the event id in x-hookloop-event-id.
 */
export interface PackSpec extends Partial<Omit<ProviderPack, 'id' | 'label' | 'success' | 'headers' | 'sources'>>, Pick<ProviderPack, 'id' | 'label' | 'success'> {
  /** Header name → template, on every attempt. */
  headers?: Record<string, string>
  /** Header name → template, on retries only. */
  retryHeaders?: Record<string, string>
  /** [title, url, note] of each document the pack follows. */
  sources: Array<[title: string, url: string, note: string]>
}

// A pack that leaves its scheme or policy out names one by its id: checked when the pack is made,
// so a pack whose id names neither fails at load, not at its first delivery.
function named<T extends string>(id: string, known: (value: string) => value is T, what: string): T {
  if (!known(id)) throw new Error(`provider pack ${id}: no ${what} is called ${id}; name one`)
  return id
}

export function definePack({ headers = {}, retryHeaders = {}, sources, ...own }: PackSpec): ProviderPack {
  const listed = (record: Record<string, string>, on?: 'retries') => Object.entries(record).map(([name, value]) => ({ name, value, ...(on ? { on } : {}) }))
  return {
    scheme: own.scheme ?? named(own.id, isSchemeId, 'signature scheme'),
    policy: own.policy ?? named(own.id, isPolicyPresetId, 'policy preset'),
    contentType: 'application/json',
    envelope: { kind: 'payload' },
    eventIdHeader: 'x-hookloop-event-id',
    ...own,
    headers: [...listed(headers), ...listed(retryHeaders, 'retries')],
    sources: sources.map(([title, url, note]) => ({ title, url, note })),
  }
}
