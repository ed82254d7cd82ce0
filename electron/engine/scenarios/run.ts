// Runs a validated scenario on a fresh engine: sets up the receiver's endpoints and rules and the
// sender's subscriptions, emits each event at its offset on the scenario clock, waits until every
// delivery is final (or a limit is reached), then builds the report from what the store recorded.
// On a team's PostgreSQL the run shares the store without touching the team's rows: its endpoints
// and subscriptions are named with a tag of its own, its clock is a simulation it owns, and its
// reads keep to its own endpoints and deliveries.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { eventLocalId, type Scenario, type ScenarioClock, scenarioEventPayload } from '../../../shared/scenario'
import { holdWork, type ClockSpec, type TimerHandle } from '../clock'
import type { ScenarioReport, ReportTunnel, ReportAction } from '../../../shared/scenario'
import { createEngine, type Engine, type EngineOptions } from '../engine'
import { createEventStore, createInspectorReads, createScenarioRecordReads, removeRunRows, type OpenedStore, type RunRows } from '../store'
import { buildReport, type RecordedDelivery } from './report'
import { runLimits } from './limits'
import { performAction } from './actions'
import { forwardLegsOfRun, retargetScenario } from './forward-run'
import { engineTunnel, tunnelOnline, type RunTunnelOptions } from './tunnel-run'
import { storedConsumerEventId } from '../providers'
import { PROVIDERS } from '../../../shared/providers'

export interface RunScenarioOptions {
  /** Shown in the report. */
  file?: string | null
  /** Keep the run's SQLite file in this folder; default a temp folder removed afterwards. */
  dataDir?: string
  /**
   * Run on this team's PostgreSQL instead (opened and closed by the caller): the run's rows are
   * tagged as its own (runNames) and dataDir is not used.
   */
  store?: OpenedStore
  /** Host the receiver listens on (loopback by default). */
  host?: string
  /** Wall-clock bound, so a scenario that never settles cannot hang CI; default from the clock mode. */
  wallLimitMs?: number
  /** Aborting stops the run early (Ctrl-C): the report says so and is not ok. */
  signal?: AbortSignal
  /** One line per finished attempt as it happens (for long real-clock runs). */
  onProgress?: (line: string) => void
  /** better-sqlite3 for the runtime (the app's engine runs inside Electron); see EngineOptions. */
  nativeBinding?: string
  /** Forward mode: where the app under test runs now; replaces the scenario's `app` in every forward target. */
  app?: string
  /** Through the tunnel (the file's `tunnel`): another tunnel server, or DNS for one. Ignored when the file names no tunnel. */
  tunnel?: RunTunnelOptions
  /** Where an endpoint given a `contract` finds its spec, for its requests' schema verdicts (contracts' createContractSchemas). */
  contractSchemas?: EngineOptions['contractSchemas']
}

interface PlannedDelivery {
  event: string
  subscription: string
  deliveryId: number
  duplicateOf: number | null
  /** Set on a delivery a `resend` action made: which resend of the event it is (1, 2 …). */
  resend?: number
}

function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * The scenario's clock; a fixed start (ISO time) makes signature timestamps reproducible. On a team's
 * store the real clock runs as a simulation at ×1: its deliveries are then due on the run's clock
 * only (simulations.owner), so no team server sends them and the run sends none of the team's.
 */
function clockSpec(clock: ScenarioClock, shared: boolean): ClockSpec {
  switch (clock.mode) {
    case 'real':
      return shared ? { mode: 'scaled', factor: 1 } : { mode: 'real' }
    case 'scaled':
      return { mode: 'scaled', factor: clock.factor, ...(clock.start === undefined ? {} : { start: Date.parse(clock.start) }) }
    case 'virtual':
      return { mode: 'virtual', ...(clock.start === undefined ? {} : { start: Date.parse(clock.start) }) }
    default: {
      const never: never = clock
      throw new Error(`unknown clock ${JSON.stringify(never)}`)
    }
  }
}

