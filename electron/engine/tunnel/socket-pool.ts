import { connect, type LookupFunction, type Socket } from 'node:net'
import { healthRequestMarker, healthResponse, matchMarker } from './health'

// The client side of the localtunnel protocol: keep `maxSockets` TCP connections open to the
// server's port; the server writes each public HTTP request into one of them, and we carry it to
// the receiver on 127.0.0.1:<localPort> and carry the answer back.
//
// Why not @n8n/localtunnel's TunnelCluster (see docs/tunnel.md): it connects to the receiver as
// soon as the server socket opens, so an idle receiver socket hits Node's headersTimeout and a
// stale "408" is later read as the answer to a real request; it loses a socket for good when the
// server refuses it; and it reopens closed sockets at once, forever, with no way to see that the
// server is gone. Here the receiver connection opens only when request bytes arrive, every socket
// is counted, reopening backs off, and a pool that cannot keep any socket reports itself dead.

export interface SocketPoolOptions {
  remoteHost: string
  remotePort: number
  maxSockets: number
  localPort: number
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
  /** Destroys every socket; nothing is reopened after. */
  close(): void
}

/** The receiver is always reached on loopback: the tunnel exposes this one port and nothing else. */
const LOCAL_HOST = '127.0.0.1'
/** A socket that stayed open this long, or carried a request, is live (and was healthy when it closed). */
const STABLE_MS = 250
const REOPEN_FIRST_MS = 100
const REOPEN_MAX_MS = 5000

const BAD_GATEWAY_BODY = 'Hookloop: the local receiver is not reachable.\n'
const BAD_GATEWAY =
  'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain; charset=utf-8\r\n' +
  `content-length: ${Buffer.byteLength(BAD_GATEWAY_BODY)}\r\nconnection: close\r\n\r\n${BAD_GATEWAY_BODY}`

export function createSocketPool(options: SocketPoolOptions): SocketPool {
  const marker = healthRequestMarker(options.healthSecret)
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  let live = 0
  let closed = false
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

  function openSlot(slotFailures: number) {
    if (closed || dead) return
    const remote = connect({ host: options.remoteHost, port: options.remotePort, lookup: options.lookup })
    sockets.add(remote)
    let connectedAt: number | undefined
    // A socket counts as live once it has stayed open STABLE_MS or carried a request, so a server
    // that accepts and at once closes sockets does not make the count flicker.
    let counted = false
    const count = () => {
      if (counted || remote.destroyed || closed) return
      counted = true
      live++
      if (live === options.maxSockets) failures = 0
      options.onChange()
    }
    remote.setTimeout(options.connectTimeoutMs, () => remote.destroy(new Error(`connecting to ${options.remoteHost}:${options.remotePort} timed out`)))
    remote.once('connect', () => {
      connectedAt = Date.now()
      remote.setTimeout(0)
      remote.setNoDelay(true)
      // Idle sockets can sit for hours; keepalive notices a peer that vanished without a FIN.
      remote.setKeepAlive(true, 15_000)
      later(STABLE_MS, count)
    })
    remote.on('error', (error: NodeJS.ErrnoException) => {
      lastError = `tunnel socket to ${options.remoteHost}:${options.remotePort}: ${error.code ?? error.message}`
    })
    remote.once('close', () => {
      sockets.delete(remote)
      if (counted) {
        live--
        if (!closed) options.onChange()
      }
      if (closed || dead) return
      if (counted) {
        failures = 0
        // The usual case: the receiver closed an idle keep-alive connection after a request.
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
    bridge(remote, count)
  }

  /** Carries bytes between one server socket and a receiver connection opened on first request. */
  function bridge(remote: Socket, onRequest: () => void) {
    let local: Socket | undefined
    let localOpen = false
    let head: Buffer | undefined = Buffer.alloc(0)
    const pending: Buffer[] = []

    // Answered here; the socket stays open for the next request, which is sniffed the same way.
    const answerHealth = () => {
      remote.write(healthResponse(options.healthSecret))
    }

    // After the receiver side ended, further bytes are dropped; the socket keeps reading so that
    // the server's FIN is seen (a paused socket would sit half-open and still count as live).
    let ended = false
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

    remote.on('data', (chunk: Buffer) => {
      if (ended) return
      onRequest()
      if (head !== undefined) {
        // First bytes of a request with no receiver connection yet: a health check, or a
        // request for the receiver.
        head = Buffer.concat([head, chunk])
        const found = matchMarker(head, marker)
        if (found === 'partial') return
        if (found === 'match') {
          head = Buffer.alloc(0)
          return answerHealth()
        }
        const first = head
        head = undefined
        openLocal(first)
        return
      }
      // A later request on a kept-alive socket starts its own TCP segment (HTTP/1.1, no pipelining).
      if (chunk.length >= marker.length && matchMarker(chunk, marker) === 'match') return answerHealth()
      if (!localOpen) {
        pending.push(chunk)
        return
      }
      if (local && !local.write(chunk)) remote.pause()
    })
    remote.on('drain', () => local?.resume())
    remote.once('close', () => local?.destroy())

    function openLocal(first: Buffer) {
      pending.push(first)
      remote.pause()
      const socket = connect({ host: LOCAL_HOST, port: options.localPort })
      local = socket
      let localError: NodeJS.ErrnoException | undefined
      socket.setNoDelay(true)
      socket.once('connect', () => {
        localOpen = true
        for (const chunk of pending.splice(0)) socket.write(chunk)
        remote.resume()
      })
      socket.on('data', (chunk: Buffer) => {
        if (!remote.write(chunk)) socket.pause()
      })
      socket.on('drain', () => remote.resume())
      socket.on('error', (error: NodeJS.ErrnoException) => {
        localError = error
      })
      socket.once('close', () => {
        if (!localOpen) {
          const why = localError?.code ?? localError?.message ?? 'closed'
          options.onLocalUnreachable(why)
          return endRemote('end', BAD_GATEWAY)
        }
        // Pass a reset on as a reset (the receiver may inject one on purpose); a clean close as a FIN.
        if (localError?.code === 'ECONNRESET') endRemote('reset')
        else if (localError) endRemote('destroy')
        else endRemote('end')
      })
    }
  }

  for (let i = 0; i < options.maxSockets; i++) openSlot(0)

  return {
    maxSockets: options.maxSockets,
    live: () => live,
    close() {
      if (closed) return
      closed = true
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    },
  }
}
