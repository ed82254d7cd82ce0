import { randomUUID } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { Agent, type Dispatcher } from 'undici'
import type { Clock } from '../../../shared/clock'
import type { AttemptView, DeliveryView, SenderEventMap } from '../../../shared/sender'
import type { DeliveryStatus } from '../../../shared/sender'
import { sendFaultSchema, type SendFault, type SendFaultInput } from '../../../shared/sender'
import { createRealClock } from '../clock/real-clock'
import { PROVIDERS } from '../../../shared/providers'
import { providerBody } from '../providers/envelopes'
import { createScheduler } from '../scheduler/scheduler'
import { growPageCache, pageCachePragma, transactional } from '../store'
import { createAttemptStatements } from '../store/attempts'
import { createDeliveryStatements, insertedDelivery, type DeliveryRow, type NewDelivery } from '../store/deliveries'
import { createEventStatements } from '../store/events'
import { createSubscriptionStatements } from '../store/subscriptions'
import { createInlineWriter, type SqlWriter, type WriteOp } from '../store/sql-writer'
import { createSqlWriterThread } from '../store/sql-writer-thread'
import { createAttemptLinkStore } from '../store/attempt-links'
import { createIdClaims } from '../store/id-claims'
import { createIdSource } from '../store/id-source'
import { ATTEMPT_PATH_SQL, createAttemptRunner, type ResolveEndpointUrl } from './attempt-runner'
import { cacheDeliveries } from './delivery-cache'
import { SenderEmitter, type SenderListener } from './emitter'
import type { SignFn } from './request-headers'
import { SenderError } from './sender-error'
import { createSubscriptionBook, type SubscriptionInput, type SubscriptionPatch } from './subscriptions'
import type { Subscription } from '../store/subscriptions'
import type { StoredEvent } from '../store/events'
import { attemptView, deliveryView, type DeliveryFaults } from './views'
import { payloadBytes, sentBody } from './envelope'
import { EVENT_ID_RULE, isEventId } from '../../../shared/sender'

// The sending half of Hookloop: subscriptions, events, deliveries and their attempts over the
// store, driven by the durable scheduler on the injected clock.

export interface SenderOptions {
  db: Database
  clock: Clock
  /** sign() from electron/engine/signatures. */
  sign: SignFn
  /** Loop mode: the URL of one of our endpoints now (tunnel URL when up, loopback otherwise). */
  resolveEndpointUrl?: ResolveEndpointUrl
  /** Attempts in flight at once (default 64). */
  concurrency?: number
  /** Response body bytes kept per attempt (default 64 KiB). */
  maxResponseBytes?: number
  /** HTTP client; default: an undici Agent owned (and closed) by the sender. */
  dispatcher?: Dispatcher
  /** Scheduler tuning (clock ms ahead mirrored in memory; rows per refill). */
  horizonMs?: number
  batch?: number
  /**
   * Commit the attempt path's writes on a worker thread with its own connection to the same file,
   * so SQLite work does not hold up the sender's event loop. Needs a file database; pass the
   * nativeBinding given to openDatabase (Electron). Default: inline, on the caller's connection.
   */
  writerThread?: boolean | { nativeBinding?: string }
  /**
   * Which time a signature's timestamp (and a provider's send time, e.g. Linear's
   * webhookTimestamp) is taken from. 'auto' (default): the wall clock for a delivery that leaves
   * Hookloop — a URL target, or one of our endpoints that forwards to an app (`endpointForwards`)
   * — so a retry scheduled hours ahead in simulated time still carries a timestamp a real
   * consumer's tolerance check accepts; the clock's for one of our endpoints that keeps it (the
   * loop, where the receiver verifies on the same clock). Scheduling stays on the clock.
   */
  signingTime?: SigningTime
  /** Wall time, ms (default: the real clock): signing time of deliveries that leave Hookloop, and every row's wall stamp. */
  wallNow?: () => number
  /** The simulation this sender's clock runs (a virtual or scaled clock); null or absent on the wall clock. */
  simulationId?: string | null
  /** Loop mode: whether one of our endpoints sends what it receives on to an app (docs/time.md). */
  endpointForwards?: (slug: string) => boolean
}

export type SigningTime = 'auto' | 'clock' | 'wall'

