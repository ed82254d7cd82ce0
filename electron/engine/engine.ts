// One engine for every front door (Electron window, browser mode, CLI): the store, one clock,
// the receiver, the sender with its durable scheduler, and — when asked — the public tunnel,
// composed into a single object. Its events are the receiver's, the sender's and the tunnel's,
// merged into one typed stream in the order they happen.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import type { Clock } from '../../shared/clock'
import { endpointPath, type Endpoint, type EndpointInput } from '../../shared/receiver'
import type { ReceiverEvent } from '../../shared/receiver'
import type { AttemptView, DeliveryView } from '../../shared/sender'
import type { TunnelNotice, TunnelState } from '../../shared/tunnel'
import type { PruneResult, SimulationView } from '../../shared/contract'
import { createClock, createRealClock, isVirtualClock, type ClockSpec } from './clock'
import { createApiRoute, createEventFeed, type EventFeed } from './feed'
import type { ContractSchemas } from './payload-schemas'
import { createReceiver, type Receiver } from './receiver'
import { createRetention, type Retention } from './retention'
import { createSender, newClaimOwner, type PublishInput, type Sender } from './sender'
import type { SubscriptionInput } from './sender'
import type { OpenedStore, Subscription } from './store'
import { sign } from './signatures'
import { DATA_FILE_NAME, openDatabase, createDeliveryStatements, createSimulationStatements, createSimulationOwners, createSqliteEngine, secretBoxOf, StoreError, type SimulationRow } from './store'
import { createTunnelManager, type TunnelManager, type TunnelManagerOptions, tunnelLookup } from './tunnel'
import { Agent } from 'undici'

export interface EngineOptions {
  /** The SQLite file; or give dataDir and the file is `<dataDir>/hookloop.db`. */
  dataFile?: string
  dataDir?: string
  /**
   * A team's store on PostgreSQL, opened (and later closed) by the caller: no data file is opened,
   * every part runs on it, and close() leaves it open (the host rebuilds its engine on the same
   * store when the clock is switched).
   */
  store?: OpenedStore
  /** A clock description (default real), or a clock built by the caller. */
  clock?: ClockSpec | Clock
  receiver?: { host?: string; port?: number; requestDeadlineMs?: number }
  /** Open a public tunnel to the receiver (started at once). Absent: no tunnel. */
  tunnel?: Omit<TunnelManagerOptions, 'localPort' | 'accept'>
  /** better-sqlite3's addon for another ABI (Electron). */
  nativeBinding?: string
  /** Attempts in flight at once (default: the sender's). */
  concurrency?: number
  /** The key that seals signing secrets at rest (the app's, kept with the OS keychain); default a key file beside the database. */
  secretKey?: Buffer
  /** Real traffic's clock (default the real one): tests pass their own. */
  wallClock?: Clock
  /**
   * On a virtual or scaled clock this engine is a simulation, recorded in the store so its rows say
   * which clock they are on (docs/time.md); this names it ("Try the loop", "scenario checkout").
   * Default label: "sender session (<mode> clock)". Ignored on the real clock.
   */
  simulation?: { label?: string }
  /**
   * The app rebuilds its engine on a clock switch: the new one continues the wall clock's
   * deliveries on its own clock (docs/time.md). Off for every other engine: a simulation then never
   * sends another process's wall-clock deliveries.
   */
  continuesWallClock?: boolean
  /**
   * Prune the store's history on retention's timer (default true). False for a scenario run: on a
   * team's store the history is the team's, kept by its own servers' retention.
   */
  scheduledRetention?: boolean
  /**
   * Take over what dead processes left on the store (the sender's crash recovery; default true).
   * False for a scenario run on a team's store: it changes no row but its own.
   */
  takesOverOthers?: boolean
  /** Reads the specs of endpoints made from a contract, for their requests' schema verdicts (contracts' createContractSchemas). */
  contractSchemas?: ContractSchemas
}

/** Everything that happens in the engine, one stream: receiver, sender and tunnel events. */
export type EngineEvent =
  | ReceiverEvent
  | { type: 'delivery.created' | 'delivery.updated'; delivery: DeliveryView }
  | { type: 'attempt.started' | 'attempt.finished'; attempt: AttemptView }
  | { type: 'tunnel.state'; state: TunnelState }
  | { type: 'tunnel.notice'; notice: TunnelNotice }
  | { type: 'history.pruned'; result: PruneResult }
export type EngineEventType = EngineEvent['type']
export type EngineListener = (event: EngineEvent) => void

/** What sendEvent takes: the sender's publish() input. */
export type SendEventInput = PublishInput

