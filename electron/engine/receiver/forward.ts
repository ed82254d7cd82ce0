// Forward mode: one captured request sent on to a target (your app) over a real socket. The body
// goes as the exact bytes received (signatures stay valid), hop-by-hop headers are dropped, Host
// is the target's unless kept, X-Forwarded-* are added, redirects are relayed (never followed).
// Every leg — what was sent, what came back, how long it took, why it failed — is stored, its
// headers as the app got them (forward-wire.ts: which client writes a leg, and why).
import type { ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { Clock } from '../../../shared/clock'
import { DEFAULT_FORWARD_TIMEOUT_MS, type ForwardLeg, type ForwardLegKind, type ForwardLegOutcome } from '../../../shared/receiver'
import { holdWork, waitingOnClock } from '../clock'
import { connectionFor, contentLengthFor, createLegClients, type LegHandler } from './forward-wire'

/** The captured request as a target gets it. */
export interface ForwardSource {
  id: number
  method: string
  /** The path under the endpoint (`/h/<slug>/extra` → `/extra`), appended to the target's path. */
  subPath: string
  query: string
  headers: readonly [string, string][]
  body: Buffer
  remoteAddress: string | null
  /**
   * The body is the captured request's, stored whole in its row: a leg that sends it stores a
   * pointer to that row instead of the bytes a second time.
   */
  bodyCaptured: boolean
}

export interface ForwardTarget {
  url: string
  timeout_ms?: number
  keep_host?: boolean
  delay_ms?: number
}

/** Where the target's answer goes while it arrives (the sender's response), if anywhere. */
export interface RelaySink {
  res: ServerResponse
  /** Aborted when the sender is gone: the answer is then read and stored, not relayed. */
  signal: AbortSignal
}

export interface LegResult {
  leg: ForwardLeg
  /** The target's status and headers were written to the sink (its body followed, fully or until a failure). */
  relayed: boolean
}

export interface Forwarder {
  /** Sends one leg and stores it. Never rejects: a failure is a leg with its outcome and reason. */
  send(source: ForwardSource, target: ForwardTarget, kind: ForwardLegKind, options?: { sink?: RelaySink; attemptKey?: string; bodyLimit?: number; headers?: [string, string][] }): Promise<LegResult>
  /** Background copies still running (they end with the receiver). */
  inFlight(): number
  /** Resolves once no leg is in flight (a scenario run waits for its copies before judging). */
  idle(): Promise<void>
  /** Aborts every leg (recorded as aborted) and waits for them to be stored. */
  close(): Promise<void>
}

/** Headers that belong to one connection, never passed on (RFC 9110 §7.6.1), plus those we set. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'])
const REPLACED = new Set(['host', 'content-length', 'expect'])

/** The header names a `Connection` value lists (they belong to that connection too), added to `tokens`. */
function addConnectionTokens(value: string, tokens: Set<string>): Set<string> {
  for (const t of value.split(',')) tokens.add(t.trim().toLowerCase())
  return tokens
}

function connectionTokens(headers: readonly [string, string][]): Set<string> {
  const tokens = new Set<string>()
  for (const [name, value] of headers) if (name.toLowerCase() === 'connection') addConnectionTokens(value, tokens)
  return tokens
}

/**
 * The header lines the target gets, in the order they go on the wire: Host, Connection, the
 * sender's own in order (minus hop-by-hop), X-Forwarded-*, and Content-Length when the request has
 * one (forward-wire.ts). The leg stores this list: it is what the app received.
 */
export function outboundHeaders(source: ForwardSource, target: URL, keepHost: boolean): [string, string][] {
  // One pass reads what the rest needs (names lower-cased once), the second keeps what passes.
  const lowers: string[] = []
  let drop: Set<string> | null = null
  let originalHost: string | undefined
  let forwardedFor: string | undefined
  let forwardedProto: string | undefined
  let forwardedHost: string | undefined
  let framed = false
  for (const [name, value] of source.headers) {
    const lower = name.toLowerCase()
    lowers.push(lower)
    if (lower === 'connection') drop = addConnectionTokens(value, drop ?? new Set())
    else if (lower === 'host') originalHost ??= value
    else if (lower === 'content-length' || lower === 'transfer-encoding') framed = true
    else if (lower === 'x-forwarded-for') forwardedFor ??= value
    else if (lower === 'x-forwarded-proto') forwardedProto ??= value
    else if (lower === 'x-forwarded-host') forwardedHost ??= value
  }
  const out: [string, string][] = [
    ['host', keepHost && originalHost ? originalHost : target.host],
    ['connection', connectionFor(source.method)],
  ]
  source.headers.forEach((pair, i) => {
    const lower = lowers[i] as string
    if (HOP_BY_HOP.has(lower) || REPLACED.has(lower) || drop?.has(lower) || lower.startsWith('x-forwarded-')) return
    out.push([pair[0], pair[1]])
  })
  const remote = source.remoteAddress?.replace(/^::ffff:/, '') ?? null
  const chain = forwardedFor && remote ? `${forwardedFor}, ${remote}` : (forwardedFor || remote)
  if (chain) out.push(['x-forwarded-for', chain])
  // A tunnel in front already said how the sender called: keep its words.
  out.push(['x-forwarded-proto', forwardedProto ?? 'http'])
  const host = forwardedHost ?? originalHost
  if (host) out.push(['x-forwarded-host', host])
  const length = contentLengthFor(source.method, framed, source.body.length)
  if (length !== null) out.push(['content-length', length])
  return out
}

// Targets parsed once (an endpoint forwards every request to the same few URLs); read, never changed.
const parsedTargets = new Map<string, URL>()
const MAX_PARSED_TARGETS = 1000

/** target path + the path under the endpoint; the target's query, then the request's. */
export function outboundUrl(target: string, source: Pick<ForwardSource, 'subPath' | 'query'>): URL {
  if ((!source.subPath || source.subPath === '/') && !source.query) {
    let url = parsedTargets.get(target)
    if (!url) {
      url = new URL(target)
      if (parsedTargets.size >= MAX_PARSED_TARGETS) parsedTargets.clear()
      parsedTargets.set(target, url)
    }
    return url
  }
  const url = new URL(target)
  if (source.subPath && source.subPath !== '/') url.pathname = `${url.pathname.replace(/\/+$/, '')}${source.subPath}`
  if (source.query) url.search = url.search ? `${url.search}&${source.query}` : `?${source.query}`
  return url
}

/** Response headers relayed to the sender: the target's (raw, as undici reads them) minus hop-by-hop. */
export function relayedHeaders(raw: readonly Buffer[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([(raw[i] as Buffer).toString('latin1'), (raw[i + 1] as Buffer).toString('latin1')])
  const drop = connectionTokens(pairs)
  return pairs.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()) && !drop.has(name.toLowerCase()))
}

