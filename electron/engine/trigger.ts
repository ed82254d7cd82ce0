import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Policy, PolicySpec, DeliveryStatus, AttemptView, SendFaultInput } from '../../shared/sender'
import { PROVIDERS, type ProviderId } from '../../shared/providers'
import { createClock, isVirtualClock, type ClockSpec } from './clock'
import { createSender, type SigningTime } from './sender'
import { sign } from './signatures'
import { DATA_FILE_NAME, openDatabase } from './store'
import { consumerEventId, type ConsumerEventId, catalogPayload, packSubscription } from './providers'
import type { Override } from '../../shared/event-catalog'

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
