// An engine plus its front door: the store, receiver, sender (and tunnel) from createEngine, the
// views over the store, the timeline watch, and the control server for UIs. Switching the
// clock mode rebuilds the engine on the same data file and receiver port; UIs stay connected.
import type { Clock } from '../../../shared/clock'
import type { EventArgs, EventMessage, Snapshot } from '../../../shared/contract'
import { explainFault, explainRule, parseRule } from '../../../shared/receiver'
import { createEngine, type Engine, type EngineOptions } from '../engine'
import { createContractEvents, createContractSchemas, createSpecReader } from '../contracts'
import { watchTimeline, type TimelineWatch } from './timeline-watch'
import { watchDefinitions, type DefinitionsWatch } from './definitions-watch'
import { startControlServer, type CommandHandlers, type ControlServer } from './control-server'
import { badRowsNotice, createCountReadsOn, openStore, parseStoreLocation, readBadRows, storeChangeFeed, type OpenedStore, type StoreChangeFeed } from '../store'
import { createDetailViews } from './detail-views'
import { createHandlers } from './handlers'
import { createCheckHandlers } from './handlers-checks'
import { createExportHandlers } from './handlers-exports'
import { createScenarioHandlers } from './handlers-scenarios'
import { createTunnelHandlers } from './handlers-tunnel'
import { createForwardHandlers } from './handlers-forward'
import { breakpointList, createBreakpointHandlers } from './handlers-breakpoints'
import { createToolHandlers } from './tool-handlers'
import { endpointViews, ruleViews, simulationViews, toTunnelView, tunnelView, type EngineBinding } from './views'
import { createSubscriptionMetrics } from './subscription-metrics'
import { createLoopTry } from './loop-try'
import { createRecorder } from '../recorder'
import { createTimelineViews } from './timeline-views'
import { createScenarioRuns } from './scenario-runs'
import { recordingHandlers } from './recording-handlers'
import { createHistoryHandlers } from './history-handlers'
import { createStagedBodies } from './body-routes'
import { createHostMetrics } from './metrics'
import { createProbeRoutes } from './probe-routes'
import { createHealthReads, type HealthReads, type SqlEngine } from '../store'
import { createAccounts, createOidc, createTokens, type OidcSettings } from '../accounts'
import { createAccountGate } from './account-routes'
import { createMemberHandlers } from './member-handlers'
import { createWorkspaceScope } from './workspace-scope'
import { createTokenHandlers } from './token-handlers'
import { createListHandlers } from './list-handlers'
import { createAudit } from './audit-record'
import { contentSecurityPolicy, originAllowed } from './guard'
import { securityHeaders } from './static-files'

export interface HostOptions {
  /** The data folder the store is in; or `store`. */
  dataDir?: string
  /**
   * A team's PostgreSQL (a postgres:// URL), instead of a data folder: opened (and migrated) by
   * startHost with the data key from HOOKLOOP_SECRET_KEY_FILE or HOOKLOOP_SECRET_KEY, and closed
   * by close(), after the drain. Every engine the host builds (a clock switch rebuilds it) runs on it.
   */
  store?: string
  /** Control server port; 0 picks a free one. */
  port: number
  /** The loopback address the control server and the receiver listen on (default 127.0.0.1). */
  host?: string
  /** Puts GET /metrics behind `Authorization: Bearer <metricsToken>` (probe-routes.ts). */
  metricsToken?: string
  token: string
  /** The built renderer to serve (browser mode); the Electron window loads it from here too. */
  staticDir?: string
  receiverPort?: number
  tunnel?: EngineOptions['tunnel']
  nativeBinding?: string
  /** The data key sealing signing secrets at rest, base64 (the app's, from the OS keychain); absent: a key file beside the database. */
  secretKey?: string
  /** Shown in a banner in every UI (e.g. secrets kept as plain text). */
  warnings?: string[]
  log?: (line: string) => void
  /** People sign in (`serve --accounts`, docs/team.md "Accounts") instead of holding the run's token. */
  accounts?: HostAccounts
}

