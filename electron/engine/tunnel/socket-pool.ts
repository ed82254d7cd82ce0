import { STATUS_CODES } from 'node:http'
import { connect, type LookupFunction, type Socket } from 'node:net'
import { createFramer, type Framer } from './framing'
import { createHandOff, type TunnelAcceptor } from './handoff'
import { healthRequestMarker, healthResponse, matchMarker } from './health'
import { createLocalConnections, type LocalConnection, type LocalOwner } from './local-connections'

// The client side of the localtunnel protocol: keep `maxSockets` TCP connections open to the
// server's port; the server writes each public HTTP request into one of them, and we carry it to
// the receiver on 127.0.0.1:<localPort> and carry the answer back.
//
// Why not @n8n/localtunnel's TunnelCluster (see docs/tunnel.md): it connects to the receiver as
// soon as the server socket opens, so an idle receiver socket hits Node's headersTimeout and a
// stale "408" is later read as the answer to a real request; it loses a socket for good when the
// server refuses it; and it reopens closed sockets at once, forever, with no way to see that the
// server is gone. Here the receiver connection opens only when request bytes arrive (and is kept
// for later requests, see local-connections.ts), every socket is counted, reopening backs off, a
// pool that cannot keep any socket reports itself dead, and a pool that is replaced closes each
// socket only once the request it carries has been answered.

export interface SocketPoolOptions {
  remoteHost: string
  remotePort: number
  maxSockets: number
  localPort: number
  /** The receiver's HTTP server in this process: sockets are handed to it instead of relayed. */
  accept: TunnelAcceptor | undefined
  connectTimeoutMs: number
  lookup: LookupFunction
  /** Secret of the health path answered here instead of by the receiver. */
  healthSecret: string
  /** The number of open sockets changed. */
  onChange: () => void
  /** No socket is open and every recent try failed: the server forgot us or is gone. */
  onDead: (lastError: string) => void
  /** A request arrived but the receiver's port did not accept a connection. */
  onLocalUnreachable: (error: string) => void
}

export interface SocketPool {
  readonly maxSockets: number
  live(): number
  /** Sockets carrying a request that has not been answered in full yet. */
  inFlight(): number
  /**
   * Stops reopening; idle sockets close now, each busy one as soon as its answer is written (or
   * its caller is gone), and whatever is left after `timeoutMs`.
   */
  drain(timeoutMs: number): void
  /** Destroys every socket; nothing is reopened after. */
  close(): void
}
/** A socket that stayed open this long, or carried a request, was healthy when it closed. */
const STABLE_MS = 250
const REOPEN_FIRST_MS = 100
const REOPEN_MAX_MS = 5000

