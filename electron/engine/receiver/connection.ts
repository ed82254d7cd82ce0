import type { Socket } from 'node:net'
import type { SocketTap } from './server'

// One connection of the receiver's HTTP server: what a request may wait on, and the state of the
// request being received. Through the real localtunnel server most requests come on a connection
// of their own (it closes the tunnel socket after the answer), so what a connection costs to set
// up and tear down is paid per request. Hence nothing here is made before it is needed: an
// AbortSignal only when a request waits on one (a delay, a hold, a drip), the Error given as its
// reason only when there is a signal to abort, and the answer's own "is the caller gone?" check
// reads a flag.

export interface Connection {
  socket: Socket
  /** Aborted when the socket closes or the server stops. Made on first use. */
  readonly signal: AbortSignal
  /**
   * Aborted by either of the above or by the client's half-close (FIN): what ends a wait on
   * behalf of the request (a client that half-closed may still read an answer, but a hold or
   * delay for it ends). One per connection, made on first use, so a request does not pay for
   * AbortSignal.any (costly on Node 20).
   */
  readonly waitEnds: AbortSignal
  /** `signal.aborted`, read without making the signal. */
  readonly closed: boolean
  /** `waitEnds.aborted`, read without making the signal. */
  readonly waitsEnded: boolean
  /** The client half-closed (FIN), or the socket closed. */
  readonly peerHasEnded: boolean
  /** Set by a request while its body is being read: the deadline or a parse error mid-body ends the read. */
  interrupt: ((reason: 'deadline' | 'bad_request' | 'aborted') => void) | null
  /** The request being received has all its bytes: stop its deadline. */
  received(): void
  /** When the request being received sent its first byte (on the receiver's clock), null before. */
  beganAt: number | null
  /** The same moment on the wall clock. */
  beganWallAt: number | null
}

/** A controller for a signal asked for after its reason was set is aborted at once. */
function controllerFor(why: string | null): AbortController {
  const controller = new AbortController()
  if (why !== null) controller.abort(new Error(why))
  return controller
}

export class ConnectionState implements Connection {
  deadline: NodeJS.Timeout | null = null
  interrupt: Connection['interrupt'] = null
  beganAt: number | null = null
  beganWallAt: number | null = null
  /** Why `signal` is aborted (the socket closed, the server stops); null while it is not. */
  private closedWhy: string | null = null
  /** Why `waitEnds` is aborted (the first of a half-close, a close, the server stopping). */
  private waitsWhy: string | null = null
  private closeController: AbortController | undefined
  private waitsController: AbortController | undefined

  constructor(
    readonly socket: Socket,
    /** Set for a socket handed to the server (a tunnel socket). */
    readonly tap: SocketTap | undefined,
    private readonly clearDeadline: (state: ConnectionState) => void,
  ) {}

  get signal(): AbortSignal {
    this.closeController ??= controllerFor(this.closedWhy)
    return this.closeController.signal
  }

  get waitEnds(): AbortSignal {
    this.waitsController ??= controllerFor(this.waitsWhy)
    return this.waitsController.signal
  }

  get closed(): boolean {
    return this.closedWhy !== null
  }

  get waitsEnded(): boolean {
    return this.waitsWhy !== null
  }

  // The same fact as waitsEnded under the name its readers ask by: a half-close or a close ends both.
  get peerHasEnded(): boolean {
    return this.waitsWhy !== null
  }

  received(): void {
    this.clearDeadline(this)
  }

  /** The client half-closed: waits for it end, an answer may still be written. */
  halfClosed(): void {
    this.endWaits('the client half-closed the connection')
  }

  /** The socket closed or the server stops: everything on the connection ends. */
  close(why: string): void {
    if (this.closedWhy === null) {
      this.closedWhy = why
      this.closeController?.abort(new Error(why))
    }
    this.endWaits(why)
  }

  private endWaits(why: string): void {
    if (this.waitsWhy !== null) return
    this.waitsWhy = why
    this.waitsController?.abort(new Error(why))
  }
}