export interface PublishInput {
  /** A UUID v4 or a provider's own id (shared/sender/event-id.ts); a fresh UUID v4 when absent. */
  eventId?: string
  eventType: string
  payload: unknown
  /** Default: every subscription. */
  subscriptionIds?: string[]
  faults?: SendFaultInput[]
}

export interface PublishResult {
  eventId: string
  deliveries: DeliveryView[]
}

const EVENT_CACHE_SIZE = 20_000

export function createSender(options: SenderOptions) {
  const { db, clock } = options
  const concurrency = options.concurrency ?? 64
  // Every attempt reads its delivery and event and writes two rows; with SQLite's default 2 MiB
  // page cache a store of a few thousand deliveries already misses on most of those pages (the
  // benchmark runs 3x slower). 64 MiB keeps the working set of a large run in memory.
  const CACHE_MIB = 64
  growPageCache(db, CACHE_MIB)
  const events = createEventStatements(db)
  const deliveries = cacheDeliveries(createDeliveryStatements(db))
  const attempts = createAttemptStatements(db)
  const subscriptions = createSubscriptionBook(createSubscriptionStatements(db))
  const emitter = new SenderEmitter()
  const ownDispatcher = options.dispatcher === undefined
  // Timeouts are the clock's business: undici's own (real-time) ones are switched off.
  const dispatcher = options.dispatcher ?? new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000, connections: concurrency })
  // Event rows are immutable once published and every attempt needs one: keep recent ones.
  const eventCache = new Map<string, StoredEvent>()
  const cachedEvent = (id: string): StoredEvent | undefined => {
    const hit = eventCache.get(id)
    if (hit) return hit
    const row = events.get(id)
    if (row) rememberEvent(row)
    return row
  }
  const rememberEvent = (row: StoredEvent) => {
    if (eventCache.size >= EVENT_CACHE_SIZE) eventCache.delete(eventCache.keys().next().value as string)
    eventCache.set(row.id, row)
  }
  // The attempt path's writer, opened on first use and closed by stop() (a thread ends there).
  const threaded = options.writerThread && !db.memory ? options.writerThread : null
  const pragmas = [pageCachePragma(CACHE_MIB)]
  let openWriter: SqlWriter | null = null
  const currentWriter = (): SqlWriter =>
    (openWriter ??= threaded
      ? createSqlWriterThread({
          file: db.name,
          statements: ATTEMPT_PATH_SQL,
          pragmas,
          ...(typeof threaded === 'object' && threaded.nativeBinding ? { nativeBinding: threaded.nativeBinding } : {}),
        })
      : createInlineWriter(db, ATTEMPT_PATH_SQL))
  const writer = {
    write: (ops: readonly WriteOp[]) => currentWriter().write(ops),
    close: () => {
      const open = openWriter
      openWriter = null
      open?.close()
    },
  }
  let inFlight = 0
  let running = false
  let idleWaiters: Array<() => void> = []
  let drainWaiters: Array<() => void> = []

  const wallNow = options.wallNow ?? createRealClock().now
  const simulationId = options.simulationId ?? null
  const leavesHookloop = (sub: Subscription): boolean => {
    if ('url' in sub.target) return true
    try {
      return options.endpointForwards?.(sub.target.endpoint) ?? false
    } catch {
      return false // an endpoint that cannot be looked up is reported by the attempt itself
    }
  }
  const eventType = (eventId: string): string => cachedEvent(eventId)?.eventType ?? ''

  const scheduler = createScheduler({
    clock,
    deliveries,
    onDue: () => pump(),
    ...(options.horizonMs === undefined ? {} : { horizonMs: options.horizonMs }),
    ...(options.batch === undefined ? {} : { batch: options.batch }),
  })

  const attemptIds = createIdSource(createIdClaims(db, 'attempts'))
  const runner = createAttemptRunner({
    writer,
    clock,
    events: { get: cachedEvent },
    deliveries,
    attemptIds,
    subscriptions,
    scheduler,
    emitter,
    sign: options.sign,
    signingTime: (sub, clockNow) => {
      const mode = options.signingTime ?? 'auto'
      const wall = mode === 'wall' || (mode === 'auto' && clock.mode !== 'real' && leavesHookloop(sub))
      return wall ? wallNow() : clockNow
    },
    linkKey: createAttemptLinkStore(db).key(),
    wallNow,
    resolveEndpointUrl: options.resolveEndpointUrl,
    dispatcher,
    maxResponseBytes: options.maxResponseBytes ?? 65_536,
    eventType,
  })

  // `inFlight` counts attempts not yet recorded; `requests` counts HTTP exchanges, which is what
  // the concurrency limit is about.
  let requests = 0
  function pump(): void {
    if (!running) return
    while (requests < concurrency) {
      const due = scheduler.takeDue(concurrency - requests)
      if (due.length === 0) break
      for (const entry of due) {
        inFlight++
        requests++
        let slotHeld = true
        const freeSlot = () => {
          if (!slotHeld) return
          slotHeld = false
          requests--
          pump()
        }
        runner
          .run(entry, freeSlot)
          .catch((error: unknown) => {
            // A bug, not a delivery outcome: say so loudly, keep the other deliveries going.
            console.error(`hookloop sender: attempt for delivery ${entry.id} failed to run:`, error)
          })
          .finally(() => {
            inFlight--
            if (inFlight === 0 && drainWaiters.length > 0) {
              const waiters = drainWaiters
              drainWaiters = []
              for (const resolve of waiters) resolve()
            }
            freeSlot()
            pump()
            checkIdle()
          })
      }
    }
    checkIdle()
  }

  function checkIdle(): void {
    if (idleWaiters.length === 0 || inFlight > 0 || scheduler.nextDueAt() !== undefined) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  function requireDelivery(id: number) {
    const row = deliveries.get(id)
    if (!row) throw new SenderError('not_found', `no delivery ${id}`)
    return row
  }

  // Returns the rows as inserted (insertedDelivery), for the views and the delivery cache: nothing
  // is read back.
  const insertDeliveries = transactional(db, (event: StoredEvent, subs: Subscription[], faults: SendFault[]) => {
    events.insert(event)
    const now = event.createdAt
    const wallAt = clock.mode === 'real' ? now : wallNow()
    const created: DeliveryRow[] = []
    const insert = (row: NewDelivery): number => {
      const id = deliveries.insert(row)
      created.push(insertedDelivery(id, row))
      return id
    }
    const copyFaults = faults.filter((f) => f.type !== 'duplicate' && f.type !== 'drop' && f.type !== 'out-of-order')
    const outOfOrder = faults.find((f) => f.type === 'out-of-order')
    for (const sub of subs) {
      // Pause: deliveries created while paused wait (no schedule) until resume.
      const first = sub.paused ? null : now + (outOfOrder?.delay_ms ?? 0)
      const main = insert({ event_id: event.id, subscription_id: sub.id, next_attempt_at: first, faults_json: stringifyFaults({ faults }), created_at: now, simulation_id: simulationId, created_wall_at: wallAt })
      for (const fault of faults) {
        if (fault.type !== 'duplicate') continue
        const at = sub.paused || first === null ? null : fault.mode === 'parallel' ? first : fault.mode === 'delayed' ? first + fault.delay_ms : null
        const copy: DeliveryFaults = { faults: copyFaults, duplicate_of: main, ...(fault.mode === 'at-once' ? { after_first_attempt_of: main } : {}) }
        insert({ event_id: event.id, subscription_id: sub.id, next_attempt_at: at, faults_json: stringifyFaults(copy), created_at: now, simulation_id: simulationId, created_wall_at: wallAt })
      }
    }
    return created
  })

  function stringifyFaults(faults: DeliveryFaults): string | null {
    return faults.faults.length === 0 && faults.duplicate_of === undefined ? null : JSON.stringify(faults)
  }

  function resume(id: string): Subscription {
    const now = clock.now()
    const sub = subscriptions.setPaused(id, false, now)
    for (const deliveryId of deliveries.waitingForResume(id)) {
      deliveries.reschedule(deliveryId, 'pending', now, now)
      scheduler.schedule(deliveryId, now)
      runner.emitDelivery(deliveryId, 'delivery.updated')
    }
    return sub
  }

  /** After a crash: unfinished attempts become `interrupted` and their deliveries are retried now. */
  const recover = transactional(db, (now: number) => {
    const recovered: number[] = []
    for (const row of deliveries.inFlight()) {
      const open = attempts.unfinished(row.id)
      if (open) attempts.markInterrupted(open.id, now)
      deliveries.recoverInFlight(row.id, now)
      recovered.push(row.id)
    }
    // Deliveries that were waiting (an `at-once` copy whose original already went, or a paused
    // subscription that is not paused any more) are scheduled now rather than forgotten.
    for (const sub of subscriptions.list()) {
      if (sub.paused) continue
      for (const id of deliveries.waitingForResume(sub.id)) {
        const faults = deliveries.get(id)?.faults_json
        const waitsFor = faults ? (JSON.parse(faults) as DeliveryFaults).after_first_attempt_of : undefined
        if (waitsFor !== undefined && (deliveries.get(waitsFor)?.attempts ?? 0) === 0) continue
        deliveries.reschedule(id, 'pending', now, now)
      }
    }
    return recovered
  })

  return {
    /** Recovers what a crash left in flight, then starts delivering everything pending. */
    start(): { recovered: number } {
      if (running) return { recovered: 0 }
      const recovered = recover(clock.now())
      running = true
      scheduler.start()
      pump()
      return { recovered: recovered.length }
    },
    /** Stops starting attempts and waits for the ones in flight to be recorded. */
    async stop(): Promise<void> {
      running = false
      scheduler.stop()
      while (inFlight > 0) await new Promise<void>((resolve) => drainWaiters.push(resolve))
      writer.close()
      try {
        attemptIds.release()
      } catch {
        // A busy store keeps the unused ids: a gap in the numbering, nothing else.
      }
      if (ownDispatcher) await dispatcher.close()
    },
    /** Resolves when nothing is in flight and nothing is scheduled (paused deliveries wait). */
    settled(): Promise<void> {
      return new Promise((resolve) => {
        idleWaiters.push(resolve)
        checkIdle()
      })
    },
    on<K extends keyof SenderEventMap>(type: K, listener: SenderListener<K>): () => void {
      return emitter.on(type, listener)
    },

    createSubscription(input: SubscriptionInput): Subscription {
      return subscriptions.create(input, clock.now())
    },
    updateSubscription(id: string, patch: SubscriptionPatch): Subscription {
      const before = subscriptions.require(id)
      const after = subscriptions.update(id, patch, clock.now())
      if (before.paused && !after.paused) resume(id)
      return after
    },
    getSubscription: (id: string): Subscription | undefined => subscriptions.get(id),
    listSubscriptions: (): Subscription[] => subscriptions.list(),
    /** Another process changed subscriptions in the store: use what it holds now. */
    reloadSubscriptions: (): void => subscriptions.forget(),
    /** New deliveries wait; deliveries already going on continue. */
    pause(id: string): Subscription {
      return subscriptions.setPaused(id, true, clock.now())
    },
    /** Waiting deliveries are scheduled now. */
    resume,
    /** The old secret is invalid at once; returns the new one. */
    rotateSecret(id: string): string {
      return subscriptions.rotate(id, clock.now()).secret as string
    },

    publish(input: PublishInput): PublishResult {
      const eventId = input.eventId ?? randomUUID()
      if (!isEventId(eventId)) throw new SenderError('invalid_event', `eventId: ${EVENT_ID_RULE}; got ${JSON.stringify(eventId)}`)
      if (typeof input.eventType !== 'string' || input.eventType === '') throw new SenderError('invalid_event', 'eventType must be a non-empty string')
      if (events.get(eventId)) throw new SenderError('conflict', `event ${eventId} was published already (retry its deliveries instead)`)
      const faults = (input.faults ?? []).map((fault, i) => {
        const parsed = sendFaultSchema.safeParse(fault)
        if (!parsed.success) throw new SenderError('invalid_event', `faults[${i}]: ${parsed.error.issues[0]?.message ?? 'invalid fault'}`)
        return parsed.data
      })
      const subs = input.subscriptionIds ? input.subscriptionIds.map((id) => subscriptions.require(id)) : subscriptions.list()
      // The payload, serialised once: every attempt sends these bytes, wrapped or not by its
      // subscription's envelope (sentBody).
      const event: StoredEvent = { id: eventId, eventType: input.eventType, payload: payloadBytes(input.payload), createdAt: clock.now() }
      const created = insertDeliveries(event, subs, faults)
      rememberEvent(event)
      for (const row of created) deliveries.remember(row) // committed
      const views = created.map((row) => deliveryView(row, input.eventType))
      for (const view of views) emitter.emit('delivery.created', view)
      for (const { id, next_attempt_at: at } of created) if (at !== null) scheduler.schedule(id, at)
      return { eventId, deliveries: views }
    },

    /** One more attempt now, also after `failed`; refused while an attempt is in flight. */
    retryNow(deliveryId: number): DeliveryView {
      const row = requireDelivery(deliveryId)
      if (row.in_flight === 1 || runner.isRunning(deliveryId)) throw new SenderError('in_flight', `delivery ${deliveryId} has an attempt in flight`)
      const now = clock.now()
      const status: DeliveryStatus = row.attempts === 0 ? 'pending' : 'retrying'
      deliveries.reschedule(deliveryId, status, now, now)
      scheduler.schedule(deliveryId, now)
      runner.emitDelivery(deliveryId, 'delivery.updated')
      return deliveryView(requireDelivery(deliveryId), eventType(row.event_id))
    },
    /**
     * A provider panel's "Resend": the same event (same id, same body) as a new delivery to the
     * subscription, with attempts and retries of its own; no sending-side faults.
     */
    resend(eventId: string, subscriptionId: string): DeliveryView {
      const event = events.get(eventId)
      if (!event) throw new SenderError('not_found', `event ${eventId} is missing`)
      const sub = subscriptions.require(subscriptionId)
      const now = clock.now()
      const at = sub.paused ? null : now
      const row = { event_id: eventId, subscription_id: sub.id, next_attempt_at: at, faults_json: null, created_at: now, simulation_id: simulationId, created_wall_at: clock.mode === 'real' ? now : wallNow() }
      const inserted = insertedDelivery(deliveries.insert(row), row)
      deliveries.remember(inserted)
      const id = inserted.id
      const view = deliveryView(inserted, event.eventType)
      emitter.emit('delivery.created', view)
      if (at !== null) scheduler.schedule(id, at)
      return view
    },
    /** The body as the delivery's subscription sends it (its current envelope), and the payload's own bytes. */
    viewPayload(deliveryId: number): { eventId: string; eventType: string; body: Buffer; payload: Buffer } {
      const row = requireDelivery(deliveryId)
      const event = events.get(row.event_id)
      if (!event) throw new SenderError('not_found', `event ${row.event_id} is missing`)
      const sub = subscriptions.get(row.subscription_id)
      const pack = sub?.provider ? PROVIDERS[sub.provider] : null
      const body = pack
        ? providerBody(pack, { eventId: event.id, eventType: event.eventType, payload: event.payload, createdAt: event.createdAt, sentAt: event.createdAt, apiVersion: sub?.apiVersion ?? null })
        : sentBody(event, sub?.envelope ?? 'event')
      return { eventId: event.id, eventType: event.eventType, body, payload: event.payload }
    },
    listDeliveries(query: { subscriptionId: string; status?: DeliveryStatus; limit?: number }): DeliveryView[] {
      subscriptions.require(query.subscriptionId)
      const limit = Math.min(Math.max(query.limit ?? 100, 1), 10_000)
      return deliveries.list({ subscription_id: query.subscriptionId, limit, ...(query.status ? { status: query.status } : {}) }).map((row) => deliveryView(row, eventType(row.event_id)))
    },
    getDelivery(deliveryId: number): { delivery: DeliveryView; attempts: AttemptView[] } {
      const row = requireDelivery(deliveryId)
      return { delivery: deliveryView(row, eventType(row.event_id)), attempts: attempts.byDelivery(deliveryId).map((a) => attemptView(a, row.event_id)) }
    },
    deliveriesOfEvent(eventId: string): DeliveryView[] {
      return deliveries.byEvent(eventId).map((row) => deliveryView(row, eventType(eventId)))
    },
    /** In flight right now (for status displays). */
    inFlight: (): number => inFlight,
  }
}

export type Sender = ReturnType<typeof createSender>
