// Retention: keeps the history within the store's limits (N days and/or N MB) and clears it
// on demand. The history is the captured requests and what the sender kept: settled deliveries
// (succeeded or failed, nothing scheduled) with their attempts, and events left without a
// delivery. A delivery still pending, retrying or in flight is never pruned; Clear history of one
// endpoint covers that endpoint's requests only. Work is done in small batches (a few hundred rows or a few MB each, one
// short write transaction), each followed by a rest three times as long as it took, so capture goes on while
// history is pruned; on a data folder freed pages are reused or given back to the file system
// (see GiveBack) and the WAL is truncated after a pass; a team's PostgreSQL reuses the space after
// VACUUM (run at the end of a pass that gives everything back; autovacuum otherwise).
//
// On either store engine (SqlEngine, awaited): a data folder's SQLite file or a team's PostgreSQL.
// Each batch selects and deletes in one transaction, so two passes never take the same rows; on
// PostgreSQL one pass at a time runs per store (store/history.ts, oneRetentionPass) and another
// is refused with RetentionBusyError; on a data folder the file's write lock takes one batch at a
// time and two passes (two processes) share the work.
//
// Two clocks are injected: `clock`, the wall clock (docs/time.md): real captures are stamped on it
// (received_at) and every delivery keeps its wall creation time (created_wall_at), so "older than
// N days" is a wall age whatever simulation runs; `timers` schedules the passes and the rests
// between batches. The engine hands an unref'd real clock as `timers`: a housekeeping timer must
// not be the next thing a virtual clock jumps to, nor keep a process alive.
import type { Clock, TimerHandle } from '../../../shared/clock'
import { RETENTION_LIMITS, type PruneResult, type RetentionSettings, type StoreSizeView } from '../../../shared/contract'
import { createAuditStore, createHistoryStore, createSenderHistoryStore, inHistoryBatch, oneRetentionPass, type BatchLimits, type HistorySelection, type HistoryStore, type SenderHistorySelection, type SenderHistoryStore, type SqlEngine } from '../store'

const DAY_MS = 86_400_000
const MB = 1_000_000

/** What pruning needs of a receiver writing to the same store (none when there is no receiver in this process). */
export interface CaptureHooks {
  /** Commit every queued capture (so none still points at a row about to go). */
  flush(): void
  /** These endpoints' dedupe numbering is to be read back from the store. */
  forgetDeleted(endpointIds: readonly string[]): void
}

export interface RetentionOptions {
  /** The store: a data folder's (createSqliteEngine over the engine's connection) or a team's PostgreSQL. */
  engine: SqlEngine
  clock: Clock
  timers: Clock
  capture?: CaptureHooks
  /**
   * Passes on a timer (default true). False: only what is asked (prune, Clear history, new
   * settings) runs; a scenario run on a team's store leaves the team's history to the team's own.
   */
  scheduled?: boolean
  /** Between scheduled passes (default a minute). */
  intervalMs?: number
  /** Until the first scheduled pass (default 10 s: start-up comes first). */
  firstPassMs?: number
  batch?: Partial<BatchLimits>
  /** What scheduled passes give back to the file system (default 'excess'; see GiveBack). */
  giveBack?: GiveBack
  /** After each pass that deleted something. */
  onPruned?(result: PruneResult): void
  /** A scheduled pass failed (the next one tries again); a pass skipped because another runs on the store is not a failure. */
  onError?(error: unknown): void
}

/**
 * What happens to the pages a prune frees. 'excess' (scheduled passes): new captures reuse them,
 * and only what is beyond a reserve goes back, in slices, at the end of the pass; 'all' (Clear
 * history, `hookloop prune`): everything goes back, in slices, as the batches go; 'none'.
 * Measured in docs/BENCHMARKS.md (retention): giving pages back while capture runs costs capture.
 */
export type GiveBack = 'excess' | 'all' | 'none'