export interface HostAccounts {
  /** The first admin, made when there is no account yet (`--admin` and HOOKLOOP_ADMIN_PASSWORD). */
  admin?: { email: string; password: string }
  /** The address people reach this server by, besides loopback (`--public-url`). */
  publicUrl?: string
  /** Believe a reverse proxy's X-Forwarded-Proto and X-Forwarded-For. */
  trustProxy?: boolean
  /** The team's OpenID Connect provider people may sign in through (`--oidc-issuer` …). */
  oidc?: OidcSettings
}

export interface Host {
  readonly control: ControlServer
  readonly engine: Engine
  /**
   * A graceful stop's first half: /readyz answers 503 at once, the receiver takes no new
   * connection and the requests in flight are answered and recorded (at most `graceMs`); close()
   * then lets the attempts in flight be recorded and closes the store.
   */
  drain(graceMs: number): Promise<void>
  close(): Promise<void>
  /** The address to open: the control server's with the token, or with accounts the sign-in page. */
  readonly openUrl: string
  /** With accounts and none yet: the one-time link that makes the first admin (printed once, never logged). */
  readonly setupUrl: string | null
}

/** How long a drain waits for the requests in flight by default: under the 30 s a process manager commonly allows after SIGTERM (Kubernetes). */
export const DEFAULT_DRAIN_MS = 25_000

/** How long the readiness probe waits for the store's answer. */
const STORE_PROBE_TIMEOUT_MS = 2_000

type ClockMode = 'real' | 'scaled' | 'virtual'

function clockScale(clock: Clock, fallback: number): number {
  const factor = (clock as unknown as { factor?: number }).factor
  return typeof factor === 'number' ? factor : fallback
}