/** A socket error in words, and the leg outcome it stands for. */
export function describeFailure(error: NodeJS.ErrnoException): { outcome: ForwardLegOutcome; reason: string } {
  switch (error.code) {
    case 'ECONNREFUSED':
      return { outcome: 'refused', reason: 'connection refused (ECONNREFUSED)' }
    case 'ECONNRESET':
      // node:http's word (forward-wire.ts) for what undici calls UND_ERR_SOCKET: the app closed before answering.
      if (error.message === 'socket hang up') return { outcome: 'reset', reason: 'the app closed the connection (socket hang up)' }
      return { outcome: 'reset', reason: 'connection reset by the app (ECONNRESET)' }
    case 'UND_ERR_SOCKET': // undici's word for a connection the app closed before its answer ended
      return { outcome: 'reset', reason: 'the app closed the connection (socket hang up)' }
    case 'EPIPE':
      return { outcome: 'reset', reason: 'the app closed the connection while the request was sent (EPIPE)' }
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { outcome: 'unreachable', reason: `host not found (${error.code})` }
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { outcome: 'unreachable', reason: `host unreachable (${error.code})` }
    default:
      return { outcome: 'error', reason: `${error.message}${error.code ? ` (${error.code})` : ''}`.slice(0, 300) }
  }
}