/**
 * The names the run gives its endpoints and subscriptions in the store. On a data folder of its own,
 * the scenario's; on a team's store, each with the run's tag (`checkout-run-1a2b3c4d`), so they
 * never meet a team's row or another run's of the same scenario.
 */
export interface RunNames {
  slug(local: string): string
  /** The scenario's slug of a slug `slug()` gave (as it is when it is not the run's). */
  localSlug(stored: string): string
  subscription(local: string): string
}

const SLUG_MAX = 63

export function runNames(tag: string | null): RunNames {
  if (tag === null) return { slug: (local) => local, localSlug: (stored) => stored, subscription: (local) => local }
  const suffix = `-run-${tag}`
  const locals = new Map<string, string>()
  return {
    slug(local) {
      // A slug is at most 63 characters: a long one gives up its end to the tag.
      const stored = `${local.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`
      locals.set(stored, local)
      return stored
    },
    localSlug: (stored) => locals.get(stored) ?? stored,
    subscription: (local) => `${local}${suffix}`,
  }
}

/**
 * An endpoint's contract spec named by a relative path is beside the scenario file (as its author
 * wrote it), wherever the run starts from; a URL or an absolute path stays as it is.
 */
function specsBesideFile(scenario: Scenario, file: string | null | undefined): Scenario {
  if (!file || !scenario.endpoints.some((e) => e.contract && !isAbsolute(e.contract.spec) && !/^https?:\/\//i.test(e.contract.spec))) return scenario
  const base = dirname(resolve(file))
  return {
    ...scenario,
    endpoints: scenario.endpoints.map((e) => (e.contract && !isAbsolute(e.contract.spec) && !/^https?:\/\//i.test(e.contract.spec) ? { ...e, contract: { ...e.contract, spec: resolve(base, e.contract.spec) } } : e)),
  }
}

/**
 * On a team's store, refuses a scenario whose fixed event ids the store holds already, before the
 * run makes anything: an event id is published once per store (the events' key), and the run's
 * tag renames its endpoints and subscriptions, not its events, whose ids its expectations name. A
 * run removes its events when it ends, so this is a run of the file going on now or a person's
 * publish. Without this, each expectation failed on an event that could not be sent.
 */
async function refuseTakenEventIds(scenario: Scenario, store: OpenedStore): Promise<void> {
  const events = createEventStore(store.engine)
  for (const [index, event] of scenario.events.entries()) {
    if (event.event_id === undefined || !(await events.get(event.event_id))) continue
    throw new Error(
      `event ${eventLocalId(event, index)} has the id ${event.event_id}, which ${store.engine.where} holds already (a run of this file going on now, or someone's publish): an event id is published once per store. Run the file on a data folder of its own (without --store), or leave its event_id out so each run makes its own.`,
    )
  }
}

export async function runScenario(given: Scenario, options: RunScenarioOptions = {}): Promise<ScenarioReport> {
  const wallStart = performance.now()
  const beside = specsBesideFile(given, options.file)
  const scenario = options.app === undefined ? beside : retargetScenario(beside, options.app)
  if (options.store) await refuseTakenEventIds(scenario, options.store)
  const temp = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'hookloop-run-')) : null
  const dataDir = options.dataDir ?? (temp as string)
  const tunnel = engineTunnel(scenario, options.tunnel)
  const shared = options.store !== undefined
  const engine = await createEngine({
    ...(options.store ? { store: options.store } : { dataDir }),
    clock: clockSpec(scenario.clock, shared),
    // A run judges what it did; pruning is the store's owners' business (on a team's store, the team's).
    scheduledRetention: false,
    // Nor does it recover what the team's dead processes left: it changes no row but its own.
    ...(shared ? { takesOverOthers: false } : {}),
    // On a virtual or scaled clock the run is a simulation of its own in its store (docs/time.md).
    simulation: { label: `scenario ${scenario.name}` },
    receiver: { host: options.host ?? '127.0.0.1', port: 0 },
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(tunnel === undefined ? {} : { tunnel }),
    ...(options.contractSchemas ? { contractSchemas: options.contractSchemas } : {}),
  })
  // What the run makes, filled in as it makes it: on a team's store, removed once it is over.
  const made: { endpointIds: string[]; subscriptionIds: string[] } = { endpointIds: [], subscriptionIds: [] }
  try {
    return await runOnEngine(engine, scenario, options, wallStart, tunnel?.host, runNames(shared ? randomBytes(4).toString('hex') : null), made)
  } finally {
    const simulationId = engine.simulation?.id ?? null
    await engine.close()
    if (options.store) await removeRunRows(options.store.engine, { ...made, simulationId } satisfies RunRows)
    if (temp) rmSync(temp, { recursive: true, force: true })
  }
}

/** Resolves when the forwarder has no leg in flight, or after `wallMs` of real time. */
async function forwardsSettled(engine: Engine, wallMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([engine.receiver.forwarder.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(wallMs, 10_000))))])
  clearTimeout(timer)
}