/** One prune: by age and/or size, optionally one endpoint's, or everything up to now. */
export interface PrunePlan {
  /** Default: 'all' for a plan with `all` or `endpointId`, else the retention's giveBack. */
  giveBack?: GiveBack
  olderThanMs?: number
  maxBytes?: number
  endpointId?: string
  /** Every request that exists now (Clear history). */
  all?: boolean
  /** Called after each batch with what is deleted so far (a long prune shows progress). */
  onBatch?: (soFar: Readonly<Omit<PruneResult, 'size'>>) => void
}

export interface Retention {
  settings(): Promise<RetentionSettings>
  /** Saves the settings (rejects with a RangeError when out of bounds) and starts applying them; `applied` settles when that pass is done. */
  set(settings: RetentionSettings): Promise<RetentionSettings & { size: StoreSizeView; applied: Promise<PruneResult> }>
  size(): Promise<StoreSizeView>
  /** Runs a plan now (after any pass of this process in progress); RetentionBusyError when another process's pass runs on the store (PostgreSQL). */
  prune(plan: PrunePlan): Promise<PruneResult>
  /** Applies the saved settings now. */
  apply(): Promise<PruneResult>
  /** Stops the schedule and waits for a pass in progress to finish its batch. */
  stop(): Promise<void>
}

/** Another retention pass runs on this store (another process, or another `hookloop prune`): this one pruned nothing. */
export class RetentionBusyError extends Error {
  constructor(where: string) {
    super(`a retention pass is already running on ${where} (another process or \`hookloop prune\`); nothing was pruned by this one: try again when it is done`)
    this.name = 'RetentionBusyError'
  }
}

export const DEFAULT_BATCH: BatchLimits = { rows: 500, bytes: 4 * MB }
/** Pages one incremental-vacuum slice gives back (1 MB of 4 KB pages). */
const RECLAIM_SLICE_PAGES = 256
/** Rest after a batch, as a multiple of the time it took (measured: docs/BENCHMARKS.md, retention). */
const REST_FACTOR = 3
/** Bytes of free pages a scheduled pass gives back at most. */
const EXCESS_PER_PASS = 8 * MB

export function checkRetention(settings: RetentionSettings): RetentionSettings {
  const check = (value: number | null, bounds: { min: number; max: number }, what: string) => {
    if (value === null) return
    if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) throw new RangeError(`retention ${what} must be a whole number from ${bounds.min} to ${bounds.max}, or none (got ${value})`)
  }
  check(settings.days, RETENTION_LIMITS.days, 'days')
  check(settings.maxMb, RETENTION_LIMITS.maxMb, 'maxMb')
  return { days: settings.days, maxMb: settings.maxMb }
}

/** The plan that applies retention settings. */
export function retentionPlan(settings: RetentionSettings): PrunePlan {
  return {
    ...(settings.days === null ? {} : { olderThanMs: settings.days * DAY_MS }),
    ...(settings.maxMb === null ? {} : { maxBytes: settings.maxMb * MB }),
  }
}

/** Whether a prune deleted anything: a request, a delivery or an event. */
export function prunedAnything(result: Pick<PruneResult, 'deleted' | 'deliveries' | 'events'>): boolean {
  return result.deleted + result.deliveries + result.events > 0
}

