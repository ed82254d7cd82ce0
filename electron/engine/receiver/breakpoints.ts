// Breakpoints on the receiver: which requests to hold (matched by the rule engine's own compiled
// matchers: a breakpoint is a rule whose one step is "hold"), the requests held right now, and
// what a person decides for each (release, edit and release, answer by hand, drop) or what its
// limit does when nobody decides. Each held request is its own: many may be held at once, each
// with its own limit. The list is kept in the data folder (store/breakpoints.ts), so it survives
// a restart. What the hold did to the request is written by handle-request.ts, on its row.
import { randomUUID } from 'node:crypto'
import type { Clock } from '../../../shared/clock'
import { defaultHoldLimitMs } from '../../../shared/providers'
import { DefinitionError, handAnswerSchema, holdEditSchema, parseBreakpoint, toDefinitionError, type Breakpoint, type HeldRequest, type HoldDecision, type HoldExpiry, type JsonPath, type ReceiverEvent, type Rule } from '../../../shared/receiver'
import { DEFAULT_WORKSPACE, type BreakpointStore, type BreakpointStoreOn, type HeldRequestSharing } from '../store'
import { createRuleEngine, type MatchInput } from './rule-engine'

/** How a hold came to its end. */
export type HoldOutcome =
  | { kind: 'decided'; decision: HoldDecision }
  | { kind: 'expired'; expiry: HoldExpiry }
  | { kind: 'client_gone' }

interface Held {
  request: HeldRequest
  /** Whether the rules' planned answer is a plain reply, whose status an edit may change. */
  plainAnswer: boolean
  decide(decision: HoldDecision): void
}

export interface Breakpoints {
  list(): Breakpoint[]
  /**
   * Adds a breakpoint, or replaces the one with its id; validated here (DefinitionError names the
   * field). One for every endpoint is `workspaceId`'s (a served Hookloop with accounts: the
   * caller's; else the one it replaces, or `default`) and holds that workspace's requests only.
   */
  put(input: unknown, workspaceId?: string): Breakpoint
  remove(id: string): boolean
  /** Another process changed the list in the store (awaitable on a team's PostgreSQL; a failed read is told as store.error). */
  reload(): void | Promise<void>
  /** The breakpoint a request at the endpoint, which is in `workspace`, stops at, if any. */
  match(endpointId: string, workspace: string, input: MatchInput): Breakpoint | null
  /** The body fields the endpoint's breakpoints (its own and its workspace's for every endpoint) read. */
  jsonPaths(endpointId: string, workspace: string): readonly JsonPath[]
  /** The hold limit for a request of an endpoint verified with this scheme. */
  limitFor(breakpoint: Breakpoint, scheme: Parameters<typeof defaultHoldLimitMs>[0]): number
  /** Holds a request until a decision, its limit, or `ends` (the client went away, the receiver stops). */
  hold(request: HeldRequest, plainAnswer: boolean, ends: AbortSignal): Promise<HoldOutcome>
  /** The requests held right now, oldest first. */
  held(): HeldRequest[]
  /** Decides for a held request; throws DefinitionError when it is not held, or the decision does not fit it. */
  decide(requestId: number, decision: HoldDecision): void
}

export interface BreakpointDeps {
  /**
   * Where the list is kept: a data folder's (read and written at once) or a team's PostgreSQL
   * (awaited: the list in memory changes at once, its saves go to the store in order behind it).
   */
  store: BreakpointStore | BreakpointStoreOn
  /** A person acts in real time: holds run on the wall clock, whatever clock the engine runs on. */
  wallClock: Clock
  emit(event: ReceiverEvent): void
  newId?: () => string
  /** Held requests said in the data folder, so another process (`hookloop mcp`, `hookloop breakpoint`) can decide for them. */
  shared?: HeldRequestSharing
}

/** How often the asks of other processes are read, only while something is held. */
export const ASK_POLL_MS = 100

// The rule engine wants steps; a breakpoint's "step" is the hold itself, which the engine never runs.
const HOLD_STEP = Object.freeze({ type: 'close' as const })

