import { randomBytes } from 'node:crypto'
import type { TunnelEvents, TunnelNotice, TunnelState } from '../../../shared/tunnel'
import { requestAssignment, TunnelRequestError, type TunnelAssignment } from './assignment'
import { backoffDelay } from './backoff'
import { checkHealth, type HealthProblem } from './health'
import { resolveTunnelOptions, type TunnelManagerOptions } from './options'
import { sameState } from './same-state'
import { serverView } from './server-status'
import { createSocketPool, type SocketPool } from './socket-pool'

export interface TunnelManager {
  /** Starts (or, after `offline`, restarts) the tunnel; does nothing while it runs. */
  start(): void
  /** Closes every socket and stops retrying; the state becomes `stopped`. */
  stop(): Promise<void>
  readonly state: TunnelState
  /** The public URL while requests can reach the receiver through it (online or degraded). */
  publicUrl(): string | undefined
  sockets(): { live: number; max: number }
  /** Subscribes; returns the unsubscribe function. A listener that throws does not break the tunnel. */
  on<K extends keyof TunnelEvents>(event: K, listener: (payload: TunnelEvents[K]) => void): () => void
}

interface OpenTunnel {
  assignment: TunnelAssignment
  pool: SocketPool
  /** A health check through the public URL passed since the sockets opened. */
  verified: boolean
  healthFailures: number
  healthInFlight: boolean
  health: AbortController
  degradedTimer: NodeJS.Timeout | undefined
  /** When the current shortfall of sockets began (Date.now()); undefined while the pool is full. */
  shortSince: number | undefined
}

// localtunnel-server frees an id 1 s after its last socket closed, and until then hands out a
// random one instead. A rebuild asks again this often, this many times, before it settles for
// another id (then reported as url-changed, and the wanted one is asked for at the next rebuild).
const WANTED_ID_TRIES = 4
const WANTED_ID_RETRY_MS = 1000
// A replaced pool closes each socket once its request is answered; what is still open after
// this is closed (the receiver's own request deadlines end far sooner).
const DRAIN_MS = 120_000

/**
 * Keeps a public URL pointing at the receiver: asks a localtunnel server for a tunnel (with a
 * deadline), keeps its sockets open, checks the URL end to end, and rebuilds a dead tunnel with
 * exponential backoff. Every error ends in a state; nothing is thrown after creation.
 */
