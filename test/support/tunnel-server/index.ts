import { randomBytes } from 'node:crypto'
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { TunnelClient } from './tunnel-client'

// A localtunnel-protocol server on loopback, for tests and benchmarks (test equipment, not part
// of Hookloop). It speaks what localtunnel-server speaks:
//   GET /?new          → {id, port, max_conn_count, url}   (a random subdomain)
//   GET /<subdomain>   → the same, with that subdomain if free (a random one if taken)
//   GET /api/tunnels/<id>/status → {connected_sockets} (404 for an unknown id)
//   any request with Host <id>.localhost:<port> → proxied through client <id>'s socket pool
// and has switches to fail on purpose: answer /?new with an error or never, refuse or drop the
// clients' sockets, hand out a different subdomain than asked, stop and start (a restart).

export type NewTunnelMode = { kind: 'ok' } | { kind: 'status'; status: number; message?: string } | { kind: 'hang' }

export interface TunnelServerOptions {
  /** API port; 0 picks one (kept across restarts). */
  port?: number
  maxSockets?: number
  /** A client with no socket for this long is forgotten (localtunnel-server: 1 s). */
  graceMs?: number
  socketWaitMs?: number
  /** Keep every client socket for the next request (default: localtunnel-server's one free socket). */
  reuseSockets?: boolean
}

/** What both tunnel servers for tests offer: ours here, the real one in real-server.ts. */
export interface TunnelServerControls {
  readonly port: number
  /** The server URL to give a tunnel client (http://127.0.0.1:<port> here). */
  readonly url: string
  /** Starts it again on the same port, with no memory of earlier tunnels. */
  start(): Promise<void>
  /** Like a killed process: listeners closed, every client and socket gone. */
  stop(): Promise<void>
  restart(): Promise<void>
}

export interface TunnelServer extends TunnelServerControls {
  setNewTunnelMode(mode: NewTunnelMode): void
  /** Tunnel ports accept and at once close every new client socket. */
  setRefuseSockets(refuse: boolean): void
  /** Off: public requests get 404 "no active client" although the sockets stay connected. */
  setRouteRequests(route: boolean): void
  /** Destroys every client socket; with `forget`, also forgets the clients (their ports close). */
  dropAllSockets(options?: { forget?: boolean }): number
  /** Destroys up to `count` sockets of every client. */
  dropSomeSockets(count: number): number
  /** Subdomains that are "taken": asking for one gets a random subdomain, as on the real server. */
  takeSubdomain(name: string): void
  /** Times (ms) at which tunnel requests (/?new or /<subdomain>) arrived, whatever the answer. */
  readonly tunnelRequests: readonly number[]
  clients(): { id: string; port: number; sockets: number; accepted: number }[]
  /** Requests proxied to clients, by id. */
  proxied(id: string): number
}

const SUBDOMAIN = /^(?:[a-z0-9][a-z0-9-]{4,63}[a-z0-9]|[a-z0-9]{4,63})$/

