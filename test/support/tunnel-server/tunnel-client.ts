import { Agent, type ClientRequestArgs } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'

// One tunnel client as a localtunnel server sees it: a TCP port of its own where the client's
// sockets wait in a pool, and an http.Agent that hands those sockets to proxied requests — the
// shape of localtunnel-server's TunnelAgent, so clients meet the same behaviour here as there
// (including idle pooled sockets that are not read until a request takes them).

export interface TunnelClientOptions {
  id: string
  maxSockets: number
  /** With no socket connected for this long, the client is forgotten and its port closed. */
  graceMs: number
  /** A request waits this long for a free socket before it fails (keeps tests bounded). */
  socketWaitMs: number
  /**
   * false (default): localtunnel-server's policy — its agent keeps one free socket and closes
   * the others after each response, so under load the client reopens a socket per request.
   * true: keep every socket for the next request (a server tuned for throughput).
   */
  reuseSockets: boolean
  refuseSockets: () => boolean
  onGone: (id: string) => void
}

type SocketCallback = (error: Error | null, socket?: Socket) => void

export class TunnelClient {
  readonly id: string
  readonly agent: Agent
  private readonly server: Server
  private readonly available: Socket[] = []
  private readonly connected = new Set<Socket>()
  private readonly waiting: { cb: SocketCallback; timer: NodeJS.Timeout }[] = []
  private graceTimer: NodeJS.Timeout | undefined
  private closed = false
  /** Sockets ever accepted into the pool (not refused). */
  accepted = 0

  constructor(private readonly options: TunnelClientOptions) {
    this.id = options.id
    this.server = createServer((socket) => this.onSocket(socket))
    this.server.on('error', () => this.close())
    const agent = options.reuseSockets
      ? new Agent({ keepAlive: true, maxFreeSockets: options.maxSockets, maxSockets: options.maxSockets })
      : new Agent({ keepAlive: true, maxFreeSockets: 1 })
    // The agent's sockets come from the pool instead of new connections.
    ;(agent as unknown as { createConnection: (o: ClientRequestArgs, cb: SocketCallback) => undefined }).createConnection = (_o, cb) => {
      this.take(cb)
      return undefined
    }
    this.agent = agent
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject)
        this.startGrace()
        resolve(this.port)
      })
    })
  }

  get port(): number {
    const address = this.server.address()
    return address && typeof address === 'object' ? address.port : 0
  }

  /** Sockets connected now (pooled or carrying a request). */
  get sockets(): number {
    return this.connected.size
  }

  private onSocket(socket: Socket) {
    if (this.closed || this.options.refuseSockets() || this.connected.size >= this.options.maxSockets) {
      socket.destroy()
      return
    }
    this.accepted++
    this.connected.add(socket)
    // Proxied requests write headers and body separately; without this, Nagle holds the body
    // back until the client's delayed ACK (tens of ms per request).
    socket.setNoDelay(true)
    if (this.graceTimer) clearTimeout(this.graceTimer)
    this.graceTimer = undefined
    socket.on('error', () => socket.destroy())
    socket.once('close', () => {
      this.connected.delete(socket)
      const i = this.available.indexOf(socket)
      if (i >= 0) this.available.splice(i, 1)
      if (this.connected.size === 0) this.startGrace()
    })
    const waiter = this.waiting.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      waiter.cb(null, socket)
    } else this.available.push(socket)
  }

  private take(cb: SocketCallback) {
    if (this.closed) return cb(new Error(`tunnel client ${this.id} is closed`))
    const socket = this.available.shift()
    if (socket) return cb(null, socket)
    const entry = {
      cb,
      timer: setTimeout(() => {
        const i = this.waiting.indexOf(entry)
        if (i >= 0) this.waiting.splice(i, 1)
        cb(new Error(`no tunnel socket from ${this.id} within ${this.options.socketWaitMs} ms`))
      }, this.options.socketWaitMs),
    }
    this.waiting.push(entry)
  }

  private startGrace() {
    if (this.graceTimer || this.closed) return
    this.graceTimer = setTimeout(() => this.close(), this.options.graceMs)
  }

  /** Destroys connected sockets (all by default); the client stays registered (for its grace period). */
  dropSockets(count = Infinity): number {
    const victims = [...this.connected].slice(0, count)
    for (const socket of victims) socket.destroy()
    return victims.length
  }

  close() {
    if (this.closed) return
    this.closed = true
    if (this.graceTimer) clearTimeout(this.graceTimer)
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer)
      w.cb(new Error(`tunnel client ${this.id} is closed`))
    }
    for (const socket of this.connected) socket.destroy()
    this.agent.destroy()
    this.server.close()
    this.options.onGone(this.id)
  }
}
