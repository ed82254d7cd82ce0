// The receiver's HTTP/1.1 server and its connections. Node's own headersTimeout/requestTimeout
// are off: the localtunnel client pre-opens idle sockets and Node would answer them 408. Instead
// each request gets a deadline from its FIRST byte (the parser's message-begin hook), so idle
// sockets may wait forever but a client trickling headers or a body (slow-loris) is cut off.
// The deadline is wall time on purpose: it protects a real socket, it is not a scripted fault.
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { ConnectionState, type Connection } from './connection'

export type { Connection } from './connection'

/** Index of the parser's on-message-begin callback (HTTPParser.kOnMessageBegin, 0 in Node 18–22). */
function messageBeginSlot(): number {
  try {
    const common = process.getBuiltinModule?.('_http_common') as { HTTPParser?: { kOnMessageBegin?: number } } | undefined
    const slot = common?.HTTPParser?.kOnMessageBegin
    if (typeof slot === 'number') return slot
  } catch {
    // fall through to the known value
  }
  return 0
}
const K_ON_MESSAGE_BEGIN = messageBeginSlot()

export interface ServerHooks {
  onRequest(req: IncomingMessage, res: ServerResponse, connection: Connection): void
  /** Expect: 100-continue — return false to refuse (the hook answers) before the body is sent. */
  onExpectContinue(req: IncomingMessage, res: ServerResponse, connection: Connection): void
  /** Any other Expect value (Node would answer 417 unseen). */
  onExpectation(req: IncomingMessage, res: ServerResponse, connection: Connection): void
  /** CONNECT (Node would drop it unseen): the raw socket, which the hook answers and ends. */
  onConnect(req: IncomingMessage, socket: Socket, connection: Connection): void
  onRefused(remoteAddress: string | null, reason: 'bad_request' | 'slow_request' | 'headers_too_large', status: number | null): void
}

/**
 * A connection made in this process and handed to the server (a tunnel socket) instead of one
 * accepted on its port. The tap sees each request begin and may answer one itself (the tunnel's
 * health check, never captured); everything else — deadlines, limits, refusals, what is recorded
 * of the socket — applies exactly as to a connection accepted on the port.
 */
export interface SocketTap {
  /** A request's first byte arrived. */
  onBegin(): void
  /** Asked for every request head before the receiver sees it; true: the tap answered it. */
  intercept(req: IncomingMessage, res: ServerResponse): boolean
}

export interface ReceiverServer {
  listen(host: string, port: number): Promise<number>
  /** Serves `socket` as if it had been accepted on the port. */
  accept(socket: Socket, tap: SocketTap): void
  /**
   * The start of a drain: the port closes and idle connections end (a tunnel socket handed over
   * from now on is refused); requests already being received go on to their answer.
   */
  stopAccepting(): void
  /** Ends the keep-alive connections that wait for no request (a drain's answers are all sent). */
  endIdle(): void
  /** The port is open and connections are taken. */
  listening(): boolean
  close(): Promise<void>
  openConnections(): number
  /** The listening socket no longer keeps the process alive on its own (open connections still do). */
  unref(): void
}

export interface ReceiverServerOptions {
  hooks: ServerHooks
  requestDeadlineMs: number
  /** Largest request head; above it the request is refused with 431. */
  maxHeaderSize?: number
  /** The receiver's clock, read at each request's first byte. */
  now: () => number
  /** The wall clock, read at the same moment: real traffic is recorded on it (docs/time.md). */
  wallNow?: () => number
}