export function createTunnelManager(options: TunnelManagerOptions): TunnelManager {
  const opts = resolveTunnelOptions(options)
  const healthSecret = randomBytes(16).toString('hex')
  const listeners: { [K in keyof TunnelEvents]: Set<(payload: TunnelEvents[K]) => void> } = { state: new Set(), notice: new Set() }
  const timers = new Set<NodeJS.Timeout>()
  let state: TunnelState = { kind: 'stopped' }
  let running = false
  // Bumped on every teardown: callbacks from an older tunnel see the mismatch and do nothing.
  let generation = 0
  let attempt = 0
  let requestAbort: AbortController | undefined
  let tunnel: OpenTunnel | undefined
  // Pools of torn-down tunnels still carrying requests (make before break); stop() closes them.
  const draining = new Set<SocketPool>()
  // The tunnel a failed health check replaces, kept running until its successor is in place: when
  // the server hands out another id because it still holds this one, and this one answers a
  // health check again (a server that was only frozen for a while), it is kept after all.
  let standby: OpenTunnel | undefined
  // Asked for at every rebuild so the URL configured at a provider keeps working: the subdomain
  // the user asked for, or else the first one granted (never a stand-in granted later).
  let wantedId: string | undefined = opts.subdomain
  let lastUrl: string | undefined

  function emit<K extends keyof TunnelEvents>(event: K, payload: TunnelEvents[K]) {
    for (const listener of [...listeners[event]]) {
      try {
        listener(payload)
      } catch {
        // A listener's bug must not take the tunnel down with it.
      }
    }
  }

  function setState(next: TunnelState) {
    if (sameState(next, state)) return
    state = next
    emit('state', next)
  }

  function later(ms: number, fn: () => void): NodeJS.Timeout {
    const gen = generation
    const timer = setTimeout(() => {
      timers.delete(timer)
      if (gen === generation) fn()
    }, ms)
    timers.add(timer)
    return timer
  }

  /** Everything scheduled or asked for by the current tunnel stops; its callbacks see the mismatch. */
  function cancelPending() {
    generation++
    requestAbort?.abort()
    requestAbort = undefined
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
  }

  /** `drain`: requests in flight on the old sockets are answered before those sockets close. */
  function teardown(how: 'drain' | 'close') {
    cancelPending()
    if (tunnel) {
      const t = tunnel
      tunnel = undefined
      t.health.abort()
      retire(t.pool, how)
    }
  }

  function dropStandby(how: 'drain' | 'close') {
    const t = standby
    standby = undefined
    if (t) retire(t.pool, how)
  }

  function retire(pool: SocketPool, how: 'drain' | 'close') {
    if (how === 'close' || pool.inFlight() === 0) return pool.close()
    draining.add(pool)
    pool.drain(DRAIN_MS)
    const forget = setInterval(() => {
      if (pool.inFlight() > 0 && draining.has(pool)) return
      clearInterval(forget)
      draining.delete(pool)
    }, 500)
    forget.unref()
  }

  /** `keepOld`: the tunnel still has sockets; keep it as the standby until its successor is in place. */
  function scheduleRebuild(lastError: string, keepOld = false) {
    const old = tunnel
    if (keepOld && old && standby === undefined && old.pool.live() > 0) {
      cancelPending()
      tunnel = undefined
      old.health.abort()
      standby = old
    } else teardown('drain')
    if (!running) return
    attempt++
    const nextInMs = backoffDelay(attempt, opts.backoff, opts.random)
    setState({ kind: 'reconnecting', attempt, nextInMs, lastError })
    later(nextInMs, () => void connect())
  }

  function noticeUrl(assignment: TunnelAssignment) {
    let notice: TunnelNotice | undefined
    if (lastUrl !== undefined && assignment.url !== lastUrl) {
      notice = { kind: 'url-changed', url: assignment.url, previousUrl: lastUrl, assignedSubdomain: assignment.id }
    } else if (lastUrl === undefined && opts.subdomain !== undefined && assignment.id !== opts.subdomain) {
      notice = { kind: 'url-changed', url: assignment.url, requestedSubdomain: opts.subdomain, assignedSubdomain: assignment.id }
    }
    lastUrl = assignment.url
    wantedId ??= assignment.id
    if (notice) emit('notice', notice)
  }

  /** Asks for the wanted id; while the server still holds it, waits a little and asks again. */
  async function requestWanted(gen: number, signal: AbortSignal): Promise<TunnelAssignment> {
    for (let tries = 1; ; tries++) {
      const assignment = await requestAssignment({ serverHost: opts.host, subdomain: wantedId, timeoutMs: opts.requestTimeoutMs, lookup: opts.lookup, signal })
      if (wantedId === undefined || assignment.id === wantedId || tries >= WANTED_ID_TRIES || gen !== generation) return assignment
      // Held by our own standby tunnel: waiting would not free it.
      if (standby !== undefined && standby.assignment.id === wantedId && standby.pool.live() > 0) return assignment
      // The id granted instead is never connected to; the server drops it after its own grace.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WANTED_ID_RETRY_MS)
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer)
            resolve()
          },
          { once: true },
        )
      })
      if (signal.aborted) throw new TunnelRequestError('aborted', true)
    }
  }

  async function connect() {
    teardown('close')
    const gen = generation
    setState({ kind: 'connecting', host: opts.host.origin })
    const abort = new AbortController()
    requestAbort = abort
    let assignment: TunnelAssignment
    try {
      assignment = await requestWanted(gen, abort.signal)
    } catch (error) {
      if (gen !== generation) return
      const failure = error instanceof TunnelRequestError ? error : new TunnelRequestError(`tunnel request failed: ${String(error)}`, true)
      if (failure.retryable) return scheduleRebuild(failure.message)
      // A refusal (bad subdomain, blocked client): asking again would be refused again.
      teardown('close')
      dropStandby('drain')
      running = false
      setState(failure.status === undefined ? { kind: 'offline', reason: failure.message } : { kind: 'offline', reason: failure.message, status: failure.status })
      return
    }
    if (gen !== generation) return
    const old = standby
    if (old) {
      if (assignment.id !== old.assignment.id && old.pool.live() > 0) {
        // The server still holds the old tunnel's id for its sockets: maybe it is alive after all.
        old.health = new AbortController()
        abort.signal.addEventListener('abort', () => old.health.abort(), { once: true })
        const problem = await probe(old)
        if (gen !== generation) return
        if (problem === undefined && standby === old) {
          // The new id is never connected to; the server drops it after its own grace.
          standby = undefined
          requestAbort = undefined
          tunnel = old
          old.healthFailures = 0
          old.verified = true
          evaluate()
          later(opts.healthIntervalMs, () => void runHealth(old))
          return
        }
      }
      dropStandby('drain')
    }
    requestAbort = undefined
    noticeUrl(assignment)
    // Callbacks act only while this is the current tunnel (or the standby, for the last two).
    const ref: { self?: OpenTunnel } = {}
    const pool = createSocketPool({
      remoteHost: assignment.remoteHost,
      remotePort: assignment.remotePort,
      maxSockets: assignment.maxSockets,
      localPort: opts.localPort,
      accept: opts.accept,
      connectTimeoutMs: opts.requestTimeoutMs,
      lookup: opts.lookup,
      healthSecret,
      onChange: () => {
        if (ref.self !== undefined && tunnel === ref.self) evaluate()
      },
      onDead: (lastError) => {
        if (ref.self === undefined) return
        if (tunnel === ref.self) scheduleRebuild(lastError)
        else if (standby === ref.self) dropStandby('close')
      },
      onLocalUnreachable: (error) => {
        if (ref.self !== undefined && (tunnel === ref.self || standby === ref.self)) emit('notice', { kind: 'local-unreachable', port: opts.localPort, error })
      },
    })
    ref.self = {
      assignment,
      pool,
      verified: opts.healthIntervalMs === 0,
      healthFailures: 0,
      healthInFlight: false,
      health: new AbortController(),
      degradedTimer: undefined,
      shortSince: undefined,
    }
    tunnel = ref.self
  }

  /**
   * Turns the socket count and health into online / degraded. A full pool is online at once; a
   * shortfall is reported only once it has lasted `degradedGraceMs` — after a rebuild as well as
   * while online, since sockets close and reopen after every request — and then at most once per
   * grace period while it lasts.
   */
  function evaluate() {
    const t = tunnel
    if (!t) return
    const live = t.pool.live()
    const max = t.pool.maxSockets
    if (!t.verified) {
      if (live > 0 && !t.healthInFlight) void runHealth(t)
      return
    }
    if (attempt !== 0) attempt = 0
    // Through localtunnel-server a socket closes and is replaced after most answers, so this runs
    // twice per request under load: a dip and its refill cost a comparison, not a timer each.
    if (live >= max) {
      t.shortSince = undefined
      setState({ kind: 'online', url: t.assignment.url, sockets: max })
      return
    }
    t.shortSince ??= Date.now()
    if (t.degradedTimer === undefined) awaitGrace(t, opts.degradedGraceMs)
  }

  /** Reports a shortfall once it has lasted the grace period, then at most once per period. */
  function awaitGrace(t: OpenTunnel, ms: number) {
    t.degradedTimer = later(ms, () => {
      t.degradedTimer = undefined
      if (tunnel !== t || t.shortSince === undefined) return
      const short = Date.now() - t.shortSince
      // Full again meanwhile, and short again since: only this shortfall's own time counts.
      if (short < opts.degradedGraceMs) return awaitGrace(t, opts.degradedGraceMs - short)
      const max = t.pool.maxSockets
      const nowLive = t.pool.live()
      if (nowLive >= max) {
        t.shortSince = undefined
        return setState({ kind: 'online', url: t.assignment.url, sockets: max })
      }
      setState({ kind: 'degraded', url: t.assignment.url, liveSockets: nowLive, maxSockets: max })
      // Still short: look again after another grace period (a count that changed is news then).
      awaitGrace(t, opts.degradedGraceMs)
    })
  }

  /** A health check through the public URL; a timeout while requests are in flight may be only busy. */
  async function probe(t: OpenTunnel): Promise<HealthProblem | undefined> {
    const problem = await checkHealth({ publicUrl: t.assignment.url, secret: healthSecret, timeoutMs: opts.requestTimeoutMs, lookup: opts.lookup, signal: t.health.signal })
    if (problem === undefined || !problem.timedOut || t.pool.inFlight() === 0) return problem
    // Requests held by the receiver may fill every socket, and the check queues behind them.
    // The server's own view of the tunnel (no socket needed) tells busy from dead.
    const view = await serverView({ serverHost: opts.host, id: t.assignment.id, timeoutMs: opts.requestTimeoutMs, lookup: opts.lookup, signal: t.health.signal })
    return view.kind === 'connected' ? undefined : problem
  }

  async function runHealth(t: OpenTunnel) {
    t.healthInFlight = true
    const problem = await probe(t)
    t.healthInFlight = false
    if (tunnel !== t) return
    if (problem === undefined) {
      t.healthFailures = 0
      t.verified = true
      evaluate()
      later(opts.healthIntervalMs, () => void runHealth(t))
      return
    }
    t.healthFailures++
    if (t.healthFailures >= opts.healthFailuresBeforeRebuild) return scheduleRebuild(problem.message, true)
    // Check again soon: one lost check is not yet a dead tunnel.
    later(Math.min(1000, opts.healthIntervalMs), () => void runHealth(t))
  }

  return {
    start() {
      if (running) return
      running = true
      attempt = 0
      void connect()
    },
    async stop() {
      running = false
      teardown('close')
      dropStandby('close')
      for (const pool of draining) pool.close()
      draining.clear()
      setState({ kind: 'stopped' })
      // Let the destroyed sockets' close events run before the caller moves on.
      await new Promise<void>((resolve) => setImmediate(resolve))
    },
    get state() {
      return state
    },
    publicUrl() {
      return state.kind === 'online' || state.kind === 'degraded' ? state.url : undefined
    },
    sockets() {
      return { live: tunnel?.pool.live() ?? 0, max: tunnel?.pool.maxSockets ?? 0 }
    },
    on(event, listener) {
      listeners[event].add(listener)
      return () => {
        listeners[event].delete(listener)
      }
    },
  }
}
