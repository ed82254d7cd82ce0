import { connect, type Socket } from 'node:net'
import { createFramer, type Framer } from './framing'

// Connections to the receiver, kept open between requests. A localtunnel server closes a tunnel
// socket after most answers (localtunnel-server keeps one free socket), so tying a receiver
// connection to a tunnel socket cost a new local connection per request under load. Here a
// receiver connection whose last answer is complete goes back to this pool when its tunnel
// socket closes, and the next request on any tunnel socket takes it.

/** The receiver is always reached on loopback: the tunnel exposes this one port and nothing else. */
export const LOCAL_HOST = '127.0.0.1'
/** Idle receiver connections close before Node's default keepAliveTimeout (5 s) closes them. */
const IDLE_MS = 4000

/** What the tunnel socket a receiver connection serves is told about it. */
export interface LocalOwner {
  onData(chunk: Buffer): void
  onDrain(): void
  /** An interim (1xx) answer starts; `status` 101 or an upgrade turns the pair into a plain relay. */
  onHead(head: { status: number | undefined; upgrade: boolean; keepAlive: boolean }): void
  /** A final answer is complete. */
  onAnswered(): void
  onClose(error: NodeJS.ErrnoException | undefined, connected: boolean): void
}

export interface LocalConnection {
  readonly socket: Socket
  owner: LocalOwner | undefined
  /** Requests written whose final answer has not been read in full. */
  awaiting: number
  /** Methods of the requests awaiting an answer (a HEAD answer has no body). */
  readonly methods: string[]
  /** Still usable for another request once `awaiting` is 0. */
  reusable: boolean
  /** The answers' framing could not be followed: bytes only, never reused. */
  unframed: boolean
  write(chunk: Buffer): boolean
}

export interface LocalConnections {
  /** An idle receiver connection, or a new one (writes before it connects are buffered). */
  take(owner: LocalOwner): LocalConnection
  /** Hands back a connection whose answers are complete; it is closed if it cannot be reused. */
  release(connection: LocalConnection): void
  close(): void
}

export function createLocalConnections(localPort: number, maxIdle: number): LocalConnections {
  const idle: LocalConnection[] = []
  const idleTimers = new Map<LocalConnection, NodeJS.Timeout>()
  const all = new Set<Socket>()
  let closed = false

  function unidle(connection: LocalConnection) {
    const i = idle.indexOf(connection)
    if (i >= 0) idle.splice(i, 1)
    const timer = idleTimers.get(connection)
    if (timer) clearTimeout(timer)
    idleTimers.delete(connection)
  }

  function open(owner: LocalOwner): LocalConnection {
    const socket = connect({ host: LOCAL_HOST, port: localPort })
    all.add(socket)
    socket.setNoDelay(true)
    let connected = false
    let error: NodeJS.ErrnoException | undefined
    let interim = false
    const connection: LocalConnection = {
      socket,
      owner,
      awaiting: 0,
      methods: [],
      reusable: true,
      unframed: false,
      write: (chunk) => socket.write(chunk),
    }
    const framer: Framer | undefined = createFramer('response', {
      onBegin: () => undefined,
      onHead: (head) => {
        interim = head.status !== undefined && head.status < 200 && head.status !== 101
        if (head.status === 101 || head.upgrade) {
          connection.unframed = true
          connection.reusable = false
        }
        if (!head.keepAlive) connection.reusable = false
        connection.owner?.onHead(head)
        return !interim && connection.methods[0] === 'HEAD'
      },
      onComplete: () => {
        if (interim) {
          interim = false
          return
        }
        connection.methods.shift()
        if (connection.awaiting > 0) connection.awaiting--
        connection.owner?.onAnswered()
      },
    })
    if (!framer) {
      connection.unframed = true
      connection.reusable = false
    }
    socket.once('connect', () => {
      connected = true
    })
    socket.on('data', (chunk: Buffer) => {
      const current = connection.owner
      // Bytes nobody asked for (an idle connection answering nothing): never pass them on.
      if (!current) return socket.destroy()
      current.onData(chunk)
      if (connection.unframed || !framer) return
      if (!framer.parse(chunk)) {
        connection.unframed = true
        connection.reusable = false
      }
    })
    socket.on('drain', () => connection.owner?.onDrain())
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e
    })
    socket.once('end', () => {
      framer?.end()
      connection.reusable = false
    })
    socket.once('close', () => {
      all.delete(socket)
      unidle(connection)
      framer?.close()
      const current = connection.owner
      connection.owner = undefined
      current?.onClose(error, connected)
    })
    return connection
  }

  return {
    take(owner) {
      const reused = closed ? undefined : idle.pop()
      if (reused) {
        unidle(reused)
        reused.owner = owner
        // A previous owner may have paused it for backpressure.
        reused.socket.resume()
        return reused
      }
      return open(owner)
    },
    release(connection) {
      connection.owner = undefined
      const socket = connection.socket
      if (closed || !connection.reusable || connection.unframed || connection.awaiting > 0 || socket.destroyed || socket.connecting || idle.length >= maxIdle) {
        socket.destroy()
        return
      }
      idle.push(connection)
      const timer = setTimeout(() => {
        idleTimers.delete(connection)
        socket.destroy()
      }, IDLE_MS)
      timer.unref()
      idleTimers.set(connection, timer)
    },
    close() {
      closed = true
      for (const socket of all) socket.destroy()
      all.clear()
    },
  }
}
