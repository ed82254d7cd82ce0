import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { HEALTH_ECHO_HEADER, HEALTH_PATH_PREFIX } from './health'

// When the receiver runs in this process, a tunnel socket is not relayed to a new connection on
// 127.0.0.1: it is handed to the receiver's own HTTP server, which reads requests off it and
// writes answers into it as for any connection accepted on its port (the same parser, deadlines,
// limits and refusals). That saves a loopback hop, a second HTTP parse of every request and
// answer, and a receiver connection per tunnel socket — the localtunnel server closes most
// sockets after one answer. What the tunnel still needs to know it learns through the tap: when a
// request begins (busy, healthy) and when its answer is done (busy no more; a draining socket
// closes then), and it answers its own health check before the receiver sees it.

/** What an in-process HTTP server tells the tunnel about a socket it serves. */
export interface TunnelSocketTap {
  /** A request's first byte arrived. */
  onBegin(): void
  /** Asked for every request head before the server handles it; true: the tunnel answered it. */
  intercept(req: IncomingMessage, res: ServerResponse): boolean
}

/** An HTTP server in this process that serves tunnel sockets itself (the receiver's `accept`). */
export type TunnelAcceptor = (socket: Socket, tap: TunnelSocketTap) => void

export interface HandedSocket {
  readonly remote: Socket
  /** A request has begun on it and its answer is not done. */
  busy(): boolean
}

export interface HandOffOptions {
  accept: TunnelAcceptor
  healthSecret: string
  /** The pool is draining: close the socket as soon as it carries nothing. */
  draining(): boolean
  /** A socket asked to close that the server never closes is destroyed after this. */
  closeTimeoutMs: number
}

/**
 * What hands a pool's sockets over: made once per pool, so that a new socket (one for most
 * requests through localtunnel-server) costs only its own count and tap.
 * `onRequest`: a request began on the socket (it is healthy).
 */
export function createHandOff(options: HandOffOptions): (remote: Socket, onRequest: () => void) => HandedSocket {
  const healthPath = `${HEALTH_PATH_PREFIX}${options.healthSecret}`
  const healthAnswer = Object.freeze({ [HEALTH_ECHO_HEADER]: options.healthSecret })
  return (remote, onRequest) => {
    // Requests begun whose answers are not done. The receiver may refuse a request before it has
    // a head (a bad request, a slow one): it then closes the socket, which ends the count with it.
    let pending = 0
    let ending = false

    function settle() {
      if (pending > 0 || ending || !options.draining() || remote.destroyed) return
      // The answer is out: closing now drops nothing. The tunnel server closes its side on our FIN.
      ending = true
      remote.end()
      remote.setTimeout(options.closeTimeoutMs, () => remote.destroy())
    }

    function answered() {
      if (pending > 0) pending--
      // The receiver's HTTP server closes a connection idle for its keep-alive timeout (5 s).
      // A tunnel socket must stay: the tunnel server keeps it for a later request, and
      // closing it just as the server writes one into it would lose that request.
      if (!remote.destroyed && !ending) remote.setTimeout(0)
      settle()
    }

    options.accept(remote, {
      onBegin() {
        pending++
        onRequest()
      },
      intercept(req, res) {
        res.once('close', answered)
        if (req.method !== 'GET' || req.url !== healthPath) return false
        req.resume()
        // Keep-alive: the tunnel server may reuse the socket, so a health check costs no socket.
        res.writeHead(204, healthAnswer)
        res.end()
        return true
      },
    })
    return { remote, busy: () => pending > 0 }
  }
}
