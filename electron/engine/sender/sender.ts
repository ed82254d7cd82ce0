import { createSecretKey, type KeyObject } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import { Agent, type Dispatcher } from 'undici'
import type { Clock } from '../../../shared/clock'
import type { AttemptView, DeliveryView, SenderEventMap, DeliveryStatus } from '../../../shared/sender'
import { createRealClock } from '../clock'
import { createScheduler } from '../scheduler'
import { createAttemptStore, createDeliveryStore, createEventStore, createSubscriptionStatements, createSubscriptionRowReads, createSqliteEngine, secretBoxOf, type SecretBox, type SqlEngine, type Subscription, type SqlWriter, type WriteOp, scheduledOnClock, createAttemptWriter, createAttemptIds, attemptLinkKey, growSenderCache } from '../store'
import { type SendFaultInput } from '../../../shared/sender'
import { ATTEMPT_PATH_SQL, createAttemptRunner, type ResolveEndpointUrl } from './attempt-runner'
import { cacheDeliveries } from './delivery-cache'
import { batchClaims } from './claim-batch'
import { cacheEvents } from './event-cache'
import { SenderEmitter, type SenderListener } from './emitter'
import type { SignFn } from './request-headers'
import { createSubscriptionBook, type SubscriptionInput, type SubscriptionPatch } from './subscriptions'
import { createPump } from './pump'
import { createCrashRecovery } from './crash-recovery'
import { newClaimOwner } from './claim-owner'
import { createPublishing } from './publishing'
import { createSubscriptionCommands } from './subscription-commands'
import { createDeliveryReads } from './delivery-reads'

// The sending half of Hookloop: subscriptions, events, deliveries and their attempts over the
// store, driven by the durable scheduler on the injected clock. Built here from its parts (the
// pump, publishing, crash recovery, subscription commands, reads: a file each) behind `Sender`.