export async function createTunnelServer(options: TunnelServerOptions = {}): Promise<TunnelServer> {
  const maxSockets = options.maxSockets ?? 10
  const graceMs = options.graceMs ?? 1000
  const socketWaitMs = options.socketWaitMs ?? 5000
  const clients = new Map<string, TunnelClient>()
  const taken = new Set<string>()
  const proxiedCount = new Map<string, number>()
  const tunnelRequests: number[] = []
  const connections = new Set<Socket>()
  let mode: NewTunnelMode = { kind: 'ok' }
  let refuseSockets = false
  let routeRequests = true
  let port = options.port ?? 0
  let server: Server | undefined

  const publicUrl = (id: string) => `http://${id}.localhost:${port}`

  function clientIdFromHost(host: string | undefined): string | undefined {
    const hostname = (host ?? '').split(':')[0]?.toLowerCase() ?? ''
    if (!hostname.endsWith('.localhost')) return undefined
    return hostname.slice(0, -'.localhost'.length).split('.').pop()
  }

  async function newClient(requested: string | undefined, res: ServerResponse) {
    const id = requested !== undefined && !clients.has(requested) && !taken.has(requested) ? requested : randomBytes(5).toString('hex')
    const client = new TunnelClient({
      id,
      maxSockets,
      graceMs,
      socketWaitMs,
      reuseSockets: options.reuseSockets ?? false,
      refuseSockets: () => refuseSockets,
      onGone: (gone) => {
        if (clients.get(gone) === client) clients.delete(gone)
      },
    })
    clients.set(id, client)
    const clientPort = await client.listen()
    json(res, 200, { id, port: clientPort, max_conn_count: maxSockets, url: publicUrl(id) })
  }

  function api(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x')
    const status = /^\/api\/tunnels\/([^/]+)\/status$/.exec(url.pathname)
    if (status) {
      const client = clients.get(decodeURIComponent(status[1] ?? ''))
      return client ? json(res, 200, { connected_sockets: client.sockets }) : json(res, 404, { message: 'no such tunnel' })
    }
    const isNew = url.pathname === '/' && url.searchParams.has('new')
    const requested = url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : undefined
    if (!isNew && requested === undefined) return json(res, 404, { message: 'ask for /?new or /<subdomain>' })
    tunnelRequests.push(Date.now())
    switch (mode.kind) {
      case 'hang':
        return // never answers; the connection is destroyed on stop()
      case 'status':
        return json(res, mode.status, { message: mode.message ?? `failing on purpose with ${mode.status}` })
      case 'ok':
        break
      default: {
        const never: never = mode
        return never
      }
    }
    if (requested !== undefined && !SUBDOMAIN.test(requested)) {
      return json(res, 403, { message: 'Invalid subdomain. Subdomains must be lowercase and between 4 and 63 alphanumeric characters.' })
    }
    newClient(requested, res).catch((error: unknown) => json(res, 500, { message: String(error) }))
  }

  function proxy(id: string, req: IncomingMessage, res: ServerResponse) {
    const client = routeRequests ? clients.get(id) : undefined
    if (!client) return json(res, 404, { message: `no active client for '${id}'` })
    proxiedCount.set(id, (proxiedCount.get(id) ?? 0) + 1)
    const upstream = request({ method: req.method, path: req.url, headers: req.headers, agent: client.agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
      answer.pipe(res)
      answer.on('error', () => res.destroy())
    })
    upstream.on('error', (error) => {
      if (!res.headersSent) json(res, 502, { message: `tunnel error: ${error.message}` })
      else res.destroy()
    })
    req.pipe(upstream)
  }

  function listen(): Promise<void> {
    const s = createServer((req, res) => {
      const id = clientIdFromHost(req.headers.host)
      if (id !== undefined) proxy(id, req, res)
      else api(req, res)
    })
    s.on('connection', (socket) => {
      connections.add(socket)
      socket.once('close', () => connections.delete(socket))
    })
    s.on('clientError', (_error, socket) => socket.destroy())
    return new Promise((resolve, reject) => {
      s.once('error', reject)
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject)
        const address = s.address()
        if (address && typeof address === 'object') port = address.port
        server = s
        resolve()
      })
    })
  }

  async function stop() {
    const s = server
    server = undefined
    for (const client of [...clients.values()]) client.close()
    clients.clear()
    for (const socket of connections) socket.destroy()
    connections.clear()
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()))
  }

  await listen()

  return {
    get port() {
      return port
    },
    get url() {
      return `http://127.0.0.1:${port}`
    },
    start: () => (server ? Promise.resolve() : listen()),
    stop,
    async restart() {
      await stop()
      await listen()
    },
    setNewTunnelMode(next) {
      mode = next
    },
    setRefuseSockets(refuse) {
      refuseSockets = refuse
    },
    setRouteRequests(route) {
      routeRequests = route
    },
    dropAllSockets(opts = {}) {
      let n = 0
      for (const client of [...clients.values()]) {
        n += client.dropSockets()
        if (opts.forget) client.close()
      }
      return n
    },
    dropSomeSockets(count) {
      let n = 0
      for (const client of clients.values()) n += client.dropSockets(count)
      return n
    },
    takeSubdomain(name) {
      taken.add(name)
    },
    tunnelRequests,
    clients: () => [...clients.values()].map((c) => ({ id: c.id, port: c.port, sockets: c.sockets, accepted: c.accepted })),
    proxied: (id) => proxiedCount.get(id) ?? 0,
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}
