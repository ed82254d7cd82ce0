import { randomBytes } from 'node:crypto'
import type { TunnelEvents, TunnelNotice, TunnelState } from '../../../shared/tunnel'
import { requestAssignment, TunnelRequestError, type TunnelAssignment } from './assignment'
import { backoffDelay } from './backoff'
import { checkHealth } from './health'
import { resolveTunnelOptions, type TunnelManagerOptions } from './options'
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
}

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
  // Asked for again on rebuild so the URL configured at a provider keeps working.
  let grantedId: string | undefined
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
    if (JSON.stringify(next) === JSON.stringify(state)) return
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

  function teardown() {
    generation++
    requestAbort?.abort()
    requestAbort = undefined
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
    if (tunnel) {
      tunnel.health.abort()
      tunnel.pool.close()
      tunnel = undefined
    }
  }

  function scheduleRebuild(lastError: string) {
    teardown()
    if (!running) return
    attempt++
    const nextInMs = backoffDelay(attempt, opts.backoff, opts.random)
    setState({ kind: 'reconnecting', attempt, nextInMs, lastError })
    later(nextInMs, () => void connect(grantedId))
  }

  function noticeUrl(assignment: TunnelAssignment) {
    let notice: TunnelNotice | undefined
    if (lastUrl !== undefined && assignment.url !== lastUrl) {
      notice = { kind: 'url-changed', url: assignment.url, previousUrl: lastUrl, assignedSubdomain: assignment.id }
    } else if (lastUrl === undefined && opts.subdomain !== undefined && assignment.id !== opts.subdomain) {
      notice = { kind: 'url-changed', url: assignment.url, requestedSubdomain: opts.subdomain, assignedSubdomain: assignment.id }
    }
    lastUrl = assignment.url
    grantedId = assignment.id
    if (notice) emit('notice', notice)
  }

  async function connect(subdomain: string | undefined) {
    teardown()
    const gen = generation
    setState({ kind: 'connecting', host: opts.host.origin })
    const abort = new AbortController()
    requestAbort = abort
    let assignment: TunnelAssignment
    try {
      assignment = await requestAssignment({ serverHost: opts.host, subdomain, timeoutMs: opts.requestTimeoutMs, lookup: opts.lookup, signal: abort.signal })
    } catch (error) {
      if (gen !== generation) return
      const failure = error instanceof TunnelRequestError ? error : new TunnelRequestError(`tunnel request failed: ${String(error)}`, true)
      if (failure.retryable) return scheduleRebuild(failure.message)
      // A refusal (bad subdomain, blocked client): asking again would be refused again.
      teardown()
      running = false
      setState(failure.status === undefined ? { kind: 'offline', reason: failure.message } : { kind: 'offline', reason: failure.message, status: failure.status })
      return
    }
    if (gen !== generation) return
    requestAbort = undefined
    noticeUrl(assignment)
    const pool = createSocketPool({
      remoteHost: assignment.remoteHost,
      remotePort: assignment.remotePort,
      maxSockets: assignment.maxSockets,
      localPort: opts.localPort,
      connectTimeoutMs: opts.requestTimeoutMs,
      lookup: opts.lookup,
      healthSecret,
      onChange: () => {
        if (gen === generation) evaluate()
      },
      onDead: (lastError) => {
        if (gen === generation) scheduleRebuild(lastError)
      },
      onLocalUnreachable: (error) => {
        if (gen === generation) emit('notice', { kind: 'local-unreachable', port: opts.localPort, error })
      },
    })
    tunnel = {
      assignment,
      pool,
      verified: opts.healthIntervalMs === 0,
      healthFailures: 0,
      healthInFlight: false,
      health: new AbortController(),
      degradedTimer: undefined,
    }
  }

  /** Turns the socket count and health into online / degraded. */
  function evaluate() {
    const t = tunnel
    if (!t) return
    const live = t.pool.live()
    const max = t.pool.maxSockets
    if (!t.verified) {
      if (live > 0 && !t.healthInFlight) void runHealth(t)
      return
    }
    if (t.verified && attempt !== 0) attempt = 0
    if (live >= max) {
      if (t.degradedTimer) clearTimeout(t.degradedTimer)
      t.degradedTimer = undefined
      setState({ kind: 'online', url: t.assignment.url, sockets: max })
      return
    }
    const degraded: TunnelState = { kind: 'degraded', url: t.assignment.url, liveSockets: live, maxSockets: max }
    // Sockets close and reopen after every request; only a shortfall that lasts is news.
    if (state.kind !== 'online') return setState(degraded)
    if (t.degradedTimer === undefined) {
      t.degradedTimer = later(opts.degradedGraceMs, () => {
        t.degradedTimer = undefined
        if (tunnel !== t) return
        const nowLive = t.pool.live()
        setState(nowLive >= max ? { kind: 'online', url: t.assignment.url, sockets: max } : { kind: 'degraded', url: t.assignment.url, liveSockets: nowLive, maxSockets: max })
      })
    }
  }

  async function runHealth(t: OpenTunnel) {
    t.healthInFlight = true
    const problem = await checkHealth({ publicUrl: t.assignment.url, secret: healthSecret, timeoutMs: opts.requestTimeoutMs, lookup: opts.lookup, signal: t.health.signal })
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
    if (t.healthFailures >= opts.healthFailuresBeforeRebuild) return scheduleRebuild(problem)
    // Check again soon: one lost check is not yet a dead tunnel.
    later(Math.min(1000, opts.healthIntervalMs), () => void runHealth(t))
  }

  return {
    start() {
      if (running) return
      running = true
      attempt = 0
      void connect(opts.subdomain ?? grantedId)
    },
    async stop() {
      running = false
      teardown()
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