function rawRefusal(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`
}

export function createReceiverServer(options: ReceiverServerOptions): ReceiverServer {
  const { hooks, requestDeadlineMs } = options
  const connections = new Map<Socket, ConnectionState>()
  const server = http.createServer({
    headersTimeout: 0,
    requestTimeout: 0,
    maxHeaderSize: options.maxHeaderSize ?? 64 * 1024,
    // Keep every header a sender sent (the head size limit above still bounds them).
    joinDuplicateHeaders: false,
    // A request without Host reaches the receiver, which records it and answers 400 itself.
    requireHostHeader: false,
  })
  server.maxHeadersCount = 0
  // A client that half-closes (FIN) after sending its request still gets its answer; Node's
  // default ends the socket at once, and the answer recorded would never have been sent.
  ;(server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  let closing = false

  function clearDeadline(state: ConnectionState): void {
    if (state.deadline) clearTimeout(state.deadline)
    state.deadline = null
  }

  function armDeadline(state: ConnectionState): void {
    clearDeadline(state)
    state.deadline = setTimeout(() => {
      state.deadline = null
      const reading = state.interrupt
      if (reading) {
        state.interrupt = null
        reading('deadline')
        return
      }
      // Still in the request head: nothing to record but the refusal.
      hooks.onRefused(state.socket.remoteAddress ?? null, 'slow_request', 408)
      if (state.socket.writable) state.socket.end(rawRefusal(408))
      state.socket.destroySoon()
    }, requestDeadlineMs)
  }

  // The tap of the socket being handed over (accept emits 'connection' synchronously).
  let handing: SocketTap | undefined

  // Shared listeners (the socket is `this`): a connection costs no closures for them.
  function onSocketEnd(this: Socket): void {
    connections.get(this)?.halfClosed()
  }
  function onSocketClose(this: Socket): void {
    const state = connections.get(this)
    if (!state) return
    clearDeadline(state)
    state.interrupt = null
    connections.delete(this)
    state.close('the connection closed')
  }

  server.on('connection', (socket: Socket) => {
    const tap = handing
    handing = undefined
    if (closing) {
      socket.destroy()
      return
    }
    const state = new ConnectionState(socket, tap, clearDeadline)
    connections.set(socket, state)
    socket.on('end', onSocketEnd)
    socket.on('close', onSocketClose)
    const parser = (socket as Socket & { parser?: Record<number, unknown> }).parser
    if (parser)
      parser[K_ON_MESSAGE_BEGIN] = () => {
        state.beganAt = options.now()
        state.beganWallAt = options.wallNow ? options.wallNow() : state.beganAt
        armDeadline(state)
        state.tap?.onBegin()
      }
  })

  /** The connection a request came on, unless it is gone or its tap answered the request. */
  function served(req: IncomingMessage, res: ServerResponse): ConnectionState | undefined {
    const state = connections.get(req.socket)
    if (!state) {
      req.socket.destroy()
      return undefined
    }
    return state.tap?.intercept(req, res) ? undefined : state
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // A request on a kept-alive connection during a drain is served, and its connection ends after.
    if (closing) res.shouldKeepAlive = false
    const state = served(req, res)
    if (state) hooks.onRequest(req, res, state)
  })

  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const state = served(req, res)
    if (state) hooks.onExpectContinue(req, res, state)
  })

  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const state = served(req, res)
    if (state) hooks.onExpectation(req, res, state)
  })

  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const state = connections.get(socket)
    if (!state) {
      socket.destroy()
      return
    }
    hooks.onConnect(req, socket, state)
  })

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const state = connections.get(socket)
    if (state) clearDeadline(state)
    const reading = state?.interrupt
    if (state && reading) {
      // The head was fine and the request is being recorded: it keeps the row, and answers 400
      // unless the client is already gone.
      state.interrupt = null
      const gone = error.code === 'ECONNRESET' || socket.destroyed || !socket.writable
      reading(gone ? 'aborted' : 'bad_request')
      if (gone) socket.destroy()
      return
    }
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
    hooks.onRefused(socket.remoteAddress ?? null, status === 431 ? 'headers_too_large' : 'bad_request', status)
    socket.end(rawRefusal(status))
    socket.destroySoon()
  })

  return {
    listen(host, port) {
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error)
        server.once('error', onError)
        server.listen(port, host, () => {
          server.off('error', onError)
          const address = server.address()
          resolve(typeof address === 'object' && address ? address.port : port)
        })
      })
    },
    accept(socket, tap) {
      handing = tap
      server.emit('connection', socket)
      handing = undefined
    },
    stopAccepting() {
      if (closing) return
      closing = true
      // Node's close() also ends the keep-alive connections that wait for no request.
      server.close()
    },
    endIdle: () => server.closeIdleConnections(),
    listening: () => !closing && server.listening,
    close() {
      const wasClosing = closing
      closing = true
      return new Promise((resolve) => {
        // After stopAccepting() the port is already closed: close() would wait for nothing.
        if (wasClosing && !server.listening) resolve()
        else server.close(() => resolve())
        for (const state of connections.values()) {
          clearDeadline(state)
          state.close('the receiver is closing')
          state.socket.destroy()
        }
      })
    },
    unref: () => {
      server.unref()
    },
    openConnections: () => {
      let open = 0
      for (const socket of connections.keys()) if (!socket.destroyed) open++
      return open
    },
  }
}
