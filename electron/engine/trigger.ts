import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPolicyPresetId, POLICY_PRESET_IDS, resolvePolicy, type Policy, type PolicySpec, type DeliveryStatus, type AttemptView, type SendFaultInput, type SendFaultType } from '../../shared/sender'
import type { TriggerAnswer } from '../../shared/contract'
import type { Endpoint } from '../../shared/receiver'
import { EVENT_CATALOG, parseOverride, OverrideError, type Override } from '../../shared/event-catalog'
import { PROVIDERS, type ProviderId } from '../../shared/providers'
import { createClock, isVirtualClock, type ClockSpec } from './clock'
import { createSender, type SigningTime } from './sender'
import { sign } from './signatures'
import { DATA_FILE_NAME, openDatabase } from './store'
import { CatalogError, consumerEventId, type ConsumerEventId, catalogPayload, packSubscription } from './providers'

// One delivery as a provider would make it (`hookloop trigger`): a pack subscription to the URL on
// a fresh store in a temp folder, one catalog event published, every attempt the provider's retry
// policy makes, on the chosen clock. The store goes when the delivery settles.

export interface TriggerInput {
  provider: ProviderId
  eventType: string
  url: string
  secrets?: string[]
  overrides?: readonly Override[]
  fixture?: unknown
  policy?: PolicySpec | Policy
  clock: ClockSpec
  faults?: SendFaultInput[]
  headers?: Record<string, string>
  signingTime?: SigningTime
  /** The provider's API version (one its pack lists); default: its first. */
  apiVersion?: string
  /** Each attempt as it is recorded (the CLI prints them live). */
  onAttempt?: (attempt: AttemptView) => void
}

export interface TriggerResult {
  event_id: string
  status: DeliveryStatus
  attempts: AttemptView[]
  /** Clock ms from the first attempt to the last one's end. */
  clock_ms: number
  wall_ms: number
  /** The body the first attempt sent (what the consumer got). */
  body: string
  /** The secret that signed (a fresh one when none was given and the provider signs). */
  secret: string | null
  /** The id the consumer knows the event by (Stripe's evt_…, X-GitHub-Delivery …), when the provider has one. */
  provider_event_id: ConsumerEventId | null
}

