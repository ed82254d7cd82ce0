// createReceiver: the HTTP server, its endpoints and rules (definitions.ts), the capture writer
// and the event stream, wired together.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Database } from 'better-sqlite3'
import type { Clock } from '../../../shared/clock'
import { DefinitionError, DEFAULT_BODY_LIMIT, endpointPath } from '../../../shared/receiver'
import type { ReceiverEvent, ReceiverEventListener, RequestRecord, ForwardLeg } from '../../../shared/receiver'
import {
  createAttemptLinkStore, createBreakpointStore, createHeldRequestStore, createReceiverPresence, createSqliteEngine, secretBoxOf, type SqlEngine, createForwardLegStore, encodeLeg, createRequestStore,
  type RequestListQuery, createIdSource, type IdSource, createIdClaims, type SecretBox, createSequenceIdSource, type SequenceIdSource, createKeyGroupReads, createAttemptLinkReads, attemptLinkKey,
  createBreakpointStoreOn, createHeldRequestSharingOn, createReceiverPresenceOn, readRequestRow, StoreError, type RequestRow,
} from '../store'
import { linkChecksOut, parseAttemptLink } from '../sender'
import type { ContractSchemas } from '../payload-schemas'
import { createForwarder, type Forwarder } from './forward'
import { refuseLoops } from './forward-targets'
import { createCopyBudget } from './forward-steps'
import { resendRequest, type ResendOptions } from './resend'
import { createCaptureWriter } from './capture-writer'
import { createDedupeTracker } from './dedupe'
import { createDefinitions, type ReceiverDefinitions } from './definitions'
import { createBodyBudget } from './body-budget'
import { createBreakpoints, type Breakpoints } from './breakpoints'
import { createRequestHandler, type LiveEndpoint } from './handle-request'
import type { InspectLimits } from './json-fields'
import { toRequestRecord } from './records'
import { createRuleEngine } from './rule-engine'
import { createSchemaVerdicts, type SchemaVerdicts } from './schema-verdicts'
import { createReceiverServer, type SocketTap } from './server'

export interface ReceiverOptions {
  /**
   * A data folder's connection: capture, ids, links and the rest run on it synchronously (the
   * desktop default). Without it the receiver runs on `store`, a team's PostgreSQL, and needs `secrets`.
   */
  db?: Database
  /**
   * The store its endpoints and rules are read and written through, awaited; default one over
   * `db` (the engine passes the one its other parts share, so their transactions take turns).
   * Without `db`, every part reads and writes through it (captures, ids, links, breakpoints).
   */
  store?: SqlEngine
  /** Seals and opens the endpoints' secrets (OpenedStore.secrets); default the data folder's. */
  secrets?: SecretBox
  /** The engine's clock: requests our own attempts make (the loop) are recorded and judged on it. */
  clock: Clock
  /**
   * Real traffic's clock: its arrival time and signature tolerance (docs/time.md). Default `clock`:
   * a receiver alone has one clock; the engine, whose clock may be a simulation's, passes the wall.
   */
  wallClock?: Clock
  /** Default 127.0.0.1: the receiver is reached from outside only through the tunnel. */
  host?: string
  /** Default 0 (any free port). */
  port?: number
  /** The tunnel's public base URL, when one is up (URL-signed schemes verify against it). */
  publicUrl?: () => string | undefined
  onEvent?: ReceiverEventListener
  /** Longest time from a request's first byte to its last; default 30 s. */
  requestDeadlineMs?: number
  /** Memory for request bodies in flight, all requests together; past it new requests get 503 + Retry-After. Default 128 MiB. */
  bodyBudgetBytes?: number
  /** Forward copies sent in the background at once (default 256); past it a copy makes its sender wait. */
  maxBackgroundCopies?: number
  /** Caps on reading a body's JSON fields (bytes examined, depth); past them the request is marked "not inspected". */
  inspectLimits?: InspectLimits
  /** Ids for new endpoints and rules (tests pass a counter). */
  newId?: () => string
  /**
   * Commit captures on a thread of their own (a second connection to the same file) so SQLite
   * work does not hold up the HTTP server. Needs a file database; pass the nativeBinding given to
   * openDatabase where better-sqlite3 needs another ABI (Electron). Default: on the event loop.
   * A team's PostgreSQL commits without blocking the loop and ignores it.
   */
  captureThread?: boolean | { nativeBinding?: string }
  /**
   * Default true. False: a receiver nobody closed does not hold a finished process open (a test's
   * receiver: the process ends and says what was left open, instead of hanging).
   */
  keepProcessAlive?: boolean
  /**
   * Non-webhook routes served beside the endpoints (the engine's /api/v1/ feed): asked first for
   * every request; true = answered there, not captured. Kept out of capture on purpose.
   */
  api?: (req: IncomingMessage, res: ServerResponse) => boolean
  /**
   * Default true: each request answered at an endpoint that verifies a provider's scheme is held
   * against that provider's published schema afterwards (schema-verdicts.ts). False: none is.
   */
  schemaVerdicts?: boolean
  /**
   * Where the schema judge's thread script is; default the one built beside the running bundle.
   * False: judged on the event loop (schema-verdicts.ts).
   */
  schemaJudgeThread?: string | false
  /**
   * Reads the specs of endpoints made from a contract (contracts' createContractSchemas): their
   * requests' verdicts are held against the spec, before any provider's schema.
   */
  contractSchemas?: ContractSchemas
}