export interface Engine {
  /**
   * The data folder's connection. On a team's PostgreSQL there is none: reading it throws a
   * StoreError saying that the part asking needs a data folder (scenarios, the recorder and
   * conformance still read one synchronously).
   */
  readonly db: Database
  /** The store every part reads and writes through, awaited: its SqlEngine and the box that seals its secrets. */
  readonly store: OpenedStore
  readonly clock: Clock
  /** The wall clock real traffic is recorded on. */
  readonly wallClock: Clock
  /** The simulation this engine's clock runs; null on the real clock. */
  readonly simulation: SimulationView | null
  readonly receiver: Receiver
  readonly sender: Sender
  readonly tunnel: TunnelManager | null
  /** Keeps the captured history within the data folder's retention; Clear history. */
  readonly retention: Retention
  /** The events this engine emitted, as GET /api/v1/events serves them on the receiver's port. */
  readonly feed: EventFeed
  /** The file the store lives in; on a team's PostgreSQL, where it is (postgres://user@host:port/db, never the password). */
  readonly dataFile: string
  /**
   * Where a subscription that targets one of our endpoints delivers right now: through the
   * tunnel's public URL while it is up, else straight to the receiver on loopback.
   */
  endpointUrl(slug: string): string
  /** Adds a listener to the merged event stream; returns its removal. */
  on(listener: EngineListener): () => void
  /**
   * Creates the endpoint, or replaces the one with the same slug; its rules (full rules or
   * presets, as `hookloop listen` takes them) are replaced too. Throws DefinitionError.
   */
  putEndpoint(definition: EndpointInput & { rules?: readonly unknown[] }): Promise<Endpoint>
  putSubscription(input: SubscriptionInput): Promise<Subscription>
  /** Publishes one event to its subscriptions; one delivery each (plus `duplicate` copies). */
  sendEvent(input: SendEventInput): Promise<{ eventId: string; deliveryIds: number[]; deliveries: DeliveryView[] }>
  /**
   * Final (succeeded or failed) with no attempt in flight. On a team's PostgreSQL, as this engine's
   * sender last told it (the deliveries it published or sent; false for one it never saw).
   */
  isDeliverySettled(deliveryId: number): boolean
  /** Commits every queued capture and the schema verdicts of those answered, so the store shows everything seen so far. */
  quiesce(): Promise<void>
  /** Stops the tunnel, the sender (recording attempts in flight) and the receiver, then the store. */
  close(): Promise<void>
}

function resolveDataFile(options: EngineOptions): string {
  if (options.dataFile !== undefined) return options.dataFile
  if (options.dataDir !== undefined) return join(options.dataDir, DATA_FILE_NAME)
  throw new TypeError('createEngine needs dataFile or dataDir')
}

function isClock(value: ClockSpec | Clock): value is Clock {
  return typeof (value as Clock).now === 'function'
}

/**
 * The simulation a virtual or scaled clock runs, starting now, as this engine's (its deliveries
 * are due on this engine's clock only: store/deliveries.ts); null on the real clock.
 */
function simulationOf(clock: Clock, wallClock: Clock, spec: ClockSpec | Clock, label: string | undefined): SimulationView | null {
  if (clock.mode === 'real') return null
  const mode = clock.mode
  const given = isClock(spec) ? (spec as unknown as { factor?: unknown }).factor : spec.mode === 'scaled' ? spec.factor : undefined
  return {
    id: randomUUID(),
    mode,
    scale: mode === 'scaled' && typeof given === 'number' ? given : 1,
    startedAt: clock.now(),
    startedWallAt: wallClock.now(),
    label: label ?? `sender session (${mode} clock)`,
  }
}

const simulationRow = (view: SimulationView): SimulationRow => ({ id: view.id, mode: view.mode as SimulationRow['mode'], scale: view.scale, started_at: view.startedAt, started_wall_at: view.startedWallAt, label: view.label })