export async function startHost(options: HostOptions): Promise<Host> {
  let clockMode: ClockMode = 'real'
  let scale = 1
  // What the running simulation is called; a rebuild on the same clock mode (the tunnel) starts a
  // new simulation (a new clock) under the same name.
  let simulationLabel: string | undefined
  let receiverPort = options.receiverPort ?? 0
  let tunnelOption: EngineOptions['tunnel'] | undefined = options.tunnel
  let binding: EngineBinding
  let timelineWatch: TimelineWatch
  let changes: StoreChangeFeed
  let definitions: DefinitionsWatch
  let offEngine: () => void = () => {}
  let control: ControlServer | null = null
  let health: HealthReads
  let draining = false
  let accountStore: SqlEngine | null = null
  /** The store the accounts, tokens, audit and workspaces are read on: open from the start on. */
  const accountEngine = (): SqlEngine => {
    if (!accountStore) throw new Error('the store is not open')
    return accountStore
  }
  // A team's store is the host's to open and close: every engine it builds runs on it, and closing
  // one (a clock switch) leaves it open. An unreachable server fails the start with one line
  // naming the host and the database, never the password (store/postgres-engine.ts).
  const teamStore = options.store === undefined ? null : await openTeamStore(options.store, options.log)
  const hostMetrics = createHostMetrics({
    uiClients: () => control?.clientCount ?? 0,
    dueQueue: () => health.dueQueue(binding.engine.wallClock.now()),
    draining: () => draining,
    wallNow: () => Date.now(),
  })
  // With accounts, what each socket sees and names is its workspace's (workspace-scope.ts): the
  // owners of the definitions are read again before a changed list is pushed, so a new one is
  // shown to its workspace's sockets, and until then to nobody.
  const scope = options.accounts
    ? createWorkspaceScope(accountEngine)
    : null
  const publishOwned = (...event: EventArgs): void => {
    if (!scope) return void control?.publish(...event)
    void scope.refresh().then(
      () => control?.publish(...event),
      (error: unknown) => options.log?.(`the workspaces of the definitions could not be read: ${String(error)}`),
    )
  }
  const metrics = createSubscriptionMetrics(() => binding, (subscriptions) => publishOwned('subscriptions.changed', { subscriptions }), options.log)
  const publishList = (what: 'endpoints' | 'rules' | 'subscriptions' | 'breakpoints') => {
    if (what === 'subscriptions') return void metrics.recount()
    if (what === 'breakpoints') return publishOwned('breakpoints.changed', { breakpoints: breakpointList(binding.engine.receiver).breakpoints })
    // Read in turn on the store engine's queue, so the lists are pushed in the order they changed.
    if (what === 'endpoints') void endpointViews(binding).then((endpoints) => publishOwned('endpoints.changed', { endpoints }), (error: unknown) => options.log?.(`endpoints could not be read: ${String(error)}`))
    else publishOwned('rules.changed', { rules: ruleViews(binding) })
  }

  // Specs of endpoints made from a contract, read once and kept across clock switches: the schema
  // verdicts hold bodies against them, the send form offers their event types.
  const specs = createSpecReader()
  const contractSchemas = createContractSchemas(specs)
  const contractView = createContractEvents(specs)

  async function bind(mode: ClockMode, factor: number): Promise<void> {
    const clock = mode === 'real' ? { mode } : mode === 'scaled' ? { mode, factor } : { mode }
    const engine = await createEngine({
      ...(teamStore ? { store: teamStore } : { dataDir: options.dataDir }),
      clock: clock as EngineOptions['clock'],
      receiver: { port: receiverPort, ...(options.host === undefined ? {} : { host: options.host }) },
      ...(tunnelOption ? { tunnel: tunnelOption } : {}),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.secretKey ? { secretKey: Buffer.from(options.secretKey, 'base64') } : {}),
      ...(simulationLabel === undefined ? {} : { simulation: { label: simulationLabel } }),
      // A clock switch rebuilds the engine: what the engine before it left is continued on the new clock.
      continuesWallClock: true,
      contractSchemas,
    })
    receiverPort = engine.receiver.port
    // Everything the host reads and writes goes through the engine's store (SqlEngine and its
    // secret box), on a data folder as on a team's PostgreSQL: on a data folder it is the engine's
    // own connection, whose statements and writes the views follow.
    const { engine: store, secrets } = engine.store
    accountStore = store
    const timeline = createTimelineViews(store)
    health = createHealthReads(store)
    const details = createDetailViews(store, secrets, {
      explainFault,
      explainRule: (definition) => explainRule(parseRule(definition)),
      endpointUrls: (slug) => ({ localUrl: engine.receiver.endpointUrl(slug), publicUrl: engine.tunnel?.publicUrl() ? engine.endpointUrl(slug) : null }),
      contractView,
    })
    binding = { engine, timeline, details, counts: createCountReadsOn(store), wallNow: () => Date.now() }
    metrics.forget()
    // Which tables changed, whoever wrote them: a data folder's data_version poll, or on a team's
    // PostgreSQL every process's commits by LISTEN/NOTIFY (everything read again after a lost connection).
    changes = await storeChangeFeed(store, { intervalMs: 50, ...(options.store === undefined ? {} : { postgresUrl: options.store }) })
    timelineWatch = await watchTimeline({
      engine: store,
      changes,
      timeline,
      pushGapMs: 50,
      onRows: (rows) => control?.publish('timeline.upsert', { rows }),
      watched: () => (control?.clientCount ?? 0) > 0,
      onDeliveriesSettled: metrics.soon,
    })
    // Lists another process on the same store changed: this engine answers and routes by them too.
    definitions = await watchDefinitions({
      engine: store,
      changes,
      onError: (error) => options.log?.(`hookloop: reading the definitions another process changed: ${error instanceof Error ? error.message : String(error)}`),
      onChanged: (tables) => {
        // The lists are published once this engine answers by what they show.
        const reloads: Promise<void>[] = []
        if (tables.has('endpoints') || tables.has('rules')) reloads.push(engine.receiver.reloadDefinitions())
        else if (tables.has('breakpoints')) reloads.push(Promise.resolve(engine.receiver.breakpoints.reload()))
        if (tables.has('subscriptions')) reloads.push(engine.sender.reloadSubscriptions())
        Promise.all(reloads).then(
          () => tables.forEach((table) => publishList(table)),
          (error: unknown) => options.log?.(`hookloop: reading the definitions another process changed: ${error instanceof Error ? error.message : String(error)}`),
        )
      },
    })
    offEngine = engine.on((event) => {
      hostMetrics.observe(event)
      switch (event.type) {
        case 'delivery.created':
        case 'delivery.updated':
          timelineWatch.touchDelivery(event.delivery.id)
          metrics.soon()
          break
        case 'attempt.started':
        case 'attempt.finished':
          timelineWatch.touchDelivery(event.attempt.deliveryId)
          metrics.soon()
          break
        case 'request.captured':
          timelineWatch.touchRequest(event.request.id)
          break
        case 'request.verified':
        case 'request.responded':
        case 'request.schema':
          timelineWatch.touchRequest(event.requestId)
          break
        case 'request.duplicate':
          // A duplicate arrival of one of our deliveries counts on its subscription's card.
          timelineWatch.touchRequest(event.requestId)
          metrics.soon()
          break
        case 'request.forwarded':
          timelineWatch.touchRequest(event.leg.requestId)
          break
        case 'tunnel.state':
          control?.publish('tunnel.state', toTunnelView(event.state))
          publishList('endpoints')
          break
        case 'history.pruned':
          // Retention removed rows: every UI reads its timeline again.
          control?.publish('timeline.reset', { total: -1 })
          break
        case 'breakpoint.held':
          // At once, with the whole request: a person has until its limit to act.
          control?.publish('breakpoint.held', event.request)
          break
        case 'breakpoint.released':
          control?.publish('breakpoint.released', { requestId: event.requestId, endpointId: event.endpointId, hold: event.hold })
          timelineWatch.touchRequest(event.requestId)
          break
        case 'tunnel.notice':
        case 'connection.refused':
        case 'store.error':
          break
        default: {
          const never: never = event
          return never
        }
      }
    })
  }

  async function unbind(): Promise<void> {
    offEngine()
    timelineWatch.stop()
    await changes.close()
    definitions.stop()
    await binding.engine.close()
  }

  const publishSimulations = () =>
    void simulationViews(binding.engine).then(
      (simulations) => control?.publish('simulations.changed', { simulations }),
      (error: unknown) => options.log?.(`hookloop: simulations could not be read: ${error instanceof Error ? error.message : String(error)}`),
    )

  const clockView = (): Snapshot['clock'] => ({ mode: clockMode, scale: clockMode === 'scaled' ? clockScale(binding.engine.clock, scale) : 1, now: binding.engine.clock.now() })

  let switching: Promise<void> = Promise.resolve()
  const switchClock = (mode: ClockMode, factor: number, label?: string): Promise<void> => {
    switching = switching.then(async () => {
      if (mode === clockMode && (mode !== 'scaled' || factor === scale)) return
      await unbind()
      clockMode = mode
      scale = factor
      simulationLabel = label
      await bind(mode, factor)
      control?.publish('clock.state', clockView())
      control?.publish('timeline.reset', { total: -1 })
      publishSimulations()
    })
    return switching
  }
  // The tunnel is part of the engine: starting or stopping it rebuilds the engine on the same
  // data file and receiver port, like a clock switch. A bad host fails here and keeps the old one.
  const setTunnel = (tunnel: { host: string; subdomain?: string } | null): Promise<void> => {
    const next = switching.then(async () => {
      const previous = tunnelOption
      await unbind()
      tunnelOption = tunnel ?? undefined
      try {
        await bind(clockMode, scale)
      } catch (error) {
        tunnelOption = previous
        await bind(clockMode, scale)
        throw error
      } finally {
        control?.publish('tunnel.state', tunnelView(binding.engine))
        publishList('endpoints')
        if (binding.engine.simulation) publishSimulations()
      }
    })
    switching = next.catch(() => {})
    return next
  }

  try {
    await bind(clockMode, scale)
  } catch (error) {
    await teamStore?.engine.close()
    throw error
  }
  // Rows that do not parse were set aside as the engine loaded: said once at start, and in every
  // UI's banner for as long as they stay (read afresh: another process may repair them).
  const setAside = async () => badRowsNotice(await readBadRows(binding.engine.store))
  for (const line of await setAside()) options.log?.(`hookloop: ${line}`)
  // Ready: not draining, the receiver takes connections and the store answers a statement in time.
  // Each reason is one line with no path or address in it (the probe answers anyone).
  const readiness = async (): Promise<string | null> => {
    if (draining) return 'draining: the server is stopping'
    if (!binding.engine.receiver.listening()) return 'the webhook receiver is not listening'
    // A team's PostgreSQL that stopped answering: the receiver refuses (503) and the sender waits until it is back.
    if (binding.engine.store.engine.reach?.lost()) return 'the store cannot be reached'
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((done) => (timer = setTimeout(() => done('late'), STORE_PROBE_TIMEOUT_MS)))
    try {
      const answer = await Promise.race([hostMetrics.timeStoreRead('probe', () => health.ping()), late])
      if (answer === 'late') return `the store did not answer within ${STORE_PROBE_TIMEOUT_MS / 1000} s`
    } catch {
      return 'the store does not answer'
    } finally {
      clearTimeout(timer)
    }
    return draining ? 'draining: the server is stopping' : null
  }

  const recorder = createRecorder({
    engine: () => binding.engine,
    clock: () => (clockMode === 'scaled' ? { mode: 'scaled', factor: clockScale(binding.engine.clock, scale) } : { mode: clockMode }),
  })
  const runs = createScenarioRuns({
    publish: (view) => control?.publish('scenario.progress', view),
    // A scenario through the tunnel opens its own (its receiver is the run's), on the app's tunnel server.
    tunnel: () => (tunnelOption ? { ...(tunnelOption.host === undefined ? {} : { host: tunnelOption.host }), ...(tunnelOption.lookup === undefined ? {} : { lookup: tunnelOption.lookup }) } : undefined),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
  const stagedBodies = createStagedBodies()
  const ctx = {
    current: () => binding,
    uploads: stagedBodies,
    switchClock,
    clockView,
    warnings: async () => [...(options.warnings ?? []), ...(await setAside())],
    changed: publishList,
    subscriptions: metrics.views,
    touchDelivery: (id: number) => timelineWatch.touchDelivery(id),
    recording: () => recorder.view(),
    scenarioRun: () => runs.current(),
  }
  const recordingChanged = () => control?.publish('recording.state', recorder.view())
  const publicUrl = options.accounts?.publicUrl ? new URL(options.accounts.publicUrl) : undefined
  const accounts = options.accounts
    ? createAccounts({ engine: accountEngine })
    : null
  // Machines' API tokens (docs/team.md, "Tokens"), on the same store as the accounts.
  const tokens = accounts
    ? createTokens({
        engine: accountEngine,
        ...(options.log ? { log: options.log } : {}),
      })
    : null
  const audit = createAudit({ engine: accountEngine })
  let setupSecret: string | null = null
  if (accounts && (await accounts.count()) === 0) {
    const admin = options.accounts?.admin
    if (admin) {
      const made = await accounts.createFirstAdmin(admin)
      await audit.account({ kind: 'account.firstAdmin', account: made, via: 'cli' })
      options.log?.(`hookloop: accounts: made the first admin, ${made.email}`)
    } else setupSecret = await accounts.newSetupLink()
  }
  const handlers: CommandHandlers = {
    ...createHandlers(ctx, createLoopTry(ctx)),
    ...createScenarioHandlers({ recorder, runs, recordingChanged, store: () => binding.engine.store.engine }),
    ...createTunnelHandlers({ setTunnel, tunnelView: () => tunnelView(binding.engine) }),
    ...createCheckHandlers(ctx),
    ...createExportHandlers(ctx),
    ...createForwardHandlers(ctx),
    ...createBreakpointHandlers({ current: ctx.current, changed: (breakpoints) => publishOwned('breakpoints.changed', { breakpoints }) }),
    ...createHistoryHandlers({ current: ctx.current, timelineReset: () => control?.publish('timeline.reset', { total: -1 }) }),
    ...createMemberHandlers({ accounts, engine: accountEngine, base: () => (publicUrl?.origin ?? control?.origin ?? '').replace(/\/$/, '') }),
    ...createTokenHandlers({ tokens }),
    ...createListHandlers(ctx),
    ...createToolHandlers(ctx),
    ...audit.handlers,
  }
  control = await startControlServer({
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    token: options.token,
    probes: createProbeRoutes({ readiness, metrics: hostMetrics, ...(options.metricsToken === undefined ? {} : { metricsToken: options.metricsToken }) }),
    handlers: recordingHandlers(scope ? scope.guard(handlers) : handlers, { recorder, now: () => binding.engine.clock.now(), changed: recordingChanged }),
    bodies: { requestBody: (id) => binding.details.requestBody(id), staged: stagedBodies },
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    succeeded: audit.command,
    ...(scope
      ? { scope: (workspace: string, batch: readonly EventMessage[]) => scope.filter(workspace, batch), owns: (workspace: string, requestId: number) => scope.owns(workspace, 'request', requestId) }
      : {}),
    ...(accounts
      ? {
          accounts: createAccountGate({
            accounts,
            ...(tokens ? { tokens } : {}),
            trustProxy: options.accounts?.trustProxy ?? false,
            audit: (event) => audit.account(event),
            ...(options.accounts?.oidc ? { oidc: { oidc: createOidc(options.accounts.oidc), origin: () => (publicUrl?.origin ?? control?.origin ?? '').replace(/\/$/, '') } } : {}),
            ...(options.log ? { log: options.log } : {}),
            originAllowed: (origin) => originAllowed(control?.port ?? 0, origin, publicUrl),
            pageHeaders: () => securityHeaders(contentSecurityPolicy(control?.port ?? 0, publicUrl, true)),
          }),
        }
      : {}),
  })
  const server = control
  const base = (publicUrl?.origin ?? server.origin).replace(/\/$/, '')
  return {
    async drain(graceMs) {
      draining = true
      // A clock switch or a tunnel change under way ends first: the engine to drain is the one after it.
      await switching
      await binding.engine.receiver.drain(graceMs)
    },
    control: server,
    openUrl: accounts ? `${base}/signin` : server.openUrl,
    setupUrl: setupSecret ? `${base}/join?link=${setupSecret}` : null,
    get engine() {
      return binding.engine
    },
    async close() {
      metrics.close()
      await server.close()
      await runs.close()
      await switching
      await unbind()
      // Last: the engine's parts, drained and closed above, wrote through it until now.
      await teamStore?.engine.close()
    },
  }
}

/** Opens (and migrates) a team's PostgreSQL for the host, its data key from the environment. */
async function openTeamStore(url: string, log: ((line: string) => void) | undefined): Promise<OpenedStore> {
  const location = parseStoreLocation(url)
  if (location.kind !== 'postgres') throw new TypeError('HostOptions.store is a team\'s postgres:// URL; a data folder is dataDir')
  return openStore(location, { notice: (line) => log?.(`hookloop: ${line}`) })
}