/** The workspace a breakpoint for every endpoint holds the requests of (one saved before workspaces: `default`). */
const workspaceOf = (b: Breakpoint): string => b.workspaceId ?? DEFAULT_WORKSPACE

export function createBreakpoints(deps: BreakpointDeps): Breakpoints {
  const engine = createRuleEngine()
  const newId = deps.newId ?? (() => `bp_${randomUUID().slice(0, 8)}`)
  let breakpoints: Breakpoint[] = []
  const byId = new Map<string, Breakpoint>()
  const holding = new Map<number, Held>()
  // Asked on every request: an endpoint with none (the usual case) is two set reads.
  let endpointsWith = new Set<string>()
  let workspacesWith = new Set<string>()

  function load(list: Breakpoint[]): void {
    breakpoints = list
    byId.clear()
    const endpointRules = new Map<string, { id: string; rule: Rule }[]>()
    const everyEndpoint = new Map<string, { id: string; rule: Rule }[]>()
    for (const b of list) {
      byId.set(b.id, b)
      const entry = { id: b.id, rule: { enabled: b.enabled, matchers: b.matchers, steps: [HOLD_STEP] } }
      const [group, key] = b.endpointId === null ? [everyEndpoint, workspaceOf(b)] : [endpointRules, b.endpointId]
      group.set(key, [...(group.get(key) ?? []), entry])
    }
    engine.load(endpointRules, everyEndpoint)
    const enabled = list.filter((b) => b.enabled)
    endpointsWith = new Set(enabled.flatMap((b) => (b.endpointId === null ? [] : [b.endpointId])))
    workspacesWith = new Set(enabled.filter((b) => b.endpointId === null).map(workspaceOf))
  }
  const storeError = (what: string) => (error: unknown) => deps.emit({ type: 'store.error', message: `${what}: ${error instanceof Error ? error.message : String(error)}`, pending: 0 })
  const reload = (): void | Promise<void> => {
    const stored = deps.store.load()
    if (!(stored instanceof Promise)) return load(stored.breakpoints)
    return stored.then((found) => load(found.breakpoints), storeError('breakpoints could not be read'))
  }
  // On a team's store the saves follow one another: the last list put is the one kept.
  let saving: Promise<void> = Promise.resolve()
  const save = (list: Breakpoint[]): void => {
    const saved = deps.store.save(list)
    if (saved instanceof Promise) saving = saving.then(() => saved).catch(storeError('breakpoints could not be saved'))
  }
  void reload()

  // Asks from other processes on the folder, read while something is held (and only then).
  let asks: NodeJS.Timeout | null = null
  const shared = deps.shared
  const notShared = storeError('held requests could not be shared')
  const tolerant = (what: () => unknown) => {
    try {
      const done = what()
      if (done instanceof Promise) done.catch(notShared)
    } catch (error) {
      // The folder being busy must not fail a hold: this process's own UI still decides.
      notShared(error)
    }
  }
  // One read of the asks at a time (a team's store answers later than the next poll).
  let reading = false
  function readAsks(): void {
    if (!shared || reading) return
    const act = (asks: { requestId: number; decision: HoldDecision }[]) => {
      for (const { requestId, decision } of asks) {
        try {
          decideFor(requestId, decision)
        } catch (error) {
          tolerant(() => shared.refuse(requestId, error instanceof Error ? error.message : String(error)))
        }
      }
    }
    tolerant(() => {
      const asks = shared.takeAsks(new Set(holding.keys()))
      if (!(asks instanceof Promise)) return act(asks)
      reading = true
      return asks.then(act).finally(() => (reading = false))
    })
  }
  function watchAsks(): void {
    if (!shared) return
    if (holding.size > 0 && asks === null) {
      asks = setInterval(readAsks, ASK_POLL_MS)
      asks.unref()
    } else if (holding.size === 0 && asks !== null) {
      clearInterval(asks)
      asks = null
    }
  }

  function decideFor(requestId: number, decision: HoldDecision): void {
    const held = holding.get(requestId)
    if (!held) throw new DefinitionError('requestId', `request ${requestId} is not held (released already, or never stopped at a breakpoint)`)
    if (decision.action === 'release' && decision.edit) {
      const parsed = holdEditSchema.safeParse(decision.edit)
      if (!parsed.success) throw toDefinitionError(parsed.error, decision.edit, 'edit')
      if (parsed.data.status !== undefined && !held.plainAnswer) {
        throw new DefinitionError('edit.status', `the endpoint's rules do not answer this request with a plain reply (${held.request.plan}): answer it by hand to choose the status`)
      }
      if (parsed.data.resign && !held.request.canResign) throw new DefinitionError('edit.resign', "re-signing needs the endpoint's scheme and a secret; this endpoint has none")
    }
    if (decision.action === 'answer') {
      const parsed = handAnswerSchema.safeParse(decision.answer)
      if (!parsed.success) throw toDefinitionError(parsed.error, decision.answer, 'answer')
    }
    held.decide(decision)
  }

  const has = (endpointId: string, workspace: string) => endpointsWith.has(endpointId) || workspacesWith.has(workspace)

  return {
    list: () => [...breakpoints],
    put(input, workspaceId) {
      const given = typeof input === 'object' && input !== null && typeof (input as { id?: unknown }).id === 'string' ? undefined : newId()
      const parsed = parseBreakpoint(input, given ?? '')
      const replaced = byId.get(parsed.id)
      const b: Breakpoint = parsed.endpointId === null ? { ...parsed, workspaceId: workspaceId ?? (replaced ? workspaceOf(replaced) : DEFAULT_WORKSPACE) } : parsed
      const next = byId.has(b.id) ? breakpoints.map((x) => (x.id === b.id ? b : x)) : [...breakpoints, b]
      save(next)
      load(next)
      return b
    },
    remove(id) {
      if (!byId.has(id)) return false
      const next = breakpoints.filter((b) => b.id !== id)
      save(next)
      load(next)
      return true
    },
    reload,
    match(endpointId, workspace, input) {
      if (!has(endpointId, workspace)) return null
      const plan = engine.plan(endpointId, workspace, input)
      return plan?.ruleId ? (byId.get(plan.ruleId) ?? null) : null
    },
    jsonPaths: (endpointId, workspace) => (has(endpointId, workspace) ? engine.jsonPaths(endpointId, workspace) : []),
    limitFor: (breakpoint, scheme) => breakpoint.limitMs ?? defaultHoldLimitMs(scheme),
    async hold(request, plainAnswer, ends) {
      const timer = new AbortController()
      let decide!: (decision: HoldDecision) => void
      const decided = new Promise<HoldOutcome>((resolve) => {
        decide = (decision) => resolve({ kind: 'decided', decision })
      })
      holding.set(request.requestId, { request, plainAnswer, decide })
      if (shared) tolerant(() => shared.announce(request))
      watchAsks()
      deps.emit({ type: 'breakpoint.held', request })
      const limit = Math.max(0, request.expiresAt - request.heldAt)
      const expired = deps.wallClock.sleep(limit, timer.signal).then(
        (): HoldOutcome => ({ kind: 'expired', expiry: request.onExpiry }),
        () => new Promise<HoldOutcome>(() => {}), // cancelled: another ending won
      )
      // `ends` lives as long as the connection, which a keep-alive client reuses for its next
      // requests: the listener goes with this hold, not with the connection.
      let onGone = () => {}
      const gone = new Promise<HoldOutcome>((resolve) => {
        onGone = () => resolve({ kind: 'client_gone' })
        if (ends.aborted) onGone()
        else ends.addEventListener('abort', onGone, { once: true })
      })
      try {
        return await Promise.race([decided, expired, gone])
      } finally {
        ends.removeEventListener('abort', onGone)
        timer.abort()
        holding.delete(request.requestId)
        if (shared) tolerant(() => shared.withdraw(request.requestId))
        watchAsks()
      }
    },
    held: () => [...holding.values()].map((h) => h.request),
    decide: decideFor,
  }
}