export interface ForwarderDeps {
  /** The engine's clock: legs of a request one of our attempts made (an attemptKey) wait and time out on it. */
  clock: Clock
  /** Legs of real traffic and resends run on the wall clock (docs/time.md); default `clock`. */
  wallClock?: Clock
  /**
   * Numbers the leg and queues it for the store (the capture writer); returns its id. Never blocks
   * on SQLite. `bodyCaptured`: the leg sent the captured request's body (ForwardSource.bodyCaptured).
   */
  record: (leg: Omit<ForwardLeg, 'id'>, bodyCaptured: boolean) => number
  defaultBodyLimit: number
  onLeg?: (leg: ForwardLeg) => void
}

export function createForwarder(deps: ForwarderDeps): Forwarder {
  const wallClock = deps.wallClock ?? deps.clock
  const clockFor = (attemptKey: string | undefined): Clock => (attemptKey === undefined ? wallClock : deps.clock)
  const closing = new AbortController()
  /** Ends a leg in flight as aborted (close()). */
  const cuts = new Set<() => void>()
  const legs = new Set<Promise<unknown>>()
  const clients = createLegClients()

  async function send(source: ForwardSource, target: ForwardTarget, kind: ForwardLegKind, options: { sink?: RelaySink; attemptKey?: string; bodyLimit?: number; headers?: [string, string][] } = {}): Promise<LegResult> {
    const clock = clockFor(options.attemptKey)
    const work = (async () => {
      if (target.delay_ms) {
        // The wait belongs to the receiver, not to the sender's connection: "forward after 11 s"
        // reaches the app even when the sender gave up at 10 s.
        const resume = waitingOnClock(clock, options.attemptKey)
        try {
          await clock.sleep(target.delay_ms, closing.signal)
        } catch {
          // closing: the leg is recorded as aborted
        } finally {
          resume()
        }
      }
      return exchange(source, target, kind, clock, options)
    })()
    legs.add(work)
    try {
      return await work
    } finally {
      legs.delete(work)
    }
  }

  async function exchange(source: ForwardSource, target: ForwardTarget, kind: ForwardLegKind, clock: Clock, options: { sink?: RelaySink; bodyLimit?: number; headers?: [string, string][] }): Promise<LegResult> {
    const url = outboundUrl(target.url, source)
    const headers = options.headers ?? outboundHeaders(source, url, target.keep_host === true)
    const limit = options.bodyLimit ?? deps.defaultBodyLimit
    const sentAt = clock.now()
    // The leg's latency is the app's real time to answer: wall time on a monotonic clock, never
    // the injected one (on a virtual clock the app's work takes no virtual time at all).
    const startedAt = performance.now()
    const leg: Omit<ForwardLeg, 'id'> = {
      requestId: source.id,
      kind,
      targetUrl: target.url,
      sentAt,
      request: { method: source.method, url: url.toString(), headers, body: source.body },
      response: { status: null, headers: [], body: null, bodySize: 0, bodyTruncated: false },
      latencyMs: null,
      outcome: 'error',
      error: null,
    }
    let relayed = false
    if (closing.signal.aborted) {
      leg.outcome = 'aborted'
      leg.error = 'the receiver stopped before it was sent'
      return { leg: { ...leg, id: deps.record(leg, source.bodyCaptured) }, relayed }
    }
    // Real I/O in progress: a virtual clock must not jump past the target's answer.
    const release = holdWork(clock)
    // The leg's timeout is one clock timer, cancelled when the leg ends; close() cuts every leg
    // (`cuts`). No AbortController, promise or DOMException per leg: they cost more than the
    // rest of the timer on Node 20.
    const timeoutMs = target.timeout_ms ?? DEFAULT_FORWARD_TIMEOUT_MS
    let cutLeg: (why: 'timeout' | 'closing') => void = () => {}
    const cut = () => cutLeg('closing')
    cuts.add(cut)
    const timer = clock.setTimer(timeoutMs, () => cutLeg('timeout'))
    try {
      await new Promise<void>((resolve) => {
        let settled = false
        // undici hands over the leg's abort once the request is on a socket; a cut before then aborts it there.
        let abortLeg: ((reason: Error) => void) | null = null
        let cutBy: Error | null = null
        const end = (outcome: ForwardLegOutcome, error: string | null) => {
          if (settled) return
          settled = true
          leg.outcome = outcome
          leg.error = error
          leg.latencyMs = Math.round(performance.now() - startedAt) // whole ms, as every time stored
          resolve()
        }
        cutLeg = (why) => {
          if (settled) return
          end(why === 'timeout' ? 'timed_out' : 'aborted', why === 'timeout' ? `no answer within ${timeoutMs} ms` : 'the receiver stopped')
          cutBy = new Error(why)
          abortLeg?.(cutBy)
          if (relayed) options.sink?.res.destroy()
        }
        const kept: Buffer[] = []
        let size = 0
        let sink: ServerResponse | null = null
        const handler: LegHandler = {
          onConnect: (abort: (reason: Error) => void) => {
            abortLeg = abort
            if (cutBy) abort(cutBy)
          },
          onHeaders: (status: number, raw: Buffer[], resume: () => void) => {
            if (status < 200) return true // 1xx: the final answer follows
            leg.response.status = status
            leg.response.headers = relayedHeaders(raw)
            sink = options.sink && !options.sink.signal.aborted && !options.sink.res.headersSent ? options.sink.res : null
            if (sink) {
              sink.writeHead(status, leg.response.headers.flat())
              relayed = true
              sink.on('drain', resume)
            }
            return true
          },
          onData: (chunk: Buffer) => {
            if (size < limit) kept.push(size + chunk.length <= limit ? chunk : chunk.subarray(0, limit - size))
            size += chunk.length
            return !sink || sink.write(chunk) // false: undici pauses until the sender drains
          },
          onComplete: () => {
            leg.response.body = Buffer.concat(kept)
            leg.response.bodySize = size
            leg.response.bodyTruncated = size > limit
            sink?.end()
            end('answered', null)
          },
          onError: (error: NodeJS.ErrnoException) => {
            if (settled) return
            const failure = describeFailure(error)
            // After the head was relayed the sender cannot get a 502: it sees the connection end.
            if (relayed) options.sink?.res.destroy()
            if (leg.response.status === null) return end(failure.outcome, failure.reason)
            leg.response.body = Buffer.concat(kept)
            leg.response.bodySize = size
            leg.response.bodyTruncated = true
            end(failure.outcome === 'error' ? 'reset' : failure.outcome, `the answer was cut off: ${failure.reason}`)
          },
        }
        clients.send({ url, method: source.method, headers, body: source.body }, handler)
      })
    } finally {
      cuts.delete(cut)
      timer.cancel()
      release()
    }
    const stored: ForwardLeg = { ...leg, id: deps.record(leg, source.bodyCaptured) }
    deps.onLeg?.(stored)
    return { leg: stored, relayed }
  }

  const idle = async (): Promise<void> => {
    while (legs.size > 0) await Promise.allSettled([...legs])
  }

  return {
    send,
    inFlight: () => legs.size,
    idle,
    async close() {
      closing.abort()
      for (const cut of [...cuts]) cut()
      await Promise.allSettled([...legs])
      await clients.close()
    },
  }
}