const BAD_GATEWAY_BODY = 'Hookloop: the local receiver is not reachable.\n'
const BAD_GATEWAY =
  `HTTP/1.1 502 ${STATUS_CODES[502]}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
  `content-length: ${Buffer.byteLength(BAD_GATEWAY_BODY)}\r\nconnection: close\r\n\r\n${BAD_GATEWAY_BODY}`

export function createSocketPool(options: SocketPoolOptions): SocketPool {
  const marker = healthRequestMarker(options.healthSecret)
  const sockets = new Set<Socket>()
  const relays = new Set<Relay>()
  const timers = new Set<NodeJS.Timeout>()
  const locals = createLocalConnections(options.localPort, options.maxSockets)
  let live = 0
  let closed = false
  let draining = false
  let dead = false
  // Failures since the last healthy socket; with no socket open, `maxSockets` of them mean dead.
  let failures = 0
  let lastError = 'tunnel sockets closed'

  function later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer)
      fn()
    }, ms)
    timers.add(timer)
  }

  // The server's address, looked up by the first socket that connects and used by every later
  // one: through localtunnel-server a socket is opened for most requests, and a lookup per socket
  // (even an answer from memory) is CPU on every one. A socket that fails to connect to it clears
  // it, so the next one looks the name up again.
  let address: string | undefined
  // Handed to the receiver, a socket half-closes as a connection accepted on its port does.
  const allowHalfOpen = options.accept !== undefined
  const handOffTo = options.accept ? createHandOff({ accept: options.accept, healthSecret: options.healthSecret, draining: () => draining, closeTimeoutMs: options.connectTimeoutMs }) : undefined

  function openSlot(slotFailures: number) {
    if (closed || dead || draining) return
    const direct = address
    // TCP_NODELAY and keep-alive (idle sockets can sit for hours; keep-alive notices a peer that
    // vanished without a FIN) are set by Node as the socket connects.
    const remote = connect({
      host: direct ?? options.remoteHost,
      port: options.remotePort,
      ...(direct === undefined ? { lookup: options.lookup } : {}),
      allowHalfOpen,
      noDelay: true,
      keepAlive: true,
      keepAliveInitialDelay: 15_000,
    })
    sockets.add(remote)
    let connectedAt: number | undefined
    // Live: connected now (what the server counts too). Healthy: it stayed open STABLE_MS or
    // carried a request — only a socket that closes without being healthy counts as a failure
    // (backoff, dead), so a server that accepts and at once closes sockets gets no storm, while
    // the sockets localtunnel-server closes after each answer are replaced at once. How long it
    // stayed open is read when it closes (no timer per socket).
    let counted = false
    let carried = false
    let handed: Relay | undefined
    const markHealthy = () => {
      if (carried || remote.destroyed || closed) return
      carried = true
      if (live === options.maxSockets) failures = 0
    }
    const connectTimedOut = () => remote.destroy(new Error(`connecting to ${options.remoteHost}:${options.remotePort} timed out`))
    remote.setTimeout(options.connectTimeoutMs, connectTimedOut)
    remote.once('connect', () => {
      connectedAt = Date.now()
      remote.setTimeout(0)
      remote.off('timeout', connectTimedOut)
      if (direct === undefined && remote.remoteAddress) address = remote.remoteAddress
      if (closed) return
      counted = true
      live++
      if (handOffTo) {
        handed = handOffTo(remote, markHealthy)
        relays.add(handed)
      }
      options.onChange()
    })
    remote.on('error', (error: NodeJS.ErrnoException) => {
      lastError = `tunnel socket to ${options.remoteHost}:${options.remotePort}: ${error.code ?? error.message}`
    })
    remote.once('close', () => {
      sockets.delete(remote)
      if (handed) relays.delete(handed)
      if (connectedAt === undefined && direct !== undefined && address === direct) address = undefined
      if (counted) {
        live--
        if (!closed) options.onChange()
      }
      if (closed || dead || draining) return
      if (carried || (connectedAt !== undefined && Date.now() - connectedAt >= STABLE_MS)) {
        failures = 0
        // The usual case: the server closed a socket after its answer (it keeps one free socket).
        setImmediate(() => openSlot(0))
        return
      }
      failures++
      if (connectedAt === undefined && lastError === 'tunnel sockets closed') lastError = `tunnel socket to ${options.remoteHost}:${options.remotePort} closed`
      if (live === 0 && failures >= options.maxSockets) {
        dead = true
        options.onDead(lastError)
        return
      }
      const next = slotFailures + 1
      later(Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** (next - 1)), () => openSlot(next))
    })
    if (!options.accept) relay(remote, markHealthy)
  }

  interface Relay {
    readonly remote: Socket
    busy(): boolean
  }

  /**
   * Carries one tunnel socket's requests to receiver connections and their answers back, byte for
   * byte. Health checks are answered here. Between requests the tunnel socket holds no receiver
   * connection; a request takes one (kept from earlier requests, or new) for as long as it lasts.
   */
  function relay(remote: Socket, onRequest: () => void) {
    let local: LocalConnection | undefined
    // A request has begun on this socket and has not been read in full.
    let inRequest = false
    let health = false
    // Bytes at the start of a request, held until they show whether it is a health check.
    let head: Buffer = Buffer.alloc(0)
    // Framing lost (bad bytes, an upgrade, no parser): a plain relay until either side closes.
    let raw = false
    let ended = false
    const requestFramer: Framer | undefined = createFramer('request', {
      onBegin: () => {
        inRequest = true
        if (!health && local) local.awaiting++
      },
      onHead: (h) => {
        if (health || !local) return false
        local.methods.push(h.method ?? '')
        if (!h.keepAlive) local.reusable = false
        if (h.upgrade) becomeRaw()
        return false
      },
      onComplete: () => {
        inRequest = false
        if (health) {
          health = false
          remote.write(healthResponse(options.healthSecret))
        }
        settle()
      },
    })
    if (!requestFramer) raw = true

    const self: Relay = {
      remote,
      busy: () => (raw && local !== undefined) || inRequest || head.length > 0 || (local !== undefined && local.awaiting > 0),
    }
    relays.add(self)

    function becomeRaw() {
      raw = true
      if (local) {
        local.unframed = true
        local.reusable = false
      }
    }

    // After the receiver side ended, further bytes are dropped; the socket keeps reading so that
    // the server's FIN is seen (a paused socket would sit half-open and still count as live).
    const endRemote = (how: 'end' | 'destroy' | 'reset', data?: string) => {
      ended = true
      if (remote.destroyed) return
      if (how === 'reset') remote.resetAndDestroy()
      else if (how === 'destroy') remote.destroy()
      else {
        if (data === undefined) remote.end()
        else remote.end(data)
        remote.resume()
        // A server that never closes its side must not hold the socket forever.
        remote.setTimeout(options.connectTimeoutMs, () => remote.destroy())
      }
    }

    /** A request and its answer are both complete: the receiver connection is free again. */
    function settle() {
      if (self.busy()) return
      // Draining: the answer is out, so this socket can close without dropping anything.
      if (draining) endRemote('end')
    }

    const owner: LocalOwner = {
      onData(chunk) {
        if (!remote.write(chunk)) local?.socket.pause()
      },
      onDrain: () => remote.resume(),
      onHead(h) {
        if (h.status === 101 || h.upgrade) becomeRaw()
      },
      onAnswered: () => settle(),
      onClose(error, connected) {
        const wasBusy = raw || inRequest || (local !== undefined && local.awaiting > 0)
        local = undefined
        remote.resume()
        if (!connected) {
          options.onLocalUnreachable(error?.code ?? error?.message ?? 'closed')
          return endRemote('end', BAD_GATEWAY)
        }
        // Closed between requests (an idle timeout, Connection: close): the next request opens another.
        if (!wasBusy) return settle()
        // Pass a reset on as a reset (the receiver may inject one on purpose); a clean close as a FIN.
        if (error?.code === 'ECONNRESET') endRemote('reset')
        else if (error) endRemote('destroy')
        else endRemote('end')
      },
    }

    function toLocal(chunk: Buffer) {
      if (!local) local = locals.take(owner)
      if (!local.write(chunk)) remote.pause()
    }

    remote.on('data', (chunk: Buffer) => {
      if (ended) return
      onRequest()
      if (raw) {
        if (!requestFramer && local === undefined && head !== undefined) return sniff(chunk, true)
        return toLocal(chunk)
      }
      if (!inRequest) return sniff(chunk, false)
      frame(chunk)
    })

    /** First bytes of a request: a health check, or a request for the receiver. */
    function sniff(chunk: Buffer, unframed: boolean) {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
      const found = matchMarker(head, marker)
      if (found === 'partial') return
      const first = head
      head = Buffer.alloc(0)
      if (found === 'match') {
        if (unframed) return void remote.write(healthResponse(options.healthSecret))
        health = true
        return frame(first)
      }
      if (unframed) return toLocal(first)
      if (local && (!local.reusable || local.unframed)) {
        // Its last answer said it closes (or could not be followed): the next request gets another.
        const stale = local
        local = undefined
        stale.owner = undefined
        stale.socket.destroy()
      }
      if (!local) local = locals.take(owner)
      frame(first)
    }

    function frame(chunk: Buffer) {
      const wasHealth = health
      if (!requestFramer?.parse(chunk)) {
        // Bytes that are not HTTP the framer can follow: the receiver gets them as they are.
        becomeRaw()
        if (wasHealth) return endRemote('destroy')
      }
      if (!wasHealth) toLocal(chunk)
    }

    remote.on('drain', () => local?.socket.resume())
    remote.once('close', () => {
      relays.delete(self)
      requestFramer?.close()
      const l = local
      local = undefined
      if (!l) return
      // The caller is gone mid-request: so is the receiver connection (the receiver records it).
      if (raw || inRequest || l.awaiting > 0) return void l.socket.destroy()
      locals.release(l)
    })
  }
  for (let i = 0; i < options.maxSockets; i++) openSlot(0)

  function close() {
    if (closed) return
    closed = true
    for (const timer of timers) clearTimeout(timer)
    timers.clear()
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    locals.close()
  }

  return {
    maxSockets: options.maxSockets,
    live: () => live,
    inFlight: () => [...relays].filter((r) => r.busy()).length,
    drain(timeoutMs) {
      if (closed || draining) return
      draining = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const r of [...relays]) if (!r.busy()) r.remote.destroy()
      // Sockets still connecting carry nothing yet.
      for (const socket of sockets) if (socket.connecting) socket.destroy()
      const check = setInterval(() => {
        if (sockets.size === 0 || closed) {
          clearInterval(check)
          close()
        }
      }, 100)
      const cap = setTimeout(() => {
        clearInterval(check)
        close()
      }, timeoutMs)
      check.unref()
      cap.unref()
    },
    close,
  }
}