export interface Receiver {
  readonly port: number
  /** Local base URL, e.g. http://127.0.0.1:4567 */
  readonly url: string
  /** Local URL of an endpoint (its public one is publicUrl() + endpointPath(slug)). */
  endpointUrl(slug: string): string
  /** Whether the endpoint at this slug sends what it receives on to an app (forward targets or a forward rule); false for no such endpoint. */
  endpointForwards(slug: string): boolean
  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: ReceiverEventListener): () => void
  /** Another process changed endpoints or rules in the store: route and answer by what it holds now. */
  reloadDefinitions(): Promise<void>
  endpoints: ReceiverDefinitions['endpoints']
  rules: ReceiverDefinitions['rules']
  /** Forward mode: the legs each captured request was sent on (forward, forward-copy, resend); a data folder's, read synchronously. */
  forwards: {
    list(requestId: number): ForwardLeg[]
    listMany(requestIds: readonly number[]): Map<number, ForwardLeg[]>
  }
  /** The forwarder (background copies, resends). */
  readonly forwarder: Forwarder
  /** Resend a captured request to a target (as it was, re-signed, or edited with its signature broken); the leg is stored. */
  resend(requestId: number, options: ResendOptions): Promise<ForwardLeg>
  /** Where requests stop before they are answered, and the requests held now (breakpoints.ts, docs/breakpoints.md). */
  breakpoints: Pick<Breakpoints, 'list' | 'put' | 'remove' | 'reload' | 'held' | 'decide'>
  /** Synchronous reads of a data folder; on a team's PostgreSQL they throw a StoreError (read through the store, SqlEngine). */
  requests: {
    list(query?: RequestListQuery): RequestRecord[]
    get(id: number): RequestRecord | undefined
    count(): number
    /** Commit every queued capture now (a data folder; a team's store: await committed()). */
    flush(): void
    /** Resolves once every capture queued so far is committed, on either engine. */
    committed(): Promise<void>
    /**
     * Requests of these endpoints were deleted (retention, Clear history): their dedupe numbering
     * is read back from the store, so no new arrival points at a deleted first arrival.
     */
    forgetDeleted(endpointIds: readonly string[]): void
  }
  /** The schema verdicts judged after the answers (schema-verdicts.ts). */
  schemaVerdicts: Pick<SchemaVerdicts, 'idle' | 'pending'>
  openConnections(): number
  /**
   * Serves a connection made in this process (a tunnel socket) as if accepted on the port: no
   * relay hop, the same limits, refusals and records; the tap may answer its own requests.
   */
  accept(socket: Socket, tap: SocketTap): void
  /** Bytes of request bodies held right now, and the budget for them. */
  bodyBudget(): { inUse: number; limit: number }
  /**
   * The receiver's own refusals (413, 503 …) since it started, by how their connection ended: read,
   * the client had the whole answer (it closed, or nothing of its request was left unread); cut, a
   * lingering close hit its bound of bytes or time while the client was still sending.
   */
  refusals(): { read: number; cut: number }
  /** The port is open and taking connections (false once a drain or close began). */
  listening(): boolean
  /**
   * A graceful stop's first half: stops taking connections and waits, at most `graceMs` (wall
   * time), for the requests already in flight to be answered and recorded. close() comes next.
   */
  drain(graceMs: number): Promise<void>
  /** Stops listening, ends every connection (aborting holds and delays), commits what is queued. */
  close(): Promise<void>
}

