// Delivering to the code under test as a provider would: a subscription to its URL (a provider's
// pack, or a scheme and a policy), events from the catalog or given payloads, send faults, on a
// virtual clock, so the provider's whole retry schedule (hours of backoff) runs in a moment. The
// store is a temp SQLite file, gone when the call returns.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DeliveryStatus, PolicySpec, AttemptView, DeliveryView, SendFaultInput } from '../../shared/sender'
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../shared/providers'
import { SCHEME_IDS, type SchemeId } from '../../shared/signatures'
import { createVirtualClock } from '../engine/clock'
import { catalogPayload, packSubscription } from '../engine/providers'
import { createSender } from '../engine/sender'
import { sign } from '../engine/signatures'
import { DATA_FILE_NAME, openDatabase } from '../engine/store'
import { track } from './open-resources'

/** A catalog event type ("push", "invoice.paid"), or an event with its own payload. */
export type DeliverEvent =
  | string
  | {
      type: string
      /** Default: the catalog's payload for the provider's event type. */
      payload?: unknown
      /** The event id (a UUID, or the provider's own: evt_…, a GitHub delivery GUID); default a fresh one. */
      id?: string
      /** Faults for this event's deliveries (see docs/sender.md): duplicate, corrupt-signature … */
      faults?: SendFaultInput[]
    }

export interface DeliverOptions {
  /** The URL of the code under test. */
  to: string
  /** Deliver as this provider does: its envelope, headers, signature scheme and retry policy. */
  provider?: ProviderId
  /** With a provider that versions its payloads (Stripe, Shopify, Square): one of its API versions; default its newest. */
  apiVersion?: string
  /** Without a provider: the signature scheme (with a provider: its own). */
  scheme?: SchemeId
  /** A policy preset id or a policy; default the provider's documented one. Required without a provider. */
  policy?: PolicySpec
  /** Signing secrets, the first signs; default a fresh one (returned as `secret`). */
  secrets?: string[]
  events: readonly DeliverEvent[]
  /** Faults for every event. */
  faults?: SendFaultInput[]
  headers?: Record<string, string>
  /** Virtual clock time at the start, ms since the epoch (default now): fixes signature timestamps. */
  startAt?: number
}

export interface DeliveredEvent {
  eventId: string
  eventType: string
  /** succeeded, failed (retries exhausted or a permanent answer) … */
  status: DeliveryStatus
  /** Every attempt, in order: its outcome (http_503, timeout, reset …), status code, time and the faults applied. */
  attempts: AttemptView[]
  delivery: DeliveryView
  /** The body the first attempt sent. */
  body: string
  /** Set on a copy the `duplicate` fault made: the delivery it copies. */
  duplicateOf: number | null
}

export interface DeliverResult {
  deliveries: DeliveredEvent[]
  /** The secret that signed; null for a provider that does not sign. */
  secret: string | null
  /** Virtual milliseconds from the first attempt to the last one's end. */
  clockMs: number
}

function subscriptionInput(options: DeliverOptions) {
  const target = { url: options.to }
  const headers = options.headers ? { headers: options.headers } : {}
  const secrets = options.secrets ? { secrets: options.secrets } : {}
  if (options.provider !== undefined) {
    if (!PROVIDER_IDS.includes(options.provider)) throw new TypeError(`deliver: unknown provider "${options.provider}" (known: ${PROVIDER_IDS.join(', ')})`)
    return packSubscription(options.provider, {
      target,
      ...secrets,
      ...headers,
      ...(options.policy === undefined ? {} : { policy: options.policy }),
      ...(options.apiVersion === undefined ? {} : { apiVersion: options.apiVersion }),
    })
  }
  if (options.apiVersion !== undefined) throw new TypeError('deliver: apiVersion is a provider\'s; name the provider too (provider: "stripe")')
  if (options.scheme === undefined || options.policy === undefined) {
    throw new TypeError('deliver: name a provider (provider: "github"), or give both scheme and policy (scheme: "standard-webhooks", policy: "standard-webhooks")')
  }
  if (!SCHEME_IDS.includes(options.scheme)) throw new TypeError(`deliver: unknown scheme "${options.scheme}" (known: ${SCHEME_IDS.join(', ')})`)
  return { target, scheme: options.scheme, policy: options.policy, ...secrets, ...headers }
}

export async function deliver(options: DeliverOptions): Promise<DeliverResult> {
  if (!options || typeof options.to !== 'string' || !/^https?:\/\/[^/]/.test(options.to)) {
    throw new TypeError(`deliver: "to" is the http(s) URL of the code under test (got ${JSON.stringify(options?.to)})`)
  }
  if (!Array.isArray(options.events) || options.events.length === 0) throw new TypeError('deliver: give at least one event in "events" ("push", or { type, payload })')
  const input = subscriptionInput(options)
  const dir = mkdtempSync(join(tmpdir(), 'hookloop-testing-'))
  const db = openDatabase({ file: join(dir, DATA_FILE_NAME) })
  const clock = createVirtualClock(options.startAt === undefined ? {} : { start: options.startAt })
  const sender = createSender({ db, clock, sign })
  const close = async () => {
    untrack()
    await sender.stop()
    clock.dispose()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
  const untrack = track({ description: `deliver() to ${options.to}`, close })
  try {
    await sender.start()
    const subscription = await sender.createSubscription(input)
    const ids: number[] = []
    for (const [i, given] of options.events.entries()) {
      const event = typeof given === 'string' ? { type: given } : given
      let payload = event.payload
      if (payload === undefined) {
        if (options.provider === undefined) throw new TypeError(`deliver: events[${i}] ("${event.type}") needs a payload: the catalog is per provider, and no provider is named`)
        payload = catalogPayload({ provider: options.provider, eventType: event.type, now: clock.now(), apiVersion: subscription.apiVersion ?? null })
      }
      const faults = [...(options.faults ?? []), ...(event.faults ?? [])]
      const published = await sender.publish({ eventType: event.type, payload, subscriptionIds: [subscription.id], ...(event.id ? { eventId: event.id } : {}), ...(faults.length ? { faults } : {}) })
      ids.push(...published.deliveries.map((d) => d.id))
    }
    await sender.settled()
    const deliveries = await Promise.all(ids.map(async (id) => {
      const { delivery, attempts } = await sender.getDelivery(id)
      return {
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        status: delivery.status,
        attempts,
        delivery,
        body: (await sender.viewPayload(id)).body.toString('utf8'),
        duplicateOf: delivery.duplicateOf,
      }
    }))
    const attempts = deliveries.flatMap((d) => d.attempts).sort((a, b) => a.startedAt - b.startedAt)
    const first = attempts[0]
    const last = attempts[attempts.length - 1]
    return {
      deliveries,
      secret: subscription.secret ?? null,
      clockMs: first && last ? last.startedAt + (last.durationMs ?? 0) - first.startedAt : 0,
    }
  } finally {
    await close()
  }
}

/** The providers deliver() can act as, and their labels. */
export function providers(): { id: ProviderId; label: string }[] {
  return PROVIDER_IDS.map((id) => ({ id, label: PROVIDERS[id].label }))
}
