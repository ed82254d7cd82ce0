// Turns what a person did while recording (steps at the host's command layer) plus what came of
// it (the store's deliveries and attempts) into a scenario file in the format `hookloop run`
// takes. Pure: the engine's state reaches it through plain records, so it is unit-tested alone.
import type { ScenarioInput } from '../../../shared/scenario'
import type { DeliveryStatus, SendFaultInput } from '../../../shared/sender'

export type RecordedClock = { mode: 'real' } | { mode: 'scaled'; factor: number } | { mode: 'virtual' }

/** An endpoint as the scenario states it (a `hookloop listen` entry), rules as at the first event. */
export interface EndpointRecord {
  id: string
  definition: Record<string, unknown> & { slug: string }
}

export interface SubscriptionRecord {
  id: string
  /** The scenario's name for it (letters, digits, "_", ".", "-"). */
  local: string
  definition: Record<string, unknown>
  /** Loop mode: the id of the endpoint it delivers to. */
  endpointId: string | null
  /** The policy spreads its retries with random jitter: attempt times will not repeat exactly. */
  jitter: boolean
}

export interface RecordedAttemptOutcome {
  n: number
  startedAt: number
  outcome: string
  verifyReason: string | null
  duplicateNumber: number | null
}

export interface DeliveryOutcome {
  id: number
  subscriptionId: string
  duplicateOf: number | null
  status: DeliveryStatus
  attempts: RecordedAttemptOutcome[]
}

export type RecordedStep =
  | { kind: 'event'; at: number; eventId: string; type: string; payload: unknown; faults: SendFaultInput[]; subscriptionId: string; deliveryIds: number[] }
  | { kind: 'retry-now'; at: number; deliveryId: number }
  | { kind: 'pause' | 'resume' | 'rotate-secret'; at: number; subscriptionId: string }

export interface BuildInput {
  name: string
  clock: RecordedClock
  /** Clock time when the recording started (ms since the epoch on the engine's clock: a simulation's, maybe). */
  startedAt: number
  /** Wall time when the recording started: the one the file's description dates it by (docs/time.md). */
  startedWallAt?: number
  stoppedAt: number
  steps: readonly RecordedStep[]
  endpoints: ReadonlyMap<string, EndpointRecord>
  subscriptions: ReadonlyMap<string, SubscriptionRecord>
  delivery(id: number): DeliveryOutcome | undefined
  /** Things the scenario cannot say exactly as they happened, passed on to the person. */
  notes: string[]
}

/** Allowed drift of attempt times: none on a virtual clock, real timers need some. */
export function toleranceFor(clock: RecordedClock): number {
  switch (clock.mode) {
    case 'virtual':
      return 0
    case 'scaled':
      // 250 ms of real timer, network and busy-machine jitter is `factor` times that on the scenario clock.
      return Math.max(1000, Math.round(250 * clock.factor))
    case 'real':
      return 1000
    default: {
      const never: never = clock
      return never
    }
  }
}

function scenarioClock(clock: RecordedClock, startedAt: number): ScenarioInput['clock'] {
  const start = new Date(startedAt).toISOString()
  switch (clock.mode) {
    case 'virtual':
      return { mode: 'virtual', start }
    case 'scaled':
      return { mode: 'scaled', factor: clock.factor, start }
    case 'real':
      return { mode: 'real' }
    default: {
      const never: never = clock
      return never
    }
  }
}

type DeliveryExpectationInput = NonNullable<NonNullable<ScenarioInput['expect']>['deliveries']>[number]

function expectationFor(event: string, subscription: string, delivery: DeliveryOutcome, loop: boolean, tolerance: number, jitter: boolean): DeliveryExpectationInput {
  const attempts = [...delivery.attempts].sort((a, b) => a.n - b.n)
  const first = attempts[0]?.startedAt ?? 0
  const exp: DeliveryExpectationInput = {
    event,
    subscription,
    ...(delivery.duplicateOf !== null ? { copy: true } : {}),
    status: delivery.status,
    attempts: attempts.length,
  }
  // With jitter the times are random by design; the count and outcomes still say what happened.
  if (!jitter && attempts.length > 0) {
    exp.at_ms = attempts.map((a) => a.startedAt - first)
    if (tolerance > 0) exp.tolerance_ms = tolerance
  }
  if (attempts.length > 0) exp.outcomes = attempts.map((a) => a.outcome)
  if (loop && attempts.length > 0) {
    exp.duplicates = attempts.map((a) => a.duplicateNumber)
    exp.duplicates_flagged = attempts.filter((a) => (a.duplicateNumber ?? 0) > 1).length
    const reasons = attempts.map((a) => a.verifyReason)
    if (reasons.every((r): r is string => r !== null)) exp.signatures = reasons.every((r) => r === reasons[0]) ? (reasons[0] as string) : reasons
  }
  return exp
}

