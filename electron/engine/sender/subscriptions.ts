import { randomUUID } from 'node:crypto'
import { freshSecret } from '../../../shared/secrets'
import { isSchemeId, type SchemeId } from '../../../shared/signatures'
import type { Policy } from '../../../shared/sender'
import { resolvePolicy, type PolicySpec, ENVELOPES, isEnvelope, type Envelope } from '../../../shared/sender'
import { apiVersionFor, isProviderId, PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'
import { subscriptionFromRow, subscriptionToRow, withoutBadRows, type Subscription, type SubscriptionRow, type SubscriptionStatements, type SubscriptionTarget } from '../store'
import { SenderError } from './sender-error'

// Subscriptions as the sender uses them: read from the store (either engine, awaited), parsed once,
// held by id in memory for the attempt path, and written through to the store by awaited commands.
// the store's secrets_json holds [signing secret, then secrets rotated out, newest first]: rotation makes the
// old secret invalid at once (no grace), and the `rotated-secret` fault can still sign with it.

export interface SubscriptionInput {
  id?: string
  name?: string
  target: SubscriptionTarget
  scheme: SchemeId
  /** First signs; the rest count as rotated out (newest first). Default: one fresh secret. */
  secrets?: string[]
  policy: PolicySpec
  headers?: Record<string, string>
  /** Header carrying the event id; default per scheme (webhook-id, svix-id …). */
  eventIdHeader?: string
  /**
   * Body shape: 'event' (default) sends `{event_id, event_type, payload}`; 'payload' sends the
   * payload as the whole body (it should carry its own id fields; the event id is in the header).
   */
  envelope?: Envelope
  /**
   * Deliver as this provider does (shared/providers/): its body envelope, content type and
   * headers, per attempt. Replaces `envelope`; null / absent = Hookloop's own shape.
   */
  provider?: ProviderId | null
  /** The provider's API version (one its pack lists); default: the pack's first. Only with a provider. */
  apiVersion?: string | null
  paused?: boolean
}

export type SubscriptionPatch = Partial<Omit<SubscriptionInput, 'id'>>

const RETIRED_KEPT = 5


function validateTarget(target: SubscriptionTarget): SubscriptionTarget {
  if ('url' in target) {
    let parsed: URL
    try {
      parsed = new URL(target.url)
    } catch {
      throw new SenderError('invalid_subscription', `target.url is not a URL: ${JSON.stringify(target.url)}`)
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new SenderError('invalid_subscription', `target.url must be http or https, got ${parsed.protocol}`)
    }
    return { url: target.url }
  }
  if (typeof target.endpoint !== 'string' || target.endpoint === '') throw new SenderError('invalid_subscription', 'target.endpoint must name an endpoint slug')
  return { endpoint: target.endpoint }
}

function envelopeOf(value: unknown): Envelope {
  if (isEnvelope(value)) return value
  throw new SenderError('invalid_subscription', `envelope: must be one of ${ENVELOPES.map((e) => JSON.stringify(e)).join(', ')}, got ${JSON.stringify(value)}`)
}

function providerOf(value: unknown): ProviderId | null {
  if (value === null) return null
  if (isProviderId(value)) return value
  throw new SenderError('invalid_subscription', `provider: must be one of ${PROVIDER_IDS.join(', ')}, got ${JSON.stringify(value)}`)
}

function apiVersionOf(provider: ProviderId | null, requested: string | null | undefined): string | null {
  if (provider === null) {
    if (requested === undefined || requested === null) return null
    throw new SenderError('invalid_subscription', `api_version: ${JSON.stringify(requested)} needs a provider; name the provider whose version it is`)
  }
  try {
    return apiVersionFor(PROVIDERS[provider], requested)
  } catch (error) {
    throw new SenderError('invalid_subscription', (error as Error).message)
  }
}

function policyOf(spec: PolicySpec): Policy {
  try {
    return resolvePolicy(spec)
  } catch (error) {
    const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues
    const first = issues?.[0]
    const where = first ? `policy${first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}` : 'policy'
    throw new SenderError('invalid_subscription', `${where}: ${first?.message ?? String(error)}`)
  }
}

export interface SubscriptionBook {
  /** In `workspaceId` (default `default`). */
  create(input: SubscriptionInput, now: number, workspaceId?: string): Promise<Subscription>
  update(id: string, patch: SubscriptionPatch, now: number): Promise<Subscription>
  /** From memory (the attempt path reads it): never awaits. */
  get(id: string): Subscription | undefined
  require(id: string): Subscription
  /** From memory, in created order. */
  list(): Subscription[]
  setPaused(id: string, paused: boolean, now: number): Promise<Subscription>
  /** New signing secret; the old one moves to the rotated-out list. */
  rotate(id: string, now: number): Promise<Subscription>
  /** Reads every subscription from the store afresh (at start, and when another process changed them). */
  reload(): Promise<void>
}

/**
 * statements: the store, awaited. unseen: one row read synchronously on a data folder's own
 * connection, for a subscription another process added that this book has not reloaded yet (a
 * delivery it takes over names it); the attempt path cannot await a read.
 */
export function createSubscriptionBook(statements: SubscriptionStatements, unseen?: (id: string) => SubscriptionRow | undefined): SubscriptionBook {
  let cache = new Map<string, Subscription>()

  function load(id: string): Subscription | undefined {
    const cached = cache.get(id)
    if (cached || !unseen) return cached
    const row = unseen(id)
    if (!row) return undefined
    const sub = subscriptionFromRow(row)
    cache.set(id, sub)
    return sub
  }

  function requireSub(id: string): Subscription {
    const sub = load(id)
    if (!sub) throw new SenderError('not_found', `no subscription ${JSON.stringify(id)}`)
    return sub
  }

  // A command starts from the store's row when memory has none: another process may have made it.
  async function current(id: string): Promise<Subscription> {
    const cached = cache.get(id)
    if (cached) return cached
    const row = await statements.get(id)
    if (!row) throw new SenderError('not_found', `no subscription ${JSON.stringify(id)}`)
    return subscriptionFromRow(row)
  }

  // One command at a time in this process: each starts from what the one before it saved.
  let turn: Promise<unknown> = Promise.resolve()
  const change = <R>(work: () => Promise<R>): Promise<R> => {
    const next = turn.then(work, work)
    turn = next.catch(() => undefined)
    return next
  }

  async function save(sub: Subscription): Promise<Subscription> {
    await statements.update(subscriptionToRow(sub))
    cache.set(sub.id, sub)
    return sub
  }

  return {
    create: (input, now, workspaceId) =>
      change(async () => {
        if (!isSchemeId(input.scheme)) throw new SenderError('invalid_subscription', `scheme: unknown signature scheme ${JSON.stringify(input.scheme)}`)
        const id = input.id ?? randomUUID()
        if (cache.has(id) || (await statements.get(id))) throw new SenderError('conflict', `a subscription ${JSON.stringify(id)} exists already`)
        const secrets = input.secrets ?? [freshSecret(input.scheme)]
        const sub: Subscription = {
          id,
          name: input.name ?? id,
          target: validateTarget(input.target),
          scheme: input.scheme,
          secret: secrets[0],
          retiredSecrets: secrets.slice(1),
          policy: policyOf(input.policy),
          headers: { ...(input.headers ?? {}) },
          eventIdHeader: input.eventIdHeader ?? null,
          envelope: input.envelope === undefined ? 'event' : envelopeOf(input.envelope),
          provider: input.provider === undefined ? null : providerOf(input.provider),
          apiVersion: null,
          paused: input.paused ?? false,
          createdAt: now,
          updatedAt: now,
        }
        sub.apiVersion = apiVersionOf(sub.provider, input.apiVersion)
        await statements.insert(subscriptionToRow(sub), workspaceId)
        cache.set(id, sub)
        return sub
      }),
    update: (id, patch, now) =>
      change(async () => {
        const was = await current(id)
        if (patch.scheme !== undefined && !isSchemeId(patch.scheme)) throw new SenderError('invalid_subscription', `scheme: unknown signature scheme ${JSON.stringify(patch.scheme)}`)
        const next: Subscription = {
          ...was,
          name: patch.name ?? was.name,
          target: patch.target ? validateTarget(patch.target) : was.target,
          scheme: patch.scheme ?? was.scheme,
          secret: patch.secrets ? patch.secrets[0] : was.secret,
          retiredSecrets: patch.secrets ? patch.secrets.slice(1) : was.retiredSecrets,
          policy: patch.policy !== undefined ? policyOf(patch.policy) : was.policy,
          headers: patch.headers ?? was.headers,
          eventIdHeader: patch.eventIdHeader ?? was.eventIdHeader,
          envelope: patch.envelope === undefined ? was.envelope : envelopeOf(patch.envelope),
          provider: patch.provider === undefined ? was.provider : providerOf(patch.provider),
          paused: patch.paused ?? was.paused,
          updatedAt: now,
        }
        // Another provider's version means nothing here: a new provider starts at its own default.
        const keptVersion = patch.provider === undefined || patch.provider === was.provider ? was.apiVersion : undefined
        next.apiVersion = apiVersionOf(next.provider, patch.apiVersion === undefined ? keptVersion : patch.apiVersion)
        return save(next)
      }),
    get: load,
    require: requireSub,
    list: () => [...cache.values()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    setPaused: (id, paused, now) => change(async () => save({ ...(await current(id)), paused, updatedAt: now })),
    rotate: (id, now) =>
      change(async () => {
        const was = await current(id)
        const retired = was.secret === undefined ? was.retiredSecrets : [was.secret, ...was.retiredSecrets]
        return save({ ...was, secret: freshSecret(was.scheme), retiredSecrets: retired.slice(0, RETIRED_KEPT), updatedAt: now })
      }),
    // Parsed once here, secrets opened once; a row that does not parse is set aside (the others
    // still send) and `hookloop doctor` names it.
    reload: () =>
      change(async () => {
        const rows = await statements.list()
        cache = new Map(withoutBadRows(rows, subscriptionFromRow).map((sub) => [sub.id, sub]))
      }),
  }
}