export interface SenderOptions {
  /** A data folder's Database: the store is made over it when `store` is not given; its secrets unlock the subscriptions'. */
  db?: Database
  /**
   * The store everything is read and written through, awaited: a data folder's or a team's
   * PostgreSQL (SqlEngine). Default one over `db`; the engine passes the one its other parts
   * share over the same connection, so their transactions take turns.
   */
  store?: SqlEngine
  /** Seals and opens the subscriptions' signing secrets (OpenedStore.secrets); default the one of `db`. */
  secrets?: SecretBox
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
   * A team's PostgreSQL commits without blocking the loop and ignores it.
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
  /**
   * How long after an attempt's timeout its claim lasts (wall ms) before another process on the
   * store may take the delivery over, as from a dead process (default CLAIM_MARGIN_MS).
   */
  claimMarginMs?: number
  /** The simulation this sender's clock runs (a virtual or scaled clock); null or absent on the wall clock. */
  simulationId?: string | null
  /**
   * Also send the wall clock's deliveries on this sender's clock: an engine rebuilt on a new clock
   * in the same app (a clock switch) continues what the engine before it left. Default: only its own clock's.
   */
  continuesWallClock?: boolean
  /** Loop mode: whether one of our endpoints sends what it receives on to an app (docs/time.md). */
  endpointForwards?: (slug: string) => boolean
  /**
   * Take over what dead processes left on the store (crash recovery: at start, then every so
   * often). Default true; false for a scenario run on a team's store, which changes no row but its
   * own: the team's servers recover the team's.
   */
  takesOverOthers?: boolean
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

/** What the engine, the host, scenarios and `hookloop/testing` use of a sender. */
export interface Sender {
  /** Recovers what a crash left in flight, then starts delivering everything pending. */
  /** Reads the subscriptions, recovers what a previous run left, and starts sending. */
  start(): Promise<{ recovered: number }>
  /** Stops starting attempts and waits for the ones in flight to be recorded. */
  stop(): Promise<void>
  /** Resolves when nothing is in flight and nothing is scheduled (paused deliveries wait). */
  settled(): Promise<void>
  on<K extends keyof SenderEventMap>(type: K, listener: SenderListener<K>): () => void
  /** In `workspaceId` (a served Hookloop with accounts: the caller's; default `default`). */
  createSubscription(input: SubscriptionInput, workspaceId?: string): Promise<Subscription>
  updateSubscription(id: string, patch: SubscriptionPatch): Promise<Subscription>
  /** From memory: the store's subscriptions are read by start() and reloadSubscriptions(), and kept by the commands above. */
  getSubscription(id: string): Subscription | undefined
  listSubscriptions(): Subscription[]
  /** Another process changed subscriptions in the store: use what it holds now. */
  reloadSubscriptions(): Promise<void>
  /** New deliveries wait; deliveries already going on continue. */
  pause(id: string): Promise<Subscription>
  /** Waiting deliveries are scheduled now. */
  resume(id: string): Promise<Subscription>
  /** The old secret is invalid at once; returns the new one. */
  rotateSecret(id: string): Promise<string>
  publish(input: PublishInput): Promise<PublishResult>
  /** One more attempt now, also after `failed`; refused while an attempt is in flight. */
  retryNow(deliveryId: number): Promise<DeliveryView>
  /**
   * A provider panel's "Resend": the same event (same id, same body) as a new delivery to the
   * subscription, with attempts and retries of its own; no sending-side faults.
   */
  resend(eventId: string, subscriptionId: string): Promise<DeliveryView>
  /** The body as the delivery's subscription sends it (its current envelope), and the payload's own bytes. */
  viewPayload(deliveryId: number): Promise<{ eventId: string; eventType: string; body: Buffer; payload: Buffer }>
  listDeliveries(query: { subscriptionId: string; status?: DeliveryStatus; limit?: number }): Promise<DeliveryView[]>
  getDelivery(deliveryId: number): Promise<{ delivery: DeliveryView; attempts: AttemptView[] }>
  deliveriesOfEvent(eventId: string): Promise<DeliveryView[]>
  /** In flight right now (for status displays). */
  inFlight(): number
}

/**
 * A claim outlives its attempt's timeout by this much (wall ms): time to record the outcome. A
 * process that dies mid-attempt has its deliveries taken over by another this long after the
 * attempt's timeout ran out.
 */
export const CLAIM_MARGIN_MS = 30_000

// The sender's parts over one store and clock, wired together; each part of `Sender` takes them.
function senderParts(options: SenderOptions) {
  const { db, clock } = options
  if (!options.store && !db) throw new Error('a sender needs a store: pass `store` (a SqlEngine) or a data folder\'s `db`')
  const store = options.store ?? createSqliteEngine(db as Database, { closeDatabase: false })
  const secrets = options.secrets ?? (db ? secretBoxOf(db) : undefined)
  if (!secrets) throw new Error(`the sender on the store at ${store.where} needs its data key: pass \`secrets\` (OpenedStore.secrets)`)
  const concurrency = options.concurrency ?? 64
  // Every attempt reads its delivery and event and writes two rows; with SQLite's default 2 MiB
  // page cache a store of a few thousand deliveries already misses on most of those pages (the
  // benchmark runs 3x slower). 64 MiB keeps the working set of a large run in memory.
  const CACHE_MIB = 64
  growSenderCache(store, CACHE_MIB)
  /** The store's events, read past the cache (a conflict check, a resend, a payload view). */
  const storedEvents = createEventStore(store)
  const events = cacheEvents(storedEvents)
  // Claims asked in one event-loop turn are made in one statement (claim-batch.ts).
  const deliveries = cacheDeliveries(batchClaims(createDeliveryStore(store), store))
  const attempts = createAttemptStore(store)
  // A subscription another process made after this one read them: on a data folder its row is
  // read synchronously where the attempt path needs it; on a team store the next reload brings it.
  const subscriptions = createSubscriptionBook(createSubscriptionStatements(store, secrets), db ? createSubscriptionRowReads(db).get : undefined)
  const emitter = new SenderEmitter()
  // Timeouts are the clock's business: undici's own (real-time) ones are switched off.
  const dispatcher = options.dispatcher ?? new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000, connections: concurrency })
  // The attempt path's writer, opened on first use and closed by stop() (a thread ends there).
  let openWriter: SqlWriter | null = null
  const currentWriter = (): SqlWriter =>
    (openWriter ??= createAttemptWriter(store, ATTEMPT_PATH_SQL, { cacheMib: CACHE_MIB, ...(options.writerThread ? { thread: options.writerThread } : {}) }))
  const writer = {
    write: (ops: readonly WriteOp[]) => currentWriter().write(ops),
    close: () => {
      const open = openWriter
      openWriter = null
      open?.close()
    },
  }
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

  // The schedule holds the deliveries of this sender's clock only (store/deliveries.ts, `due`).
  const scheduler = createScheduler({
    clock,
    deliveries: scheduledOnClock(deliveries, simulationId, options.continuesWallClock ?? false),
    onDue: () => pump.pump(),
    ...(options.horizonMs === undefined ? {} : { horizonMs: options.horizonMs }),
    ...(options.batch === undefined ? {} : { batch: options.batch }),
  })

  const attemptIds = createAttemptIds(store)
  // Imported once as a KeyObject: every attempt's link is an HMAC under it (attempt-link.ts).
  let linkKey: Promise<KeyObject> | undefined
  const claimMarginMs = options.claimMarginMs ?? CLAIM_MARGIN_MS
  const claimCheckMs = Math.max(100, Math.min(claimMarginMs, CLAIM_MARGIN_MS))
  const runner = createAttemptRunner({
    ...(store.reach ? { storeReach: store.reach } : {}),
    claimOwner: newClaimOwner(),
    claimMarginMs,
    writer,
    clock,
    events,
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
    linkKey: () => (linkKey ??= attemptLinkKey(store).then((key) => createSecretKey(key))),
    wallNow,
    resolveEndpointUrl: options.resolveEndpointUrl,
    dispatcher,
    maxResponseBytes: options.maxResponseBytes ?? 65_536,
    eventType: events.eventType,
  })
  // While a team's store is out of reach no delivery is claimed or sent (store/postgres-engine.ts).
  const pump = createPump(scheduler, runner, concurrency, () => store.reach?.lost() ?? false)
  return { store, clock, wallNow, simulationId, claimCheckMs, storedEvents, events, deliveries, attempts, subscriptions, emitter, dispatcher, writer, scheduler, attemptIds, runner, pump }
}

