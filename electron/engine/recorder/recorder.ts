// Records a session at the host's command layer: every command that changes something is already
// typed and validated there, so a step is the command's request, its response and the engine
// clock's time. Setup (endpoints, rules, subscriptions) is read from the engine as it stands when
// first needed; what happened (deliveries, attempts, the receiver's verdicts) is read from the store
// at Stop. The result is a scenario file `hookloop run` plays, checked by the same validator.
import type { CommandName, RecordingView } from '../../../shared/contract'
import { isPolicyPresetId, POLICY_PRESETS } from '../../../shared/sender'
import { endpointDefinition } from '../../../shared/receiver'
import type { ScenarioInput, ScenarioProblem } from '../../../shared/scenario'
import { validateScenario } from '../../../shared/scenario'
import type { SendFaultInput } from '../../../shared/sender'
import type { Engine } from '../engine'
import { createDetailReads, createScenarioRecordStatements } from '../store'
import { buildScenario, localName, type DeliveryOutcome, type EndpointRecord, type RecordedClock, type RecordedStep, type SubscriptionRecord } from './build-scenario'
import { parsedPayload } from '../sender'

export interface RecorderContext {
  engine(): Engine
  clock(): RecordedClock
}

export interface RecordingResult {
  /** The scenario as pretty JSON, ready for the editor and for `hookloop run`. */
  text: string
  scenario: ScenarioInput
  /** Validation problems by JSON path (empty when the file is valid). */
  problems: ScenarioProblem[]
  notes: string[]
}

export interface Recorder {
  view(): RecordingView
  start(): RecordingView
  /** Called after each command succeeded; `at` is the engine clock when it was asked. */
  record(command: CommandName, req: unknown, res: unknown, at: number): Promise<void>
  stop(): Promise<RecordingResult>
}

export class RecordingError extends Error {
  override readonly name = 'RecordingError'
}

/** Commands that change nothing worth replaying (reads) are not steps. */
const READS = new Set<CommandName>(['snapshot', 'timeline.page', 'delivery.get', 'request.get', 'import.toScenario'])