async function runOnEngine(
  engine: Engine,
  scenario: Scenario,
  options: RunScenarioOptions,
  wallStart: number,
  tunnelHost: string | undefined,
  names: RunNames,
  made: { endpointIds: string[]; subscriptionIds: string[] },
): Promise<ScenarioReport> {
  const { clock } = engine
  // Through the tunnel: nothing is sent before the public URL works, so every attempt takes it.
  const tunnel: Omit<ReportTunnel, 'bypassed_attempts'> | null =
    engine.tunnel && scenario.tunnel && tunnelHost !== undefined ? await tunnelOnline(engine.tunnel, tunnelHost, scenario.tunnel.online_within_ms, options.signal) : null
  const endpointIds = made.endpointIds
  for (const endpoint of scenario.endpoints) endpointIds.push((await engine.putEndpoint({ ...endpoint, slug: names.slug(endpoint.slug) })).id)
  const subscriptionIds = new Map<string, string>()
  const localSubscription = new Map<string, string>()
  const subscriptionUrls = new Map<string, string>()
  for (const sub of scenario.subscriptions) {
    // Loop mode without secrets of its own signs with the endpoint's: the usual "both sides agree".
    const endpoint = sub.endpoint === undefined ? undefined : scenario.endpoints.find((e) => e.slug === sub.endpoint)
    const secrets = sub.secrets.length > 0 ? sub.secrets : (endpoint?.secrets ?? [])
    const created = await engine.putSubscription({
      name: names.subscription(sub.id),
      target: sub.endpoint !== undefined ? { endpoint: names.slug(sub.endpoint) } : { url: sub.url as string },
      scheme: sub.scheme,
      // A provider that does not sign gets no secret (the sender would otherwise make one).
      ...(secrets.length > 0 ? { secrets } : sub.provider !== undefined && PROVIDERS[sub.provider].unsigned ? { secrets: [] } : {}),
      policy: sub.policy,
      headers: sub.headers,
      ...(sub.event_id_header === undefined ? {} : { eventIdHeader: sub.event_id_header }),
      envelope: sub.envelope,
      ...(sub.provider === undefined ? {} : { provider: sub.provider, apiVersion: sub.api_version ?? null }),
    })
    subscriptionIds.set(sub.id, created.id)
    made.subscriptionIds.push(created.id)
    localSubscription.set(created.id, sub.id)
    subscriptionUrls.set(sub.id, sub.endpoint !== undefined ? engine.endpointUrl(names.slug(sub.endpoint)) : (sub.url as string))
  }

  const limits = runLimits(scenario, options.wallLimitMs)
  const startedAt = clock.now()
  const planned: PlannedDelivery[] = []
  // Events still to send and panel actions still to do: the run cannot be settled before them.
  let toEmit = scenario.events.length + scenario.actions.length
  const actionResults: ReportAction[] = []
  let stopReason: string | null = null
  let done = false
  let finish: () => void = () => {}
  const finished = new Promise<void>((resolve) => {
    finish = () => {
      done = true
      resolve()
    }
  })

  // Settled = every event emitted and every delivery final. Checked after each sender event,
  // once per turn, against the store (the source of truth).
  let checkQueued = false
  const check = () => {
    checkQueued = false
    if (toEmit > 0) return
    if (planned.every((p) => engine.isDeliverySettled(p.deliveryId))) finish()
  }
  const queueCheck = () => {
    if (checkQueued) return
    checkQueued = true
    setImmediate(check)
  }
  const off = engine.on((event) => {
    if (event.type.startsWith('delivery.') || event.type.startsWith('attempt.')) queueCheck()
    if (event.type === 'attempt.finished' && options.onProgress) {
      const a = event.attempt
      const p = planned.find((entry) => entry.deliveryId === a.deliveryId)
      const which = !p ? '' : p.duplicateOf !== null ? ' (copy)' : p.resend !== undefined ? ` (resend #${p.resend})` : ''
      const next = a.nextAttemptAt === null ? a.decision : `${a.decision}, next at run +${a.nextAttemptAt - startedAt} ms`
      options.onProgress(`run +${a.startedAt - startedAt} ms  ${p ? `${p.event} → ${p.subscription}${which}` : `delivery ${a.deliveryId}`}  #${a.n} ${a.outcome} (${next})`)
    }
  })
  const clockLimit = clock.setTimer(limits.clockMs, () => {
    if (done) return
    // An explicit max_duration_ms is where the scenario means to look; the default is a safety net.
    if (!limits.explicit) stopReason = `stopped after ${limits.clockMs} ms of scenario time with deliveries still open (set max_duration_ms to wait longer)`
    finish()
  })
  // Real time bounds a run on any clock: an endpoint that hangs cannot hang CI.
  const wallLimit = setTimeout(() => {
    if (done) return
    stopReason = `stopped after ${limits.wallMs} ms of real time with deliveries still open`
    finish()
  }, limits.wallMs)

  const onAbort = () => {
    if (done) return
    stopReason = 'interrupted before every delivery was final'
    finish()
  }
  if (options.signal?.aborted) onAbort()
  options.signal?.addEventListener('abort', onAbort, { once: true })

  // Kept so a run that stops early leaves no timer behind (a real clock's would hold the process).
  const timers: TimerHandle[] = []
  scenario.events.forEach((event, index) => {
    const local = eventLocalId(event, index)
    const targets = event.subscriptions ?? scenario.subscriptions.map((s) => s.id)
    timers.push(clock.setTimer(event.at_ms, () => {
      // A virtual clock waits for the publish (awaited on a team's store) before it moves on.
      const release = holdWork(clock)
      engine
        .sendEvent({
          subscriptionIds: targets.map((t) => subscriptionIds.get(t) as string),
          eventType: event.type,
          payload: scenarioEventPayload(scenario, event, clock.now()),
          ...(event.event_id === undefined ? {} : { eventId: event.event_id }),
          faults: event.faults,
        })
        .then(
          (sent) => {
            for (const d of sent.deliveries) planned.push({ event: local, subscription: localSubscription.get(d.subscriptionId) ?? d.subscriptionId, deliveryId: d.id, duplicateOf: d.duplicateOf })
          },
          (error: unknown) => {
            stopReason = `event ${local} could not be sent: ${error instanceof Error ? error.message : String(error)}`
            finish()
          },
        )
        .finally(() => {
          release()
          toEmit--
          queueCheck()
        })
    }))
  })

  const actionContext = {
    engine,
    subscriptionId: (local: string) => subscriptionIds.get(local),
    deliveryId: (event: string, subscription: string) => planned.find((p) => p.event === event && p.subscription === subscription && p.duplicateOf === null && p.resend === undefined)?.deliveryId,
    resent: (event: string, subscription: string, deliveryId: number) => {
      const n = planned.filter((p) => p.event === event && p.subscription === subscription && p.resend !== undefined).length + 1
      planned.push({ event, subscription, deliveryId, duplicateOf: null, resend: n })
      return n
    },
    defaultSubscription: (event: string) => {
      const index = scenario.events.findIndex((e, i) => eventLocalId(e, i) === event)
      return scenario.events[index]?.subscriptions?.[0] ?? scenario.subscriptions[0]?.id ?? ''
    },
  }
  scenario.actions.forEach((action, index) => {
    timers.push(
      clock.setTimer(action.at_ms, () => {
        // A virtual clock waits for the action (a pause is saved before the next attempt is due).
        const release = holdWork(clock)
        void performAction(action, index, actionContext)
          .then((result) => {
            actionResults.push(result)
            toEmit--
            queueCheck()
          })
          .finally(release)
      }),
    )
  })

  await finished
  const endedAt = clock.now()
  off()
  for (const timer of timers) timer.cancel()
  clockLimit.cancel()
  clearTimeout(wallLimit)
  options.signal?.removeEventListener('abort', onAbort)
  // Copies to the app still on their way are part of what the app saw: wait for them (bounded).
  await forwardsSettled(engine, Math.max(0, limits.wallMs - (performance.now() - wallStart)))
  await engine.quiesce()

  const records = createScenarioRecordReads(engine.store.engine)
  const details = createInspectorReads(engine.store.engine, engine.store.secrets)
  const deliveries: RecordedDelivery[] = []
  // An attempt made while the tunnel was down went to loopback (the engine's fallback): counted, never hidden.
  let bypassed = 0
  for (const p of planned) {
    const row = await details.delivery(p.deliveryId)
    if (!row) continue
    const sub = scenario.subscriptions.find((s) => s.id === p.subscription)
    const attempts = await details.attempts(row.id)
    if (tunnel && sub?.endpoint !== undefined) bypassed += attempts.filter((a) => a.url !== null && !a.url.startsWith(tunnel.url.replace(/\/+$/, ''))).length
    deliveries.push({
      delivery_id: row.id,
      duplicate_of: p.duplicateOf,
      ...(p.resend === undefined ? {} : { resend: p.resend }),
      event: p.event,
      subscription: p.subscription,
      event_id: row.event_id,
      provider_event_id: storedConsumerEventId(row.provider, { eventId: row.event_id, eventType: row.event_type, payload: row.payload, createdAt: row.event_created_at, apiVersion: row.api_version }),
      event_type: row.event_type,
      // Where it really went (through the tunnel or not); the configured target when never tried.
      url: attempts.find((a) => a.url !== null)?.url ?? subscriptionUrls.get(p.subscription) ?? '',
      loop: sub?.endpoint !== undefined,
      status: row.status,
      attempts: attempts.map((a) => ({
        n: a.n,
        started_at: a.started_at,
        duration_ms: a.duration_ms,
        outcome: a.outcome,
        status_code: a.status_code,
        decision: a.decision,
        next_attempt_at: a.next_attempt_at,
        fault: parseJson(a.fault_json),
        request: a.request_id === null ? null : { id: a.request_id, verify_reason: a.verify_reason, duplicate_number: a.duplicate_number, fault: parseJson(a.request_fault_json) },
      })),
    })
  }
  // Scenario order, not the order sends happened to complete in.
  const order = scenario.events.map((e, i) => eventLocalId(e, i))
  deliveries.sort((a, b) => order.indexOf(a.event) - order.indexOf(b.event) || a.subscription.localeCompare(b.subscription) || a.delivery_id - b.delivery_id)

  const endpointRequests = (await records.endpointRequests(startedAt, endpointIds)).map((r) => ({ ...r, slug: names.localSlug(r.slug) }))
  return buildReport({
    scenario,
    file: options.file ?? null,
    startedAt,
    endedAt,
    wallMs: performance.now() - wallStart,
    incomplete: stopReason,
    deliveries,
    endpointRequests,
    actions: actionResults,
    forwards: forwardLegsOfRun(await records.forwardLegs(startedAt, endpointRequests.map((r) => r.id)), startedAt, endpointRequests, deliveries),
    tunnel: tunnel && { ...tunnel, bypassed_attempts: bypassed },
  })
}