export type SenderParts = ReturnType<typeof senderParts>

export function createSender(options: SenderOptions): Sender {
  const parts = senderParts(options)
  const { clock, emitter, dispatcher, writer, attemptIds, pump } = parts
  const recovery = createCrashRecovery(parts)
  const recoversOthers = options.takesOverOthers ?? true
  // Another process on the store may die holding claims: look for expired ones now and then. On
  // real time, not the sender's clock: leases (lease_until, wallNow) and a process's death are wall
  // matters, and a virtual clock that jumps must not decide when a living process's claim runs out.
  // What is taken over is scheduled on the sender's clock (clock.now()).
  let takeOverTimer: NodeJS.Timeout | undefined
  let starting: Promise<{ recovered: number }> | undefined
  // One look at a time: a slow store never has two takeovers of the same claims racing.
  let looking = false
  let offReach: () => void = () => {}
  const takeOver = async () => {
    // A team's store out of reach: nothing to take over until it is back (asked again then).
    if (looking || parts.store.reach?.lost()) return
    looking = true
    try {
      const now = clock.now()
      const taken = await recovery.takeOver(now)
      for (const id of [...taken.interrupted, ...taken.released]) parts.scheduler.schedule(id, now)
    } catch (error) {
      // A busy store: the next look finds them.
      if (!(error instanceof Error && /busy|locked|serializ|deadlock/i.test(error.message))) console.error('hookloop sender: taking over abandoned claims failed:', error)
    } finally {
      looking = false
    }
  }
  return {
    start() {
      // A second call while started recovers nothing more.
      if (starting) return starting.then(() => ({ recovered: 0 }))
      starting = (async () => {
        // Crash recovery and every attempt read the subscriptions from memory: read them first.
        await parts.subscriptions.reload()
        const recovered = recoversOthers ? await recovery.atStart(clock.now()) : []
        pump.start()
        // A team's store back after an outage: the deliveries that fell due meanwhile, or whose
        // claim failed with it, are read again from the store and sent.
        offReach =
          parts.store.reach?.subscribe((lost) => {
            if (lost) return
            parts.scheduler.reread()
            pump.pump()
            if (recoversOthers) void takeOver()
          }) ?? (() => {})
        if (recoversOthers) {
          takeOverTimer = setInterval(() => void takeOver(), parts.claimCheckMs)
          takeOverTimer.unref()
        }
        return { recovered: recovered.length }
      })()
      return starting
    },
    async stop() {
      await starting?.catch(() => undefined)
      starting = undefined
      clearInterval(takeOverTimer)
      offReach()
      await pump.stop()
      writer.close()
      try {
        attemptIds.release()
      } catch {
        // A busy store keeps the unused ids: a gap in the numbering, nothing else.
      }
      if (options.dispatcher === undefined) await dispatcher.close()
    },
    settled: pump.settled,
    on: (type, listener) => emitter.on(type, listener),
    ...createSubscriptionCommands(parts),
    ...createPublishing(parts),
    ...createDeliveryReads(parts),
    inFlight: pump.inFlight,
  }
}
