import type { KeyObject } from 'node:crypto'
import type { Dispatcher } from 'undici'
import type { Clock } from '../../../shared/clock'
import { decideAfterAttempt, type AttemptDecision } from '../../../shared/sender'
import type { AppliedFault } from '../../../shared/sender'
import { holdWork } from '../clock'
import type { Scheduler } from '../scheduler'
import { ATTEMPT_WRITE_SQL, type AttemptFinish, type AttemptRow, type NewAttempt, DELIVERY_WRITE_SQL, type DeliveryFinish, type DeliveryRow, type DeliveryStatus, type DueDelivery } from '../store'
import type { CachedDeliveries } from './delivery-cache'
import type { SqlWriter, WriteOp, StoredEvent, StoreReach, Subscription } from '../store'
import type { SenderEmitter } from './emitter'
import { postOnce, type PostResult } from './http-post'
import { attemptLink } from './attempt-link'
import { ATTEMPT_HEADER, type SignFn } from './request-headers'
import { buildAttemptRequest } from './attempt-request'
import type { SubscriptionBook } from './subscriptions'
import { attemptView, deliveryView, parseDeliveryFaults } from './views'

// One attempt of one delivery, start to record. The attempt row is written (and committed, in a
// group commit with the other attempts of the same event-loop turn, by the SqlWriter: inline or on
// its writer thread) before the request leaves, so its link travels in x-hookloop-attempt and a
// crash mid-request leaves a row that the next start finds and retries. Attempt ids are reserved
// here, in memory, after the highest id in the store: the id is known before the row is written,
// so the writer never has to hand one back. While the request is out, the attempt holds the clock
// (a virtual clock does not jump under real I/O), keyed by the attempt id so a receiver on the same
// clock can park it while it sleeps on the attempt's behalf.

/** Resolves a loop-mode target (an endpoint slug) to the URL to POST to right now. */
export type ResolveEndpointUrl = (slug: string) => string

/** Every statement the attempt path writes, by name (the SqlWriter's statement map). */
export const ATTEMPT_PATH_SQL = { ...ATTEMPT_WRITE_SQL, ...DELIVERY_WRITE_SQL } as const
type WriteName = keyof typeof ATTEMPT_PATH_SQL

const op = (name: WriteName, params: NewAttempt | AttemptFinish | DeliveryFinish | AttemptRow | { id: number; now: number }): WriteOp => [
  name,
  params as unknown as Record<string, unknown>,
]

export interface AttemptDeps {
  /** Commits the attempt path's writes (ATTEMPT_PATH_SQL). */
  writer: Pick<SqlWriter, 'write'>
  /** A team's PostgreSQL that can go away (store/postgres-engine.ts): an attempt's write lost with it is made again once it is back. */
  storeReach?: StoreReach
  clock: Clock
  events: { get(id: string): Promise<StoredEvent | undefined> }
  deliveries: CachedDeliveries
  /** Ids of new attempts, claimed from the store (another process on the folder may send too). */
  attemptIds: { next(): number | Promise<number> }
  subscriptions: SubscriptionBook
  scheduler: Scheduler
  emitter: SenderEmitter
  sign: SignFn
  /** The store's attempt link key (store/attempt-links.ts): what makes x-hookloop-attempt ours. */
  linkKey(): Promise<KeyObject>
  /** Ms the attempt's signature carries, given the subscription and the clock's now. */
  signingTime(sub: Subscription, clockNow: number): number
  /** Wall time now, ms: each attempt's wall start beside its start on the clock. */
  wallNow(): number
  /** Who this sender is when it claims a delivery (unique per process and sender). */
  claimOwner: string
  /** A claim lasts the attempt's timeout and this much more (wall ms) before another process may take it over. */
  claimMarginMs: number
  resolveEndpointUrl: ResolveEndpointUrl | undefined
  dispatcher: Dispatcher
  maxResponseBytes: number
  eventType(eventId: string): Promise<string>
}