export function createRecorder(ctx: RecorderContext): Recorder {
  let active = false
  let startedAt = 0
  // The wall time the recording started: its name and description are dated by it, never by a
  // simulation's clock (which may be hours ahead after a retry schedule ran on it).
  let startedWallAt = 0
  let clock: RecordedClock = { mode: 'real' }
  let steps: RecordedStep[] = []
  let notes: string[] = []
  let commandCount = 0
  const endpoints = new Map<string, EndpointRecord>()
  const subscriptions = new Map<string, SubscriptionRecord>()
  let rulesFrozen = false

  const view = (): RecordingView => ({ active, startedAt: active ? startedAt : null, steps: commandCount, events: steps.filter((s) => s.kind === 'event').length })

  function endpointRecord(engine: Engine, id: string): EndpointRecord | null {
    const e = engine.receiver.endpoints.get(id)
    if (!e) return null
    const rules = engine.receiver.rules
      .list(id)
      .filter((r) => r.enabled)
      .sort((a, b) => a.position - b.position)
      .map((r) => r.rule)
    const definition: EndpointRecord['definition'] = { ...endpointDefinition(e), rules }
    return { id, definition }
  }

  function subscriptionRecord(engine: Engine, id: string): SubscriptionRecord | null {
    const s = engine.sender.getSubscription(id)
    if (!s) return null
    let endpointId: string | null = null
    let target: Record<string, string>
    if ('url' in s.target) target = { url: s.target.url }
    else {
      const slug = s.target.endpoint
      endpointId = engine.receiver.endpoints.list().find((e) => e.slug === slug)?.id ?? null
      target = { endpoint: slug }
      if (endpointId && !endpoints.has(endpointId)) {
        const record = endpointRecord(engine, endpointId)
        if (record) endpoints.set(endpointId, record)
      }
    }
    const presetName = s.policy.name
    // A preset as it ships is named; anything else is written out in full.
    const policy = isPolicyPresetId(presetName) && JSON.stringify(POLICY_PRESETS[presetName]) === JSON.stringify(s.policy) ? presetName : { ...s.policy }
    const local = localName(s.name, new Set([...subscriptions.values()].map((r) => r.local)))
    return {
      id,
      local,
      endpointId,
      jitter: (s.policy.jitter?.ratio ?? 0) > 0,
      definition: {
        name: s.name,
        ...target,
        // A provider's subscription replays as that provider: its headers, envelope and version.
        ...(s.provider ? { provider: s.provider, ...(s.apiVersion ? { api_version: s.apiVersion } : {}) } : {}),
        scheme: s.scheme,
        secrets: [s.secret, ...s.retiredSecrets].filter((x): x is string => typeof x === 'string' && x !== ''),
        policy,
        ...(Object.keys(s.headers).length > 0 ? { headers: s.headers } : {}),
        ...(s.eventIdHeader ? { event_id_header: s.eventIdHeader } : {}),
        ...(s.envelope === 'payload' && !s.provider ? { envelope: s.envelope } : {}),
      },
    }
  }

  /** Setup as it stands when it is first used: a subscription's secret before any rotation. */
  function knowSubscription(id: string): void {
    if (subscriptions.has(id)) return
    const record = subscriptionRecord(ctx.engine(), id)
    if (record) subscriptions.set(id, record)
  }

  /** Rules are fixed in a scenario: they are read when the first event goes out. */
  function freezeRules(): void {
    if (rulesFrozen) return
    rulesFrozen = true
    const engine = ctx.engine()
    for (const id of endpoints.keys()) {
      const record = endpointRecord(engine, id)
      if (record) endpoints.set(id, record)
    }
    if (engine.receiver.rules.list(null).some((r) => r.enabled)) notes.push('rules for every endpoint are not part of a scenario; they were left out')
  }

  const deliveriesOfEvent = (engine: Engine, eventId: string): number[] => createScenarioRecordStatements(engine.db).deliveryIdsOfEvent(eventId)

  function eventStep(at: number, eventId: string, type: string, payload: unknown, faults: SendFaultInput[], subscriptionId: string): void {
    freezeRules()
    knowSubscription(subscriptionId)
    steps.push({ kind: 'event', at, eventId, type, payload, faults, subscriptionId, deliveryIds: deliveriesOfEvent(ctx.engine(), eventId) })
  }

  return {
    view,
    start() {
      if (active) throw new RecordingError('a recording is already running; stop it first')
      const engine = ctx.engine()
      active = true
      startedAt = engine.clock.now()
      startedWallAt = engine.wallClock.now()
      clock = ctx.clock()
      steps = []
      notes = []
      commandCount = 0
      endpoints.clear()
      subscriptions.clear()
      rulesFrozen = false
      return view()
    },
    async record(command, req, res, at) {
      if (!active || READS.has(command)) return
      commandCount++
      const engine = ctx.engine()
      switch (command) {
        case 'endpoint.create': {
          const id = (res as { id: string }).id
          const record = endpointRecord(engine, id)
          if (record) endpoints.set(id, record)
          if (rulesFrozen) notes.push(`endpoint ${record?.definition.slug ?? id} was created after the first event; it is set up from the start in the scenario`)
          return
        }
        case 'rule.addPreset':
        case 'rule.update':
        case 'rule.setEnabled':
        case 'rule.move':
        case 'rule.delete':
          if (rulesFrozen) notes.push(`a rule changed after the first event (${command}); a scenario's rules hold for the whole run, so the rules as they were at the first event are used`)
          return
        case 'endpoint.setForwardTo': {
          // Endpoints, like rules, are read when the first event goes out.
          const id = (req as { id: string }).id
          if (rulesFrozen) notes.push(`endpoint ${endpoints.get(id)?.definition.slug ?? id}'s forward target changed after the first event; the scenario keeps the one it had then`)
          else {
            const record = endpointRecord(engine, id)
            if (record) endpoints.set(id, record)
          }
          return
        }
        case 'request.resend':
          notes.push('a resend to your app is not part of a scenario; it was left out')
          return
        case 'endpoint.delete':
          notes.push('an endpoint was deleted while recording; the scenario keeps it as it was')
          return
        case 'subscription.create':
          knowSubscription((res as { id: string }).id)
          return
        case 'subscription.setPaused': {
          const r = req as { id: string; paused: boolean }
          knowSubscription(r.id)
          steps.push({ kind: r.paused ? 'pause' : 'resume', at, subscriptionId: r.id })
          return
        }
        case 'subscription.rotateSecret': {
          const r = req as { id: string }
          knowSubscription(r.id)
          steps.push({ kind: 'rotate-secret', at, subscriptionId: r.id })
          return
        }
        case 'event.send': {
          const r = req as { subscriptionId: string; eventType: string; payload?: string; faults: SendFaultInput['type'][] }
          const given = r.payload === undefined ? undefined : (JSON.parse(r.payload) as unknown)
          for (const eventId of (res as { eventIds: string[] }).eventIds) {
            // A provider's catalog payload is made afresh per event: the scenario keeps what each one sent.
            const payload = given !== undefined ? given : parsedPayload((await engine.sender.viewPayload(deliveriesOfEvent(engine, eventId)[0] ?? -1)).payload)
            eventStep(at, eventId, r.eventType, payload, r.faults.map((type) => ({ type })), r.subscriptionId)
          }
          return
        }
        case 'delivery.replay': {
          // A replay is a new event with the same payload, signed afresh: it is one in the scenario too.
          const { delivery } = await engine.sender.getDelivery((res as { deliveryId: number }).deliveryId)
          const payload = parsedPayload((await engine.sender.viewPayload(delivery.id)).payload)
          eventStep(at, delivery.eventId, delivery.eventType, payload, [], delivery.subscriptionId)
          return
        }
        case 'delivery.retryNow':
          steps.push({ kind: 'retry-now', at, deliveryId: (req as { id: number }).id })
          return
        case 'loop.try': {
          const r = res as { endpointId: string; subscriptionId: string; eventId: string }
          const record = endpointRecord(engine, r.endpointId)
          if (record) endpoints.set(r.endpointId, record)
          knowSubscription(r.subscriptionId)
          const { delivery } = await engine.sender.getDelivery(deliveriesOfEvent(engine, r.eventId)[0] ?? -1)
          const payload = parsedPayload((await engine.sender.viewPayload(delivery.id)).payload)
          eventStep(at, r.eventId, delivery.eventType, payload, [], r.subscriptionId)
          return
        }
        case 'clock.set':
          if (steps.some((s) => s.kind === 'event')) notes.push('the clock mode changed after the first event; the scenario keeps the mode the recording started with')
          else {
            // Nothing sent yet: the scenario simply runs on the new clock, from now.
            startedAt = ctx.engine().clock.now()
            clock = ctx.clock()
          }
          return
        default:
          return
      }
    },
    async stop() {
      if (!active) throw new RecordingError('no recording is running; press Record first')
      const engine = ctx.engine()
      const stoppedAt = engine.clock.now()
      active = false
      if (!steps.some((s) => s.kind === 'event')) throw new RecordingError('nothing was sent while recording: a scenario needs at least one event')
      // A delivery written after its command answered is found now: every event gets its expectations.
      steps = steps.map((s) => (s.kind === 'event' && s.deliveryIds.length === 0 ? { ...s, deliveryIds: deliveriesOfEvent(engine, s.eventId) } : s))
      const records = createDetailReads(engine.db)
      // Which delivery each one copies (a `duplicate` fault), read before the scenario is built.
      const duplicateOf = new Map<number, number | null>()
      for (const step of steps) {
        if (step.kind !== 'event') continue
        for (const id of step.deliveryIds) {
          const found = await engine.sender.getDelivery(id).catch(() => undefined)
          if (found) duplicateOf.set(id, found.delivery.duplicateOf)
        }
      }
      const delivery = (id: number): DeliveryOutcome | undefined => {
        const row = records.delivery(id)
        if (!row) return undefined
        return {
          id,
          subscriptionId: row.subscription_id,
          duplicateOf: duplicateOf.get(id) ?? null,
          status: row.status,
          attempts: records.attempts(id).map((a) => ({ n: a.n, startedAt: a.started_at, outcome: a.outcome, verifyReason: a.verify_reason, duplicateNumber: a.duplicate_number })),
        }
      }
      const scenario = buildScenario({
        name: `Recorded session ${new Date(startedWallAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        clock,
        startedAt,
        startedWallAt,
        stoppedAt,
        steps,
        endpoints,
        subscriptions,
        delivery,
        notes,
      })
      const checked = validateScenario(scenario)
      const problems = checked.ok ? [] : checked.problems
      // Never a file that passes on nothing: say so instead (the run would fail "no expectations").
      if ((scenario.expect?.deliveries?.length ?? 0) === 0) problems.push({ path: 'expect', message: 'no expectations: none of the recorded events has a delivery to judge' })
      return { text: JSON.stringify(scenario, null, 2) + '\n', scenario, problems, notes: [...notes] }
    },
  }
}
