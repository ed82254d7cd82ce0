// After an early refusal (413 or 503 decided from the head, 417 …) the client may still be sending
// the body the receiver will not keep. Closing the socket with those bytes unread makes the kernel
// answer them with a reset, and a client that reads only once it has written (most do) loses the
// status to ECONNRESET or EPIPE. So, as Apache's and nginx's lingering close do: the answer goes out
// with `Connection: close`, our side half-closes after it (FIN: the client sees the answer end), and
// what still comes is read and thrown away until the client closes or the body ends — within a bound
// of bytes and time, after which the socket is closed anyway.
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

export interface LingerBounds {
  /** Bytes read and discarded at most after the answer. */
  maxBytes: number
  /** How long at most, from the answer on. */
  maxMs: number
  /** How long at most without a byte from the client. */
  idleMs: number
}

export const LINGER_BOUNDS: LingerBounds = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000, idleMs: 2_000 }

/** How a lingering close ended: the client had everything (it closed, or its body ended), or a bound cut it. */
export type LingerEnd = 'read' | 'cut'

/**
 * Arms a lingering close for the answer about to be written on `res` of `req`: Node's HTTP server
 * closes a `Connection: close` socket by calling its destroySoon() once the answer is written, and
 * that call is the one place to step in, so this socket's destroySoon half-closes and lingers instead.
 */
export function lingerAfterAnswer(req: IncomingMessage, socket: Socket, bounds: LingerBounds, done: (end: LingerEnd) => void): void {
  let discarded = 0
  let lingering = false
  let ended = false
  // The body is pulled off the wire and dropped: the parser keeps framing it, nothing is kept. The
  // bound counts from the answer on: bytes before it never cut the answer itself.
  const discard = (chunk: Buffer) => {
    if (!lingering) return
    discarded += chunk.length
    if (discarded > bounds.maxBytes) stop('cut')
  }
  req.on('data', discard)
  req.resume()
  let total: NodeJS.Timeout | undefined
  let idle: NodeJS.Timeout | undefined
  const stop = (end: LingerEnd) => {
    if (ended) return
    ended = true
    clearTimeout(total)
    clearTimeout(idle)
    req.off('data', discard)
    socket.off('data', onClientBytes)
    socket.off('end', onClientEnd)
    // After the answer is flushed, as Node's own destroySoon does: a close before would cut it.
    if (socket.writableFinished || socket.destroyed) socket.destroy()
    else socket.once('finish', () => socket.destroy())
    done(end)
  }
  const onClientBytes = () => {
    clearTimeout(idle)
    idle = setTimeout(() => stop('cut'), bounds.idleMs)
  }
  const onClientEnd = () => stop('read')
  socket.destroySoon = function lingeringClose(this: Socket) {
    lingering = true
    if (this.writable) this.end()
    // Nothing more to come (the body ended, or the client closed already): close as Node would.
    if (req.complete || this.readableEnded) return stop('read')
    total = setTimeout(() => stop('cut'), bounds.maxMs)
    idle = setTimeout(() => stop('cut'), bounds.idleMs)
    socket.on('data', onClientBytes)
    socket.on('end', onClientEnd)
    req.once('end', () => stop('read'))
    socket.once('close', () => stop('read'))
  }
}