function statusFor(decision: AttemptDecision): DeliveryStatus {
  switch (decision.decision) {
    case 'succeeded':
      return 'succeeded'
    case 'failed':
      return 'failed'
    case 'retry':
      return 'retrying'
    default: {
      const never: never = decision
      throw new Error(`unknown decision ${JSON.stringify(never)}`)
    }
  }
}

function targetUrl(deps: AttemptDeps, sub: Subscription): { url: string } | { error: string } {
  if ('url' in sub.target) return { url: sub.target.url }
  if (!deps.resolveEndpointUrl) return { error: `loop-mode target ${sub.target.endpoint} cannot be resolved: no receiver is attached to this sender` }
  try {
    return { url: deps.resolveEndpointUrl(sub.target.endpoint) }
  } catch (error) {
    return { error: `endpoint ${sub.target.endpoint}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

export function createAttemptRunner(deps: AttemptDeps) {
  const { writer, clock, deliveries, attemptIds, emitter } = deps

  const nextAttemptId = () => attemptIds.next()
  // Deliveries with an attempt being started or running in this process: a second heap entry for
  // one of them (retry now, a reschedule) must not start another attempt before the row says so.
  const running = new Set<number>()

  // A write that failed leaves the cached row unknown: the next read goes to the store.
  // One that failed because the store went away waits for it and is made again: an attempt whose
  // start or outcome is not recorded would be sent again by whoever takes its claim over, so the
  // attempt waits (the claim's lease covers it) rather than being cut. Its writes set what they
  // set whether made once or twice (attempt-runner's rows keyed by the attempt's id).
  async function committed(deliveryId: number, ops: WriteOp[]): Promise<void> {
    for (;;) {
      try {
        await writer.write(ops)
        return
      } catch (error) {
        deliveries.forget(deliveryId)
        if (!deps.storeReach?.lost()) throw error
        await deps.storeReach.back()
      }
    }
  }

  // Each write returns the attempt row as it now stands in the store, built from what was written
  // (the same object is the write's parameters: the writer reads only the columns its statement
  // names): the attempt events are made from it, with no read back.
  /** The next attempt of `row`, numbered and started at `now`, with nothing sent or known yet. */
  const nextAttempt = async (row: DeliveryRow, now: number): Promise<AttemptRow> => ({
    id: await nextAttemptId(),
    delivery_id: row.id,
    n: row.attempts + 1,
    started_at: now,
    started_wall_at: clock.mode === 'real' ? now : deps.wallNow(),
    duration_ms: null,
    outcome: 'in_flight',
    status_code: null,
    url: null,
    request_headers_json: null,
    response_headers_json: null,
    response_body: null,
    error: null,
    fault_json: null,
    decision: 'pending',
    next_attempt_at: null,
  })

  async function start(row: DeliveryRow, now: number, url: string | null, headersJson: string, faultJson: string | null): Promise<AttemptRow> {
    const attempt: AttemptRow = { ...(await nextAttempt(row, now)), url, request_headers_json: headersJson, fault_json: faultJson }
    await committed(row.id, [op('markStarted', { id: row.id, now }), op('insertStarted', attempt)])
    deliveries.started(row.id, now)
    return attempt
  }

  async function finish(started: AttemptRow, result: PostResult, decision: AttemptDecision): Promise<AttemptRow> {
    const next = decision.decision === 'retry' ? decision.at : null
    const delivery: DeliveryFinish = { id: started.delivery_id, status: statusFor(decision), last_status_code: result.statusCode, next_attempt_at: next, updated_at: clock.now() }
    const done: AttemptRow = {
      id: started.id,
      delivery_id: started.delivery_id,
      n: started.n,
      started_at: started.started_at,
      started_wall_at: started.started_wall_at,
      duration_ms: result.durationMs,
      outcome: result.outcome,
      status_code: result.statusCode,
      url: started.url,
      request_headers_json: started.request_headers_json,
      response_headers_json: result.responseHeaders ? JSON.stringify(result.responseHeaders) : null,
      response_body: result.responseBody,
      error: result.error,
      fault_json: started.fault_json,
      decision: decision.decision,
      next_attempt_at: next,
    }
    await committed(started.delivery_id, [op('finishAttempt', done), op('markFinished', delivery)])
    deliveries.finished(delivery)
    return done
  }

  async function recordDrop(row: DeliveryRow, now: number, faultJson: string): Promise<AttemptRow> {
    const delivery: DeliveryFinish = { id: row.id, status: 'failed', last_status_code: null, next_attempt_at: null, updated_at: now }
    const attempt: AttemptRow = { ...(await nextAttempt(row, now)), duration_ms: 0, outcome: 'dropped', fault_json: faultJson, decision: 'failed' }
    await committed(row.id, [op('markStarted', { id: row.id, now }), op('insertFinal', attempt), op('markFinished', delivery)])
    deliveries.started(row.id, now)
    deliveries.finished(delivery)
    return attempt
  }

  async function emitDelivery(id: number, type: 'delivery.created' | 'delivery.updated'): Promise<void> {
    if (!emitter.hasListeners(type)) return
    const row = await deliveries.get(id)
    if (row) emitter.emit(type, deliveryView(row, await deps.eventType(row.event_id)))
  }

  function emitAttempt(attempt: AttemptRow, eventId: string, type: 'attempt.started' | 'attempt.finished'): void {
    if (emitter.hasListeners(type)) emitter.emit(type, attemptView(attempt, eventId))
  }

  // `at-once` duplicates wait for the first attempt of the delivery they copy.
  async function releaseWaitingCopies(row: DeliveryRow): Promise<void> {
    for (const other of await deliveries.byEvent(row.event_id)) {
      if (other.id === row.id || other.attempts !== 0 || other.next_attempt_at !== null || other.in_flight) continue
      if (parseDeliveryFaults(other.faults_json).after_first_attempt_of !== row.id) continue
      const now = clock.now()
      await deliveries.reschedule(other.id, 'pending', now, now)
      deps.scheduler.schedule(other.id, now)
      await emitDelivery(other.id, 'delivery.updated')
    }
  }

  /**
   * Runs the attempt for a due entry; resolves when it is recorded (`requestDone` runs earlier, when
   * the HTTP exchange ends). Stale entries (the delivery was rescheduled, retried by hand or is
   * already running) resolve at once. The clock hold is taken synchronously, before the caller
   * regains control.
   */
  async function run(due: DueDelivery, requestDone: () => void = () => {}): Promise<void> {
    if (running.has(due.id)) return
    // Held from here until the outcome is recorded (or the entry is found stale): a virtual clock
    // does not jump while this attempt reads the store or does real work. Keyed by delivery until
    // the attempt id exists. Marked running at once: a second entry for it is dropped meanwhile.
    let release = holdWork(clock)
    running.add(due.id)
    try {
      const row = await deliveries.get(due.id)
      if (!row || row.in_flight === 1 || row.next_attempt_at !== due.next_attempt_at) return
      // Another process on the store may have found it due too: the claim decides who sends it.
      const timeoutMs = deps.subscriptions.get(row.subscription_id)?.policy.timeout_ms ?? 0
      if (!(await deliveries.claim(row.id, due.next_attempt_at, deps.claimOwner, deps.wallNow() + timeoutMs + deps.claimMarginMs))) return
      await attempt(
        row,
        (attemptId, timeoutMs) => {
          const keyed = holdWork(clock, { key: String(attemptId), maxRealMs: timeoutMs })
          release()
          release = keyed
        },
        requestDone,
      )
    } finally {
      running.delete(due.id)
      release()
    }
  }

  async function attempt(row: DeliveryRow, rekey: (attemptId: number, timeoutMs: number) => void, requestDone: () => void): Promise<void> {
    const sub = deps.subscriptions.require(row.subscription_id)
    const event = await deps.events.get(row.event_id)
    if (!event) throw new Error(`delivery ${row.id} names event ${row.event_id}, which is not in the store`)
    const faults = parseDeliveryFaults(row.faults_json)
    const now = clock.now()
    const first = row.attempts === 0
    const applied: AppliedFault[] = []
    if (faults.duplicate_of !== undefined && first) applied.push({ type: 'duplicate', detail: `second delivery of this event (copy of delivery ${faults.duplicate_of})` })
    const outOfOrder = faults.faults.find((f) => f.type === 'out-of-order')
    if (outOfOrder && first) applied.push({ type: 'out-of-order', detail: `held back ${outOfOrder.delay_ms} ms so later events go first` })
    const hasAtOnceCopy = first && faults.faults.some((f) => f.type === 'duplicate' && f.mode === 'at-once')

    if (faults.faults.some((f) => f.type === 'drop')) {
      applied.push({ type: 'drop', detail: 'a lost webhook: recorded, never sent' })
      const dropped = await recordDrop(row, now, JSON.stringify(applied))
      running.delete(row.id)
      emitAttempt(dropped, row.event_id, 'attempt.finished')
      await emitDelivery(row.id, 'delivery.updated')
      if (hasAtOnceCopy) await releaseWaitingCopies(row)
      return
    }

    // Built per attempt from the stored columns: the subscription's current envelope (or provider
    // pack) decides; signed at the subscription's signing time.
    const target = targetUrl(deps, sub)
    const built = buildAttemptRequest({
      sub,
      event,
      attempt: row.attempts + 1,
      url: 'url' in target ? target.url : '',
      signedAt: deps.signingTime(sub, now),
      faults: faults.faults,
      sign: deps.sign,
    })
    const url = 'url' in target ? built.url : null
    const body = built.body
    applied.push(...built.applied)
    // The attempt row is committed before the request leaves (its id is the x-hookloop-attempt link).
    const { headers } = built
    const started = await start(row, now, url, JSON.stringify(headers), applied.length > 0 ? JSON.stringify(applied) : null)
    const attemptId = started.id
    rekey(attemptId, sub.policy.timeout_ms)
    emitAttempt(started, row.event_id, 'attempt.started')
    await emitDelivery(row.id, 'delivery.updated')
    if (hasAtOnceCopy) await releaseWaitingCopies(row)
    // Sent, not recorded (request_headers_json is written above): the attempt's own link, which
    // only a process on this data folder can make, and only for these bytes (attempt-link.ts).
    headers[ATTEMPT_HEADER] = attemptLink(await deps.linkKey(), { id: attemptId, deliveryId: row.id, eventId: row.event_id }, body)
    const result: PostResult =
      url === null
        ? { outcome: 'connection_error', statusCode: null, responseHeaders: null, responseBody: null, durationMs: 0, error: 'error' in target ? target.error : null, finalUrl: '' }
        : await postOnce({
            url,
            headers,
            body,
            clock,
            timeoutMs: sub.policy.timeout_ms,
            followRedirects: sub.policy.follow_redirects,
            maxResponseBytes: deps.maxResponseBytes,
            dispatcher: deps.dispatcher,
            // A delivery that leaves Hookloop is real traffic: its duration is what the server took.
            wallDuration: 'url' in sub.target,
          })
    // The HTTP exchange is over: its concurrency slot can take the next attempt, whose start row
    // then shares this attempt's group commit.
    requestDone()
    // Policy and subscription may have changed while the request was out: the current ones decide.
    const policy = deps.subscriptions.require(row.subscription_id).policy
    const decision = decideAfterAttempt(policy, {
      attempt: row.attempts + 1 - row.interrupted,
      outcome: result.outcome,
      now: clock.now(),
      retryAfter: result.responseHeaders?.['retry-after'],
      jitterKey: String(row.id),
    })
    const finished = await finish(started, result, decision)
    running.delete(row.id) // recorded: no longer in flight for retryNow and the listeners below
    if (decision.decision === 'retry') deps.scheduler.schedule(row.id, decision.at)
    emitAttempt(finished, row.event_id, 'attempt.finished')
    await emitDelivery(row.id, 'delivery.updated')
  }

  return {
    run,
    emitDelivery,
    isRunning: (deliveryId: number) => running.has(deliveryId),
  }
}

export type AttemptRunner = ReturnType<typeof createAttemptRunner>