/** The team's store an engine was given, checked: a data folder is given as dataFile or dataDir. */
function teamStore(options: EngineOptions): OpenedStore | null {
  if (!options.store) return null
  if (options.store.engine.kind !== 'postgres') throw new TypeError('createEngine takes a data folder as dataFile or dataDir; `store` is a team\'s PostgreSQL')
  return options.store
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const team = teamStore(options)
  const dataFile = team ? team.engine.where : resolveDataFile(options)
  // A data folder's file is this engine's to open and close; a team's store is the caller's.
  const db = team
    ? null
    : openDatabase({
        file: dataFile,
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
        ...(options.secretKey === undefined ? {} : { secretKey: options.secretKey }),
      })
  const closeOwn = () => db?.close()
  const clockOption = options.clock ?? { mode: 'real' }
  const ownClock = !isClock(clockOption)
  const clock = isClock(clockOption) ? clockOption : createClock(clockOption)
  const wallClock = options.wallClock ?? createRealClock()
  // The engine's own connection as a SqlEngine, one for every part that awaits the store
  // (definitions, subscriptions, retention): their transactions take turns on it. Capture and the
  // sender write on the connection synchronously, in turns of the event loop; a transaction here
  // awaits only its own statements (microtasks), so it opens and commits within one turn and
  // nothing else writes inside it. On a team's store, the pool every part shares.
  const store = team ? team.engine : createSqliteEngine(db as Database, { closeDatabase: false })
  const secrets = team ? team.secrets : secretBoxOf(db as Database)
  const simulation = simulationOf(clock, wallClock, clockOption, options.simulation?.label)
  try {
    if (simulation && db) createSimulationStatements(db).start(simulationRow(simulation), newClaimOwner())
    else if (simulation) await createSimulationOwners(store).start(simulationRow(simulation), newClaimOwner())
  } catch (error) {
    closeOwn()
    throw error
  }
  const listeners = new Set<EngineListener>()
  const emit = (event: EngineEvent) => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch (error) {
        // A listener's bug must not stop capture or delivery; surface it without unwinding them.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  let tunnel: TunnelManager | null = null
  let receiver: Receiver
  const feed = createEventFeed(store)
  try {
    receiver = await createReceiver({
      ...(db ? { db } : { secrets }),
      store,
      clock,
      wallClock,
      ...(options.receiver?.host === undefined ? {} : { host: options.receiver.host }),
      ...(options.receiver?.port === undefined ? {} : { port: options.receiver.port }),
      ...(options.receiver?.requestDeadlineMs === undefined ? {} : { requestDeadlineMs: options.receiver.requestDeadlineMs }),
      publicUrl: () => tunnel?.publicUrl(),
      onEvent: emit,
      api: createApiRoute(feed),
      // Commits run on a thread of their own beside the HTTP server: capture keeps its pace
      // under a flood (see docs/BENCHMARKS.md, receiver). The thread loads the same addon.
      captureThread: options.nativeBinding === undefined ? true : { nativeBinding: options.nativeBinding },
      ...(options.contractSchemas ? { contractSchemas: options.contractSchemas } : {}),
    })
  } catch (error) {
    closeOwn()
    throw error
  }

  const endpointUrl = (slug: string): string => {
    const publicUrl = tunnel?.publicUrl()
    return publicUrl ? `${publicUrl.replace(/\/+$/, '')}${endpointPath(slug)}` : receiver.endpointUrl(slug)
  }

  // Bad tunnel options throw here, before anything else starts.
  try {
    // The receiver is in this process: tunnel sockets are handed straight to its HTTP server.
    if (options.tunnel) tunnel = createTunnelManager({ ...options.tunnel, localPort: receiver.port, accept: receiver.accept })
  } catch (error) {
    await receiver.close()
    closeOwn()
    throw error
  }

  // The sender's HTTP client resolves names under .localhost to loopback (RFC 6761), as the
  // tunnel does: a self-hosted tunnel server hands out URLs like http://abcd.localhost:3000, and
  // loop mode through it must reach them (a tunnel given its own DNS lends it to the sender too,
  // so loop deliveries resolve the public URL the way the tunnel does). Timeouts are the clock's
  // business, not undici's.
  const concurrency = options.concurrency ?? 64
  const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 10_000, connections: concurrency, connect: { lookup: options.tunnel?.lookup ?? tunnelLookup } })
  const sender = createSender({
    ...(db ? { db } : { secrets }),
    // The connection's one SqlEngine: the sender's transactions take turns with the other parts'.
    store,
    clock,
    wallNow: () => wallClock.now(),
    simulationId: simulation?.id ?? null,
    continuesWallClock: options.continuesWallClock ?? false,
    takesOverOthers: options.takesOverOthers ?? true,
    // A delivery to one of our endpoints that forwards to an app leaves Hookloop: signed at wall time.
    endpointForwards: (slug) => receiver.endpointForwards(slug),
    sign,
    dispatcher,
    concurrency,
    resolveEndpointUrl: (slug) => {
      // An unknown slug would be a 404 recorded as unmatched; say what is wrong instead.
      if (!receiver.endpoints.list().some((e) => e.slug === slug)) throw new Error(`no endpoint answers at ${endpointPath(slug)}`)
      return endpointUrl(slug)
    },
  })
  const isDeliverySettled = db ? ((deliveries) => (id: number) => deliveries.isSettled(id))(createDeliveryStatements(db)) : settledAsTold(sender)
  sender.on('delivery.created', (delivery) => emit({ type: 'delivery.created', delivery }))
  sender.on('delivery.updated', (delivery) => emit({ type: 'delivery.updated', delivery }))
  sender.on('attempt.started', (attempt) => emit({ type: 'attempt.started', attempt }))
  sender.on('attempt.finished', (attempt) => emit({ type: 'attempt.finished', attempt }))
  // Resumes whatever a previous run of this data folder left pending (a crash included).
  await sender.start()

  if (tunnel) {
    tunnel.on('state', (state) => emit({ type: 'tunnel.state', state }))
    tunnel.on('notice', (notice) => emit({ type: 'tunnel.notice', notice }))
    tunnel.start()
  }

  // The schedule runs on real time whatever the engine's clock (a housekeeping timer must not be
  // what a virtual clock jumps to, nor keep a process alive); ages are measured on the wall clock,
  // the one real captures and every delivery's created_wall_at are stamped on (docs/time.md).
  const retention = createRetention({
    engine: store,
    clock: wallClock,
    timers: createRealClock({ unref: true }),
    scheduled: options.scheduledRetention ?? true,
    // On a team's store the captures queued when a clear begins commit after it (awaited commits
    // cannot be waited for here): they arrived after the clear, and stay.
    capture: db ? receiver.requests : { flush: () => undefined, forgetDeleted: receiver.requests.forgetDeleted },
    onPruned: (result) => emit({ type: 'history.pruned', result }),
    onError: (error) => process.stderr.write(`hookloop: retention: ${error instanceof Error ? error.message : String(error)}\n`),
  })

  let closed: Promise<void> | null = null

  return {
    get db(): Database {
      if (db) return db
      throw new StoreError('needs_data_folder', `this part of Hookloop needs a data folder: it reads a SQLite file synchronously, and this engine runs on the team's PostgreSQL at ${store.where}`)
    },
    store: { engine: store, secrets },
    clock,
    wallClock,
    simulation,
    receiver,
    sender,
    retention,
    get tunnel() {
      return tunnel
    },
    feed,
    dataFile,
    endpointUrl,
    on(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async putEndpoint(definition) {
      const { rules = [], ...fields } = definition
      const existing = receiver.endpoints.list().find((e) => e.slug === fields.slug)
      const endpoint = existing ? await receiver.endpoints.update(existing.id, fields) : await receiver.endpoints.create(fields)
      if (existing) for (const rule of receiver.rules.list(existing.id)) await receiver.rules.delete(rule.id)
      for (const rule of rules) await receiver.rules.add(endpoint.id, rule)
      return endpoint
    },
    putSubscription: (input) => sender.createSubscription(input),
    async sendEvent(input) {
      const result = await sender.publish(input)
      return { ...result, deliveryIds: result.deliveries.map((d) => d.id) }
    },
    isDeliverySettled,
    async quiesce() {
      if (db) receiver.requests.flush()
      else await receiver.requests.committed()
      // The schema verdicts of what was answered so far, judged and committed too.
      await receiver.schemaVerdicts.idle()
    },
    close() {
      closed ??= (async () => {
        await retention.stop()
        await tunnel?.stop()
        await sender.stop()
        await dispatcher.close()
        await receiver.close()
        // The simulation ends with its engine: what it left continues on the wall clock.
        if (simulation && db) createSimulationStatements(db).end(simulation.id)
        else if (simulation) await createSimulationOwners(store).end(simulation.id)
        if (ownClock && isVirtualClock(clock)) clock.dispose()
        listeners.clear()
        // A team's store stays open: its caller closes it (the host's next engine runs on it).
        closeOwn()
      })()
      return closed
    },
  }
}

/**
 * Whether a delivery settled, from what this engine's sender told of it (delivery.created and
 * .updated carry its status and whether an attempt is in flight): no read of the store, which on a
 * team's PostgreSQL cannot answer synchronously. Kept for the most recent deliveries.
 */
function settledAsTold(sender: Sender, keep = 100_000): (deliveryId: number) => boolean {
  const settled = new Map<number, boolean>()
  const told = (delivery: DeliveryView) => {
    settled.delete(delivery.id)
    settled.set(delivery.id, (delivery.status === 'succeeded' || delivery.status === 'failed') && !delivery.inFlight)
    if (settled.size > keep) settled.delete(settled.keys().next().value as number)
  }
  sender.on('delivery.created', told)
  sender.on('delivery.updated', told)
  return (deliveryId) => settled.get(deliveryId) ?? false
}