export async function createReceiver(options: ReceiverOptions): Promise<Receiver> {
  const { db, clock } = options
  const wallClock = options.wallClock ?? clock
  const host = options.host ?? '127.0.0.1'
  const newId = options.newId ?? (() => randomUUID())
  // A team's PostgreSQL: every part below reads and writes through `team` (awaited), none through a Database.
  const team = db ? null : teamStore(options)
  const store = team ?? options.store ?? createSqliteEngine(db as Database, { closeDatabase: false })
  const secrets = options.secrets ?? secretBoxOf(db as Database)
  const requestStore = db ? createRequestStore(db) : null
  const listeners = new Set<ReceiverEventListener>()
  if (options.onEvent) listeners.add(options.onEvent)
  const emit = (event: ReceiverEvent) => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // A listener's bug must not stop capture; listeners report their own errors.
      }
    }
  }

  const onStoreError = (error: Error, pending: number) => emit({ type: 'store.error', message: error.message, pending })
  // On a team's store, ids are blocks of the tables' identity sequences (store/sequence-ids.ts):
  // no two processes ever number two rows alike.
  const teamIds = team ? await Promise.all([createSequenceIdSource(team, 'requests'), createSequenceIdSource(team, 'forward_legs')]) : null
  const writer = team ? createCaptureWriter({ engine: team, onError: onStoreError }) : createCaptureWriter({ db, thread: options.captureThread, onError: onStoreError })
  // Claimed from the store, not counted from MAX(id): another process may capture into the same file.
  const requestIds: IdSource = teamIds ? teamIds[0] : createIdSource(createIdClaims(db as Database, 'requests'))
  const nextRequestId = teamIds ? nextOf(teamIds[0]) : () => requestIds.next()
  // Once another process is seen capturing here, a key this one never saw may be in the store.
  // On a team's store every keyed arrival asks the server (another process may have answered the
  // key), the arrivals of one turn in one statement.
  const dedupe = requestStore
    ? createDedupeTracker(requestStore, requestStore.maxId(), () => requestIds.sharing())
    : createDedupeTracker({ keyGroup: () => undefined, hasKeyedRows: () => true }, 0, () => true, createKeyGroupReads(store))
  const engine = createRuleEngine()
  let baseUrl = ''
  let port: number
  const publicUrl = (): string | undefined => {
    try {
      return options.publicUrl?.()
    } catch {
      return undefined // a failing getter must not fail a request: verify against the local URL
    }
  }
  const self = () => ({ host, port, publicUrl: publicUrl() })
  const definitions = await createDefinitions({ store, secrets, clock, newId, dedupe, engine, self })

  // A request joins an attempt's row only when its link was made under this data folder's key by
  // that very attempt (sender/attempt-link.ts); any other value is a header like the rest.
  // An attempt has one request of its own, its first: a later one carrying the same link (a copy
  // sent again, a redirect followed) is received traffic. Links made here but not yet committed
  // are remembered, the store answers for the rest (requests_by_attempt).
  const linkedHere = new Set<number>()
  const linkedAttempt = db ? linksOnFolder(db, linkedHere) : linksOnTeam(store, await attemptLinkKey(store), linkedHere)

  const inFlight = new Set<Promise<void>>()
  const budget = createBodyBudget(options.bodyBudgetBytes)
  const legStore = db ? createForwardLegStore(db) : null
  const legIds: IdSource = teamIds ? teamIds[1] : createIdSource(createIdClaims(db as Database, 'forward_legs'))
  // Legs go through the capture writer: committed in order after the request they carry, in the
  // same group commit (on its thread when there is one), never a statement on the event loop.
  const recordLeg = (leg: Omit<ForwardLeg, 'id'>, bodyCaptured: boolean): number => {
    const id = legIds.next()
    writer.leg(encodeLeg({ ...leg, id }, bodyCaptured))
    return id
  }
  const forwarder = createForwarder({ clock, wallClock, record: recordLeg, defaultBodyLimit: DEFAULT_BODY_LIMIT, onLeg: (leg) => {
      // Told once the leg is committed (it goes through the writer, maybe on its thread): a reader
      // woken by the event must find it.
      const tell = () => emit({ type: 'request.forwarded', leg })
      writer.committed().then(tell, tell)
    },
  })
  const verdicts = createSchemaVerdicts({ ...(db ? { db } : { store }), writer, now: () => wallClock.now(), emit, enabled: options.schemaVerdicts ?? true, judgeThread: options.schemaJudgeThread, ...(options.contractSchemas ? { contracts: options.contractSchemas } : {}) })
  const endpointForwards = ({ endpoint, workspace }: LiveEndpoint): boolean => (endpoint.forwardTo?.length ?? 0) > 0 || engine.forwards(endpoint.id, workspace)
  const refusalEnds = { read: 0, cut: 0 }
  const breakpoints = db
    ? createBreakpoints({ store: createBreakpointStore(db), shared: createHeldRequestStore(db), wallClock, emit })
    : createBreakpoints({ store: createBreakpointStoreOn(store), shared: createHeldRequestSharingOn(store), wallClock, emit })
  if (!db) await breakpoints.reload()
  const handler = createRequestHandler({
    breakpoints,
    clock,
    wallClock,
    refusalEnded: (end) => void refusalEnds[end]++,
    forwards: endpointForwards,
    writer,
    dedupe,
    rules: engine,
    budget,
    forwarder,
    copies: createCopyBudget(budget, options.maxBackgroundCopies),
    ...(options.inspectLimits ? { limits: options.inspectLimits } : {}),
    route: definitions.route,
    linkedAttempt,
    nextId: nextRequestId,
    ...(team?.reach ? { storeLost: team.reach.lost } : {}),
    answered: (requestId, endpoint) => verdicts.add(requestId, endpoint),
    baseUrl: () => (publicUrl() || baseUrl).replace(/\/+$/, ''),
    emit,
  })
  const track = (work: Promise<void>) => {
    const done = work.catch((error: unknown) => emit({ type: 'store.error', message: `request handling failed: ${error instanceof Error ? error.message : String(error)}`, pending: writer.pending() }))
    inFlight.add(done)
    void done.finally(() => inFlight.delete(done))
  }
  const server = createReceiverServer({
    requestDeadlineMs: options.requestDeadlineMs ?? 30_000,
    now: () => clock.now(),
    wallNow: () => wallClock.now(),
    hooks: {
      onRequest: (req, res, connection) => {
        if (options.api?.(req, res)) {
          connection.received() // answered without reading a body: no slow-request deadline
          return
        }
        track(handler.onRequest(req, res, connection))
      },
      onExpectContinue: (req, res, connection) => track(handler.onExpectContinue(req, res, connection)),
      onExpectation: (req, res, connection) => track(handler.onExpectation(req, res, connection)),
      onConnect: (req, socket, connection) => track(handler.onConnect(req, socket, connection)),
      onRefused: (remoteAddress, reason, status) => emit({ type: 'connection.refused', remoteAddress, reason, status }),
    },
  })
  try {
    port = await server.listen(host, options.port ?? 0)
    if (options.keepProcessAlive === false) server.unref()
  } catch (error) {
    writer.close() // stops the capture thread, if any: nothing else was started
    throw error
  }
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  // Said in the data folder, for `hookloop mcp` (which runs no receiver): a wildcard host is
  // reached on loopback from this machine.
  const presence = db ? createReceiverPresence(db) : createReceiverPresenceOn(store)
  const reachable = host === '0.0.0.0' || host === '::' ? `http://127.0.0.1:${port}` : baseUrl
  await presence.announce(reachable, wallClock.now())
  const folderOnly = (what: string) => (): never => {
    throw new StoreError('needs_data_folder', `receiver.${what} reads a data folder synchronously; on the team's PostgreSQL at ${store.where} read it through the store (SqlEngine)`)
  }
  const folder = requestStore && legStore ? { requests: requestStore, legs: legStore } : null

  return {
    port,
    url: baseUrl,
    endpointUrl: (slug) => `${baseUrl}${endpointPath(slug)}`,
    endpointForwards: (slug) => {
      const live = definitions.live(slug)
      return live !== undefined && endpointForwards(live)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    reloadDefinitions: async () => {
      breakpoints.reload()
      await definitions.reload()
    },
    endpoints: definitions.endpoints,
    breakpoints,
    rules: definitions.rules,
    requests: folder
      ? {
          list(query) {
            writer.flushNow()
            return folder.requests.list(query).map(toRequestRecord)
          },
          get(id) {
            writer.flushNow()
            const row = folder.requests.get(id)
            return row && toRequestRecord(row)
          },
          count() {
            writer.flushNow()
            return folder.requests.count()
          },
          flush: () => writer.flushNow(),
          committed: () => writer.committed(),
          forgetDeleted: (endpointIds) => {
            for (const id of endpointIds) dedupe.forget(id)
          },
        }
      : {
          list: folderOnly('requests.list'),
          get: folderOnly('requests.get'),
          count: folderOnly('requests.count'),
          flush: folderOnly('requests.flush'),
          committed: () => writer.committed(),
          forgetDeleted: (endpointIds) => {
            for (const id of endpointIds) dedupe.forget(id)
          },
        },
    forwards: folder
      ? {
          list(requestId) {
            writer.flushNow()
            return folder.legs.listFor(requestId)
          },
          listMany(requestIds) {
            writer.flushNow()
            return folder.legs.listForMany(requestIds)
          },
        }
      : { list: folderOnly('forwards.list'), listMany: folderOnly('forwards.listMany') },
    forwarder,
    async resend(requestId, options) {
      let row: RequestRow | undefined
      if (folder) {
        writer.flushNow()
        row = folder.requests.get(requestId)
      } else {
        await writer.committed()
        row = await readRequestRow(store, requestId)
      }
      if (!row) throw new DefinitionError('requestId', `no captured request with id ${requestId}`)
      const request = toRequestRecord(row)
      refuseLoops([{ path: 'to', url: options.to }], self())
      const leg = await resendRequest(forwarder, request, request.endpointId ? (definitions.endpoints.get(request.endpointId) ?? null) : null, options)
      await writer.committed() // the caller reads the request's legs next
      return leg
    },
    schemaVerdicts: {
      idle: () => verdicts.idle(),
      pending: () => verdicts.pending(),
    },
    openConnections: () => server.openConnections(),
    accept: (socket, tap) => server.accept(socket, tap),
    bodyBudget: () => ({ inUse: budget.inUse(), limit: budget.limit }),
    refusals: () => ({ ...refusalEnds }),
    listening: () => server.listening(),
    async drain(graceMs) {
      server.stopAccepting()
      let timer: NodeJS.Timeout | undefined
      const graceOver = new Promise<void>((done) => (timer = setTimeout(done, graceMs)))
      await Promise.race([Promise.all([...inFlight]), graceOver])
      clearTimeout(timer)
      // A failed commit is the store's to report (store.error); the drain goes on to close.
      await writer.committed().catch(() => {})
      server.endIdle()
    },
    async close() {
      await server.close()
      try {
        await presence.withdraw()
      } catch {
        // A store closed first: the row names a pid that will not run, so readers skip it.
      }
      // Every hold, delay and drip was aborted with its connection: let them record their outcome.
      await Promise.all([...inFlight])
      // Verdicts still queued are dropped: those requests keep none (shown as not judged, never as wrong).
      verdicts.close()
      // Background copies end with the receiver (recorded as aborted when cut short).
      await forwarder.close()
      // A team's store commits what is left awaited: close() can only start a commit there.
      if (!db) {
        // Until nothing is queued nor being committed (a batch may start as the last one settles).
        for (let turns = 0; writer.pending() > 0 && turns < 100; turns++) await writer.committed().catch(() => new Promise((resolve) => setTimeout(resolve, 10)))
      }
      writer.close()
      releaseIds([requestIds, legIds])
    },
  }
}