export async function trigger(input: TriggerInput): Promise<TriggerResult> {
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-trigger-'))
  const db = openDatabase({ file: join(dir, DATA_FILE_NAME) })
  const clock = createClock(input.clock)
  const sender = createSender({ db, clock, sign, ...(input.signingTime ? { signingTime: input.signingTime } : {}) })
  const wallStart = performance.now()
  try {
    await sender.start()
    const sub = await sender.createSubscription(
      packSubscription(input.provider, {
        target: { url: input.url },
        ...(input.secrets ? { secrets: input.secrets } : {}),
        ...(input.policy ? { policy: input.policy as PolicySpec } : {}),
        ...(input.headers ? { headers: input.headers } : {}),
        ...(input.apiVersion ? { apiVersion: input.apiVersion } : {}),
      }),
    )
    const payload = catalogPayload({ provider: input.provider, eventType: input.eventType, now: clock.now(), apiVersion: sub.apiVersion, ...(input.overrides ? { overrides: input.overrides } : {}), ...(input.fixture !== undefined ? { fixture: input.fixture } : {}) })
    const off = input.onAttempt ? sender.on('attempt.finished', input.onAttempt) : () => {}
    const published = await sender.publish({ eventType: input.eventType, payload, subscriptionIds: [sub.id], ...(input.faults ? { faults: input.faults } : {}) })
    await sender.settled()
    off()
    const deliveries = await Promise.all(published.deliveries.map((d) => sender.getDelivery(d.id)))
    const attempts = deliveries.flatMap((d) => d.attempts).sort((a, b) => a.startedAt - b.startedAt || a.id - b.id)
    const first = published.deliveries[0]
    const last = attempts[attempts.length - 1]
    const status = deliveries.every((d) => d.delivery.status === 'succeeded') ? 'succeeded' : (deliveries.find((d) => d.delivery.status !== 'succeeded')?.delivery.status ?? 'failed')
    const body = first ? (await sender.viewPayload(first.id)).body.toString('utf8') : ''
    return {
      event_id: published.eventId,
      provider_event_id: consumerEventId(PROVIDERS[input.provider], { eventId: published.eventId, eventType: input.eventType, createdAt: attempts[0]?.startedAt ?? 0, body }),
      status,
      attempts,
      clock_ms: attempts[0] && last ? last.startedAt + (last.durationMs ?? 0) - attempts[0].startedAt : 0,
      wall_ms: performance.now() - wallStart,
      body,
      secret: sub.secret ?? null,
    }
  } finally {
    await sender.stop()
    if (isVirtualClock(clock)) clock.dispose()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A catalog event to deliver as its provider would, as `hookloop mcp`'s trigger_event and the control server's `endpoint.trigger` take it. */
export interface CatalogTriggerInput {
  provider: ProviderId
  eventType: string
  /** Where to deliver: a URL given, or the endpoint's URL. */
  url: string
  /** The endpoint aimed at, with its signing secrets (its first signs unless `secret` is given). */
  endpoint?: Pick<Endpoint, 'slug' | 'secrets'> | undefined
  secret?: string | undefined
  /** Body overrides PATH=VALUE. */
  set?: readonly string[] | undefined
  /** A retry policy preset id (default: the provider's). */
  policy?: string | undefined
  /** Default: virtual, the whole schedule at once. */
  clock?: 'virtual' | 'real' | undefined
  faults?: readonly (SendFaultType | SendFaultInput)[] | undefined
}

/** An input the trigger refuses (an event not in the catalog, a policy not a preset, a bad override): the sentence says which. */
export class TriggerInputError extends Error {
  override name = 'TriggerInputError'
}

/** The event delivered, and every attempt, as an answer that carries no secret (one place for both ways in). */
export async function triggerCatalogEvent(input: CatalogTriggerInput): Promise<TriggerAnswer> {
  const { provider, eventType, url, endpoint } = input
  if (!EVENT_CATALOG[provider].some((e) => e.type === eventType)) {
    throw new TriggerInputError(`${PROVIDERS[provider].label} has no catalog event "${eventType}" (some it has: ${EVENT_CATALOG[provider].slice(0, 8).map((e) => e.type).join(', ')})`)
  }
  if (input.policy !== undefined && !isPolicyPresetId(input.policy)) throw new TriggerInputError(`policy "${input.policy}" is not a preset (${POLICY_PRESET_IDS.join(', ')})`)
  let overrides
  try {
    overrides = (input.set ?? []).map(parseOverride)
  } catch (error) {
    if (error instanceof OverrideError) throw new TriggerInputError(`set: ${error.message}`)
    throw error
  }
  const secrets = input.secret ? [input.secret] : endpoint?.secrets.length ? endpoint.secrets.slice(0, 1) : undefined
  let result
  try {
    result = await trigger({
      provider,
      eventType,
      url,
      ...(secrets ? { secrets } : {}),
      overrides,
      ...(input.policy ? { policy: resolvePolicy(input.policy) } : {}),
      clock: { mode: input.clock ?? 'virtual' },
      faults: (input.faults ?? []).map((f) => (typeof f === 'string' ? { type: f } : f) as SendFaultInput),
    })
  } catch (error) {
    if (error instanceof CatalogError || error instanceof OverrideError) throw new TriggerInputError(error.message)
    throw error
  }
  const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())
  return {
    ok: result.status === 'succeeded',
    provider,
    eventType,
    url,
    eventId: result.event_id,
    providerEventId: result.provider_event_id,
    status: result.status,
    clockMs: result.clock_ms,
    body: result.body,
    // A fresh secret is not given back: the receiver that checks it would need it, and answers carry none.
    signedWith: input.secret ? 'the secret given' : endpoint?.secrets.length ? `the endpoint ${endpoint.slug}'s first secret` : 'a fresh secret',
    attempts: result.attempts.map((a) => ({ ...a, startedAt: iso(a.startedAt), nextAttemptAt: iso(a.nextAttemptAt) })),
  }
}