export function buildScenario(input: BuildInput): ScenarioInput {
  const notes = input.notes
  const events: NonNullable<ScenarioInput['events']> = []
  const actions: NonNullable<ScenarioInput['actions']> = []
  const deliveries: DeliveryExpectationInput[] = []
  const usedSubscriptions = new Set<string>()
  /** delivery id → the event (local name) it belongs to, for Retry now. */
  const eventOfDelivery = new Map<number, { event: string; subscription: string }>()
  const tolerance = toleranceFor(input.clock)
  // Steps keep the order they were done in. On a virtual clock many happen at the same instant
  // (the clock stands still between clicks, and sits on the time of the retry that just ran), but
  // a run sets its step timers first, so at one instant they would go before the engine's retries
  // and an action before the event it needs. So each step after the first goes 1 ms after both the
  // previous step and its own instant; the shift carries on to every later step, keeping what the
  // engine did in between in the same order relative to the person's steps.
  let last = -1
  let shift = 0
  const at = (time: number) => {
    const raw = Math.max(0, Math.round(time - input.startedAt))
    last = last < 0 ? raw : Math.max(raw + shift + 1, last + 1)
    shift = last - raw
    return last
  }
  let unsettled = false

  for (const step of input.steps) {
    switch (step.kind) {
      case 'event': {
        const sub = input.subscriptions.get(step.subscriptionId)
        if (!sub) {
          notes.push(`an event of type ${step.type} went to a subscription that no longer exists; left out`)
          break
        }
        usedSubscriptions.add(sub.id)
        const local = `e${events.length + 1}`
        events.push({
          id: local,
          type: step.type,
          payload: step.payload as never,
          event_id: step.eventId,
          subscriptions: [sub.local],
          at_ms: at(step.at),
          ...(step.faults.length > 0 ? { faults: step.faults } : {}),
        })
        for (const id of step.deliveryIds) {
          const delivery = input.delivery(id)
          if (!delivery) continue
          if (delivery.duplicateOf === null) eventOfDelivery.set(id, { event: local, subscription: sub.local })
          if (delivery.status === 'pending' || delivery.status === 'retrying') unsettled = true
          deliveries.push(expectationFor(local, sub.local, delivery, sub.endpointId !== null, tolerance, sub.jitter))
        }
        break
      }
      case 'retry-now': {
        const target = eventOfDelivery.get(step.deliveryId)
        if (!target) {
          notes.push(`Retry now on delivery #${step.deliveryId}, which was not sent while recording; left out`)
          break
        }
        actions.push({ type: 'retry-now', at_ms: at(step.at), event: target.event, subscription: target.subscription })
        break
      }
      case 'pause':
      case 'resume':
      case 'rotate-secret': {
        const sub = input.subscriptions.get(step.subscriptionId)
        if (!sub) {
          notes.push(`${step.kind} on a subscription that no longer exists; left out`)
          break
        }
        usedSubscriptions.add(sub.id)
        actions.push({ type: step.kind, at_ms: at(step.at), subscription: sub.local })
        break
      }
      default: {
        const never: never = step
        return never
      }
    }
  }

  // Attempts made by an action (Retry now) moved with it: allow the few ms the steps were spread by.
  if (shift > 0) {
    for (const exp of deliveries) if (exp.at_ms !== undefined) exp.tolerance_ms = Math.max(exp.tolerance_ms ?? 0, shift)
  }
  const subscriptions = [...input.subscriptions.values()].filter((s) => usedSubscriptions.has(s.id))
  const endpointIds = new Set(subscriptions.map((s) => s.endpointId).filter((id): id is string => id !== null))
  const endpoints = [...input.endpoints.values()].filter((e) => endpointIds.has(e.id))
  const scenario: ScenarioInput = {
    version: 1,
    name: input.name,
    description: `Recorded in Hookloop on ${new Date(input.startedWallAt ?? input.startedAt).toISOString()}; expectations are what happened then.`,
    clock: scenarioClock(input.clock, input.startedAt),
    // Stopped while deliveries were still retrying: look at the same moment, not at the end.
    ...(unsettled ? { max_duration_ms: Math.max(1, Math.round(input.stoppedAt - input.startedAt) + shift, last + 1) } : {}),
    endpoints: endpoints.map((e) => e.definition) as never,
    subscriptions: subscriptions.map((s) => ({ id: s.local, ...s.definition })) as never,
    events,
    ...(actions.length > 0 ? { actions } : {}),
    expect: { deliveries },
  }
  return scenario
}

/** A name the scenario format accepts, unique among `taken`. */
export function localName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 40) || 'sub'
  let out = base
  for (let i = 2; taken.has(out) && i < 10_000; i++) out = `${base}-${i}`
  return out
}
