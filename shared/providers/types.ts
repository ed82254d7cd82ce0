// A provider pack: what one real provider's webhook delivery looks like on the wire — its headers,
// body envelope, content type, signature scheme and retry policy — with the documents it follows.
// Data and the body's builder, plain (the renderer reads it too); electron/engine/providers/ builds
// requests from it.
import { isPolicyPresetId, type PolicyPresetId } from '../sender'
import { isSchemeId, type SchemeId } from '../signatures'
import { PAYLOAD_ENVELOPE } from './envelope'
import type { ProviderId } from './index'

/** One attempt's event, as an envelope builds the body from it. */
export interface EnvelopeInput {
  eventId: string
  eventType: string
  /** The payload's JSON bytes as stored: the part the catalog and the user wrote. */
  payload: Uint8Array
  /** When the event was published, ms: what the provider keeps across retries (Stripe's created). */
  createdAt: number
  /** The time this attempt is signed with, ms: what the provider sets per send (Linear's webhookTimestamp). */
  sentAt: number
  /** The subscription's API version (Stripe's api_version); default: the pack's own. */
  apiVersion?: string | null
}

/** Ids derived from a string (the event id), the same on every attempt: electron/engine/providers/derived-ids.ts. */
export interface DerivedIds {
  token(eventId: string, salt: string, length: number, alphabet?: string): string
  uuid(eventId: string, salt?: string): string
}

/** How the catalog's payload becomes the body (shared/providers/envelope.ts has the common ones). */
export interface ProviderEnvelope {
  /** The shape's name: 'payload', 'stripe', 'array' … */
  kind: string
  /**
   * Where the payload sits in the body, as a dotted path ('' = the body itself). Overrides
   * (`--set data.object.amount=500`) name paths of the body; the part after this prefix is the path
   * inside the payload.
   */
  payloadPath: string
  /** The body in words, as the subscription form shows it. */
  words: string
  /** The body of one attempt. */
  body(input: EnvelopeInput, derive: DerivedIds): Uint8Array
}

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
    envelope: PAYLOAD_ENVELOPE,
    eventIdHeader: 'x-hookloop-event-id',
    ...own,
    headers: [...listed(headers), ...listed(retryHeaders, 'retries')],
    sources: sources.map(([title, url, note]) => ({ title, url, note })),
  }
}