export function createRetention(options: RetentionOptions): Retention {
  const { engine } = options
  const store = createHistoryStore(engine)
  const limits: BatchLimits = { ...DEFAULT_BATCH, ...options.batch }
  const intervalMs = options.intervalMs ?? 60_000
  const scheduledGiveBack = options.giveBack ?? 'excess'
  let timer: TimerHandle | null = null
  let stopped = false
  // One pass at a time in this process: a Clear history asked during a scheduled pass runs after it.
  let queue: Promise<unknown> = Promise.resolve()

  /** What one batch deleted, and the bytes it held; null when there was nothing (more) of its kind. */
  type Deleted = { bytes: number; deleted: number; deliveries: number; attempts: number; events: number } | null
  /** One batch, chosen and deleted inside one transaction by the stores made over its `tx`. */
  type Batch = (history: HistoryStore, sent: SenderHistoryStore) => Promise<Deleted>
  const none = { deleted: 0, deliveries: 0, attempts: 0, events: 0 }

  const requests =
    (selection: HistorySelection): Batch =>
    async (history) => {
      const batch = await history.nextBatch(selection, limits)
      if (batch.ids.length === 0) return null
      const deleted = await history.deleteIds(batch.ids)
      // Before the commit, with no turn of the event loop since the delete: no arrival can take a
      // dedupe number from a deleted row (queued captures were committed before the batch began).
      if (batch.keyedEndpointIds.length > 0) options.capture?.forgetDeleted(batch.keyedEndpointIds)
      return { ...none, bytes: batch.bytes, deleted }
    }
  const deliveries =
    (selection: SenderHistorySelection): Batch =>
    async (_history, sent) => {
      const batch = await sent.nextBatch(selection, limits)
      if (batch.ids.length === 0) return null
      return { ...none, bytes: batch.bytes, ...(await sent.deleteIds(batch.ids)) }
    }
  const loneEvents =
    (before: number): Batch =>
    async (_history, sent) => {
      const events = await sent.deleteOrphanEvents(before, limits.rows)
      return events === 0 ? null : { ...none, bytes: 0, events }
    }

  async function run(plan: PrunePlan): Promise<PruneResult> {
    const result = { deleted: 0, deliveries: 0, attempts: 0, events: 0, bytes: 0, batches: 0, reclaimedPages: 0 }
    const mode: GiveBack = plan.giveBack ?? (plan.all || plan.endpointId !== undefined ? 'all' : scheduledGiveBack)
    const clearing = plan.all || plan.endpointId !== undefined
    if (clearing) options.capture?.flush()
    const maxId = clearing ? await store.maxId() : undefined
    const maxDeliveryId = plan.all ? await createSenderHistoryStore(engine).maxId() : undefined
    const pageSize = await store.pageSize()
    // Freed pages go back in slices, each its own short transaction with a turn of the event
    // loop after it: one big incremental vacuum holds the write lock long enough to stall capture.
    const giveBack = async (pages: number) => {
      let left = pages
      while (mode !== 'none' && !stopped && left > 0) {
        const freed = await store.reclaim(Math.min(left, RECLAIM_SLICE_PAGES))
        if (freed === 0) return
        result.reclaimedPages += freed
        left -= freed
        await options.timers.sleep(0)
      }
    }
    // Each batch: its condition, its selection and its delete in one transaction (see the top).
    const step = async (next: Batch, more?: (history: HistoryStore) => Promise<boolean>) => {
      while (!stopped) {
        const started = options.timers.now()
        // Queued captures commit first (outside the batch: the writer may commit on a connection of
        // its own, which the batch's write lock would keep waiting), so none points at a row about to go.
        options.capture?.flush()
        const done = await inHistoryBatch(engine, async (history, sent): Promise<Deleted> => {
          if (more && !(await more(history))) return null
          return next(history, sent)
        })
        if (!done) return
        result.deleted += done.deleted
        result.deliveries += done.deliveries
        result.attempts += done.attempts
        result.events += done.events
        result.bytes += done.bytes
        result.batches++
        plan.onBatch?.(result)
        // Rest three times as long as the batch took: pruning takes at most a quarter of the
        // time, capture the rest (captures waiting on the socket get in between batches).
        await options.timers.sleep(Math.max(0, REST_FACTOR * (options.timers.now() - started)))
        // Clearing: the batch's pages go back as we go, so the file shrinks along with the history.
        if (mode === 'all') await giveBack(Math.ceil(done.bytes / pageSize) * 2 + 8)
      }
    }
    const scope = {
      ...(plan.endpointId === undefined ? {} : { endpointId: plan.endpointId }),
      ...(maxId === undefined ? {} : { maxId }),
    }
    const before = plan.olderThanMs === undefined ? undefined : options.clock.now() - plan.olderThanMs
    if (clearing) await step(requests({ ...scope, ...(before === undefined ? {} : { before }) }))
    else if (before !== undefined) await step(requests({ before }))
    // The sender's history: by age, or all of it that exists now (never one endpoint's clear).
    if (plan.endpointId === undefined && (plan.all || before !== undefined)) {
      await step(deliveries({ ...(before === undefined ? {} : { before }), ...(maxDeliveryId === undefined ? {} : { maxId: maxDeliveryId }) }))
      await step(loneEvents(before ?? options.clock.now() + 1))
    }
    // The audit is kept as long as the history's day limit, and no longer: a whole-store age
    // prune takes its old entries too. Clear history and one endpoint's prune leave it: what was
    // cleared, and by whom, is itself in the audit.
    if (before !== undefined && !clearing) {
      const audit = createAuditStore(engine)
      while (!stopped) {
        const gone = await audit.pruneBefore(before, limits.rows)
        if (gone < limits.rows) break
        await options.timers.sleep(0)
      }
    }
    if (plan.maxBytes !== undefined) {
      const maxBytes = plan.maxBytes
      // Oldest first, whichever kind it is: a request or a settled delivery (on a tie the delivery:
      // in loop mode it came first, and made the request).
      const older: Batch = async (history, sent) => {
        const sentAt = plan.endpointId === undefined ? await sent.oldestSettledAt() : null
        const receivedAt = await history.oldestAt()
        if (sentAt !== null && (receivedAt === null || sentAt <= receivedAt)) return (await deliveries({})(history, sent)) ?? requests(scope)(history, sent)
        return (await requests(scope)(history, sent)) ?? (plan.endpointId === undefined ? deliveries({})(history, sent) : null)
      }
      await step(older, async (history) => (await history.usedBytes()) > maxBytes)
    }
    if (prunedAnything(result) && !stopped) {
      if (mode === 'all') await giveBack(Number.MAX_SAFE_INTEGER)
      else if (mode === 'excess') {
        // Keep a reserve of free pages for the captures to come (the larger of 16 MB and a tenth
        // of the data); give back the rest, at most EXCESS_PER_PASS a pass (moving pages costs
        // capture: a big backlog goes back over several passes).
        const size = await store.size()
        const reserve = Math.max(16 * MB, size.usedBytes / 10)
        const free = size.fileBytes - size.usedBytes
        if (free > reserve) await giveBack(Math.floor(Math.min(free - reserve, EXCESS_PER_PASS) / pageSize))
      }
      if (!stopped) result.reclaimedPages += await store.settle(mode === 'all')
    }
    return { ...result, size: await store.size() }
  }

  /** The plan as one pass on the store, unless another process's pass runs there (RetentionBusyError). */
  async function pass(plan: PrunePlan): Promise<PruneResult> {
    let result: PruneResult | undefined
    const ran = await oneRetentionPass(engine, async () => {
      result = await run(plan)
    })
    if (!ran || !result) throw new RetentionBusyError(engine.where)
    return result
  }

  function enqueue(plan: () => Promise<PrunePlan>): Promise<PruneResult> {
    const next = queue.then(async () => pass(await plan()))
    queue = next.catch(() => undefined)
    return next
  }

  const apply = () => enqueue(async () => retentionPlan(await store.retention()))
  /** A pass in the background (scheduled, or after new settings): the UIs hear of it through onPruned. */
  const report = (pass: Promise<PruneResult>) =>
    pass
      .then((result) => (prunedAnything(result) ? options.onPruned?.(result) : undefined))
      // Another process's pass is doing the work: nothing failed, the next pass tries again.
      .catch((error: unknown) => (error instanceof RetentionBusyError ? undefined : options.onError?.(error)))

  function schedule(delayMs: number): void {
    if (stopped) return
    timer = options.timers.setTimer(delayMs, () => {
      timer = null
      void report(apply()).finally(() => schedule(intervalMs))
    })
  }
  if (options.scheduled ?? true) schedule(options.firstPassMs ?? 10_000)

  return {
    settings: () => store.retention(),
    async set(settings) {
      await store.setRetention(checkRetention(settings))
      // Applied at once, in the background like a scheduled pass: a long backlog must not hold
      // the answer (the UIs hear of the deleted rows through onPruned).
      const applied = apply()
      void report(applied)
      return { ...(await store.retention()), size: await store.size(), applied }
    },
    size: () => store.size(),
    prune: (plan) => enqueue(async () => plan),
    apply,
    async stop() {
      stopped = true
      timer?.cancel()
      timer = null
      await queue
    },
  }
}