/** Unused claimed ids go back to the store so the next process runs on from here; a store that refuses just leaves a gap. */
function releaseIds(sources: readonly IdSource[]): void {
  for (const source of sources) {
    try {
      source.release()
    } catch {
      // A gap in the numbering is harmless.
    }
  }
}

/** The team's store a receiver without a data folder runs on: a SqlEngine on PostgreSQL, with its secrets. */
function teamStore(options: ReceiverOptions): SqlEngine {
  if (!options.store || options.store.kind !== 'postgres') throw new TypeError('createReceiver needs a data folder (db) or a team\'s PostgreSQL (store)')
  if (!options.secrets) throw new TypeError(`the receiver on the store at ${options.store.where} needs its data key: pass \`secrets\` (OpenedStore.secrets)`)
  return options.store
}

/** The next id at once while the block lasts; else once the next block is in (a burst waits for it, never gets a guessed id). */
function nextOf(ids: SequenceIdSource): () => number | Promise<number> {
  const later = async (): Promise<number> => {
    for (;;) {
      await ids.ready()
      if (ids.inHand() > 0) return ids.next()
    }
  }
  return () => (ids.inHand() > 0 ? ids.next() : later())
}

/** An attempt of this data folder whose link checks out, asked of its own connection at once. */
function linksOnFolder(db: Database, linkedHere: Set<number>): (value: string | string[] | undefined, body: Buffer) => number | null {
  const links = createAttemptLinkStore(db)
  const linkKey = links.key()
  return (value, body) => {
    const link = parseAttemptLink(value)
    if (!link) return null
    const attempt = links.attempt(link.attemptId)
    if (!attempt) return null
    if (!linkChecksOut(linkKey, link, { id: attempt.id, deliveryId: attempt.delivery_id, eventId: attempt.event_id }, body)) return null
    if (linkedHere.has(attempt.id) || links.claimed(attempt.id)) return null
    if (linkedHere.size >= 4096) linkedHere.clear() // older links are committed by now: the store knows them
    linkedHere.add(attempt.id)
    return attempt.id
  }
}

/**
 * The same on a team's PostgreSQL: the server is asked (awaited) only for a request that carries a
 * link; the attempt may be another process's, whose sender shares the store's link key.
 */
function linksOnTeam(store: SqlEngine, linkKey: Buffer, linkedHere: Set<number>): (value: string | string[] | undefined, body: Buffer) => null | Promise<number | null> {
  const links = createAttemptLinkReads(store)
  const check = async (link: { attemptId: number; mac: Buffer }, body: Buffer): Promise<number | null> => {
    const attempt = await links.attempt(link.attemptId)
    if (!attempt) return null
    if (!linkChecksOut(linkKey, link, { id: attempt.id, deliveryId: attempt.delivery_id, eventId: attempt.event_id }, body)) return null
    if (linkedHere.has(attempt.id)) return null
    // Taken before the server is asked: a copy arriving meanwhile is received traffic.
    if (linkedHere.size >= 4096) linkedHere.clear()
    linkedHere.add(attempt.id)
    return (await links.claimed(attempt.id)) ? null : attempt.id
  }
  return (value, body) => {
    const link = parseAttemptLink(value)
    return link ? check(link, body) : null
  }
}
