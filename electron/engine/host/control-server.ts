// The engine's one front door for UIs: an HTTP server on 127.0.0.1 that serves the renderer and,
// at CONTROL_PATH, a WebSocket speaking shared/contract/messages.ts. Host, Origin and the per-run token
// are checked before the upgrade; every command's request is validated by its schema. Whole bodies,
// too big for a frame, go over HTTP beside it (body-routes.ts). With accounts, a signed-in session
// or a machine's API token (`Authorization: Bearer hlk_…`) admits instead of the token, each
// command allowed by its role.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import {
  clientFrameSchema,
  CONTROL_FRAME_LIMIT,
  CONTROL_PATH,
  describeIssues,
  isCommandName,
  requestSchemas,
  type CommandName,
  type CommandResponse,
  type EventArgs,
  type ServerFrame,
} from '../../../shared/contract'
import type { z } from 'zod'
import { createEventBatcher, type EventBatcher, type EventMessage } from '../../../shared/contract'
import { COMMAND_ROLES, roleAtLeast, SIGNED_OUT_CLOSE_CODE, type AuditVia, type Role } from '../../../shared/contract'
import type { AccountView, TokenView } from '../accounts'
import { offersToken, principalName, principalRole, principalWorkspace, type AccountGate, type Principal } from './account-routes'
import { contentSecurityPolicy, hostAllowed, originAllowed, tokenMatches } from './guard'
import { createBodyRoutes, type BodyRefusal, type BodyRoutesOptions } from './body-routes'
import { hostErrorOf } from './host-error'
import { createStaticHandler, securityHeaders } from './static-files'

/**
 * What the control server answers itself, as `METHOD path` (route-decisions.ts gives each its
 * authorisation): the WebSocket, the app's page, and the rest of the built renderer (its scripts
 * and styles). The account, body and probe routes are declared by their modules.
 */
export const CONTROL_ROUTES = [`GET ${CONTROL_PATH}`, 'GET /', 'GET /index.html', 'GET /*'] as const

/** Who sent a command: with accounts, the signed-in account or a machine's API token; without, nobody (the run's token). */
export interface Caller {
  account: AccountView | null
  /** The API token that admitted the command (account is then null). */
  token?: TokenView
  /** How the command came (the audit's `via`): a session's socket, a token, or the app without accounts. */
  via?: AuditVia
  /**
   * With accounts, the workspace the command acts in (its session's or its token's): it sees and
   * changes that workspace's things only. Absent without accounts: everything is `default`'s.
   */
  workspace?: string
  /** The session's secret, to switch its workspace (workspace.switch); never recorded or logged. */
  session?: string
}

/** A principal as the caller of a command: who, in which workspace, and how. */
export function callerOf(principal: Principal): Caller {
  const workspace = principalWorkspace(principal)
  if (principal.token) return { account: null, token: principal.token, via: 'token', workspace }
  return { account: principal.account, via: 'session', workspace, ...(principal.session === undefined ? {} : { session: principal.session }) }
}

export type CommandHandlers = {
  [C in CommandName]: (req: z.output<(typeof requestSchemas)[C]>, caller: Caller) => Promise<CommandResponse<C>> | CommandResponse<C>
}

export interface ControlServerOptions {
  /** 0 picks a free port. */
  port: number
  /** A loopback address to listen on (default 127.0.0.1; ::1 for IPv6). */
  host?: string
  /** Routes answered before the Host check and without the token (probe-routes.ts): true when answered. */
  probes?: (req: IncomingMessage, res: ServerResponse) => boolean
  token: string
  handlers: CommandHandlers
  /** Whole request bodies downloaded and new ones uploaded (shared/contract/bodies.ts). */
  bodies?: Omit<BodyRoutesOptions, 'token'>
  /** The built renderer to serve; without it only the WebSocket answers. */
  staticDir?: string
  /** How often queued events are flushed to the UIs. */
  flushMs?: number
  /** A client whose socket holds more than this many unsent bytes gets no row updates until it
   *  drains; it then receives one timeline.reset and re-reads (a slow UI never stalls the engine). */
  maxBufferedBytes?: number
  log?: (line: string) => void
  /**
   * Accounts on (`serve --accounts`): the socket admits a signed-in session or an API token instead
   * of the run's token, each command is allowed by the account's or the token's role
   * (shared/contract/command-roles.ts), and the app's page is shown only to someone signed in.
   */
  accounts?: AccountGate
  /** The address a served Hookloop is reached by besides loopback (`serve --public-url`). */
  publicUrl?: URL
  /**
   * Called after each command that succeeded, before its answer is sent (audit-record.ts keeps
   * the changes): every change goes through here, whichever handler made it. A refused or failed
   * command is not a change and is not passed on.
   */
  succeeded?: (name: CommandName, req: unknown, res: unknown, caller: Caller) => Promise<void>
  /** With accounts: whether a captured request is in this workspace (the body routes ask). */
  owns?: (workspace: string, requestId: number) => Promise<boolean>
  /** With accounts: of a batch of pushed events, what a socket of this workspace is sent. */
  scope?: (workspace: string, batch: readonly EventMessage[]) => EventMessage[]
}

export interface ControlServer {
  readonly port: number
  /** http://127.0.0.1:<port> (http://[::1]:<port> on IPv6 loopback) */
  readonly origin: string
  /** The URL a person opens: the origin with the token in the fragment (never sent over HTTP). */
  readonly openUrl: string
  publish(...event: EventArgs): void
  readonly clientCount: number
  close(): Promise<void>
}

interface Client {
  socket: WebSocket
  behind: boolean
  /**
   * With accounts, the workspace the socket was opened in: it stays that workspace's for its life
   * (what it is pushed is filtered by it), and is closed when its session moves to another.
   */
  workspace?: string
  /** With accounts: the upgrade request, whose session cookie or API token is looked up again for each command. */
  request?: IncomingMessage
}

export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const flushMs = options.flushMs ?? 30
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024
  const log = options.log ?? (() => {})
  const clients = new Set<Client>()
  const batcher: EventBatcher = createEventBatcher()
  let flushTimer: NodeJS.Timeout | null = null
  let port = options.port
  let serveStatic: ReturnType<typeof createStaticHandler> | null = null
  const listenHost = options.host ?? '127.0.0.1'
  const gateForBodies = options.accounts
  // With accounts, a body route admits whoever the socket admits, by the same roles.
  const admitBody = async (req: IncomingMessage, needed: Role, what: string): Promise<BodyRefusal | null> => {
    const principal = await gateForBodies?.caller(req)
    // "No detail of why": a wrong, unknown or revoked token all read the same.
    if (!principal) return { status: 401, message: offersToken(req) ? 'unauthorized' : 'not signed in: bodies are served to a signed-in session or an API token' }
    // A session's cookie rides along with any page of the same site (another port on this host
    // included), so a write it admits must come from our own page: a browser always sends Origin
    // with a post. A token is held by the machine that sends it and needs no such check.
    if (!principal.token && req.method !== 'GET' && req.method !== 'HEAD' && !originAllowed(port, req.headers.origin, publicUrl)) return { status: 403, message: 'foreign Origin' }
    const role = principalRole(principal)
    return roleAtLeast(role, needed) ? null : { status: 403, message: `${what} needs the ${needed} role; ${principalName(principal)} is ${article(role)} ${role}` }
  }
  // With accounts, a body of another workspace's request reads as one that does not exist.
  const sees = async (req: IncomingMessage, requestId: number): Promise<boolean> => {
    const principal = await gateForBodies?.caller(req, { use: false })
    return principal !== null && principal !== undefined && options.owns !== undefined && (await options.owns(principalWorkspace(principal), requestId))
  }
  const serveBody = options.bodies ? createBodyRoutes({ ...options.bodies, token: options.token, ...(gateForBodies ? { admit: admitBody, sees } : {}) }) : null

  const publicUrl = options.publicUrl
  const gate = options.accounts
  const server: Server = createServer((req, res) => {
    if (options.probes?.(req, res)) return
    if (!hostAllowed(port, req.headers.host, publicUrl)) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end(`misdirected request: this server answers only to 127.0.0.1 and localhost${publicUrl ? ` and ${publicUrl.host}` : ''}\n`)
      return
    }
    if (gate?.route(req, res)) return
    if (serveBody?.(req, res, securityHeaders(contentSecurityPolicy(port, publicUrl)))) return
    if (serveStatic) {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname
      // The app's page is for someone signed in; its scripts and styles are the same for everyone.
      if (gate && (path === '/' || path === '/index.html')) {
        gate.account(req).then(
          (account) => (account ? void serveStatic?.(req, res) : res.writeHead(303, { location: '/signin', 'cache-control': 'no-store' }).end()),
          () => res.writeHead(503, { 'content-type': 'text/plain' }).end('the accounts could not be read\n'),
        )
        return
      }
      void serveStatic(req, res)
      return
    }
    res.writeHead(404, { ...securityHeaders(contentSecurityPolicy(port)), 'content-type': 'text/plain' }).end('no UI is served here\n')
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: CONTROL_FRAME_LIMIT })
  // With accounts, who each upgrade was admitted as: its socket is of that principal's workspace.
  const admittedAs = new WeakMap<IncomingMessage, Principal>()

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void refuseUpgrade(req).then(
      (refusal) => {
        if (refusal) {
          log(`control: refused a connection (${refusal.reason})`)
          const challenge = refusal.status.startsWith('401') && gate ? 'WWW-Authenticate: Bearer\r\n' : ''
          socket.end(`HTTP/1.1 ${refusal.status}\r\nConnection: close\r\nContent-Type: text/plain\r\n${challenge}\r\n${refusal.reason}\n`)
          return
        }
        wss.handleUpgrade(req, socket, head, (ws) => accept(ws, gate ? req : undefined, admittedAs.get(req)))
      },
      (error: unknown) => {
        log(`control: refused a connection (the accounts could not be read: ${String(error)})`)
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n')
      },
    )
  })

  async function refuseUpgrade(req: IncomingMessage): Promise<{ status: string; reason: string } | null> {
    if (!hostAllowed(port, req.headers.host, publicUrl)) return { status: '421 Misdirected Request', reason: 'foreign Host' }
    // A browser always sends its page's Origin, which must be ours: another site's page cannot use
    // the session cookie the browser would send with it. A machine (a script, CI with an API token)
    // sends none: with accounts it is judged by its credentials alone, which it holds itself.
    const machine = gate !== undefined && req.headers.origin === undefined
    if (!machine && !originAllowed(port, req.headers.origin, publicUrl)) return { status: '403 Forbidden', reason: 'foreign Origin' }
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname !== CONTROL_PATH) return { status: '404 Not Found', reason: 'unknown path' }
    // With accounts the run's token admits nobody: only a signed-in session or an API token does.
    // A refused token is told no more than that (wrong, unknown and revoked alike).
    if (gate) {
      const principal = await gate.caller(req)
      if (!principal) return { status: '401 Unauthorized', reason: offersToken(req) ? 'unauthorized' : 'not signed in' }
      admittedAs.set(req, principal)
      return null
    }
    if (!tokenMatches(options.token, url.searchParams.get('token'))) return { status: '401 Unauthorized', reason: 'wrong token' }
    return null
  }

  /** Who sends this command, or why this client may not run it now. */
  async function clientCaller(client: Client, name: CommandName): Promise<Caller | { code: 'forbidden' | 'signed_out'; message: string; close?: boolean }> {
    if (!gate || !client.request) return { account: null, via: 'app' }
    const principal = await gate.caller(client.request)
    if (!principal) return { code: 'signed_out', message: offersToken(client.request) ? 'unauthorized' : 'you are signed out: sign in again', close: true }
    // The session moved to another workspace (another window switched it): this socket was that
    // workspace's, and its page reloads into the new one.
    if (client.workspace !== undefined && principalWorkspace(principal) !== client.workspace) return { code: 'signed_out', message: 'this session looks at another workspace now: reload', close: true }
    const needed = COMMAND_ROLES[name]
    const role = principalRole(principal)
    if (roleAtLeast(role, needed)) return callerOf(principal)
    return { code: 'forbidden', message: `${name} needs the ${needed} role; ${principalName(principal)} is ${article(role)} ${role}` }
  }

  // A session ended (sign-out, a disabled account) or a token was revoked here: its sockets close
  // at once, so they receive no more of what the engine pushes. A token revoked by another process
  // is seen within a second, at the latest when its socket's next command is checked.
  const checkAgain = (which: (client: Client) => boolean) => {
    if (!gate) return
    for (const client of clients) {
      const request = client.request
      if (!request || !which(client)) continue
      void gate.caller(request, { use: false }).then(
        (principal) => (principal && (client.workspace === undefined || principalWorkspace(principal) === client.workspace)) || client.socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out'),
        () => undefined,
      )
    }
  }
  const offAccounts = gate?.onChange(() => checkAgain(() => true))
  // A quiet socket opened with a token that another process revoked is closed too, within about
  // two seconds: its token is checked again each second (a cached check most of the time). The
  // sockets a session opened are checked each second too, all of them in one read: a member
  // disabled, signed out or removed from the workspace, on another process on the same store, loses
  // them within a second; so does a socket whose session moved to another workspace (its page
  // reloads into that one).
  let sweeping = false
  async function sweepSessions(): Promise<void> {
    if (!gate || sweeping) return
    const bySession = [...clients].filter((client) => client.request !== undefined && !offersToken(client.request))
    if (bySession.length === 0) return
    sweeping = true
    try {
      const gone = new Set(await gate.signedOut(bySession.map((client) => ({ request: client.request as IncomingMessage, ...(client.workspace === undefined ? {} : { workspace: client.workspace }) }))))
      for (const client of bySession) if (client.request && gone.has(client.request)) client.socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out')
    } finally {
      sweeping = false
    }
  }
  const sweep = gate
    ? setInterval(() => {
        checkAgain((client) => client.request !== undefined && offersToken(client.request))
        // A store that cannot be read now closes nobody: the next sweep asks again.
        sweepSessions().catch(() => undefined)
      }, 1_000)
    : null
  sweep?.unref()

  function send(client: Client, frame: ServerFrame): void {
    if (client.socket.readyState !== client.socket.OPEN) return
    client.socket.send(JSON.stringify(frame))
  }

  function accept(socket: WebSocket, request?: IncomingMessage, principal?: Principal): void {
    const client: Client = { socket, behind: false, ...(request ? { request } : {}), ...(principal ? { workspace: principalWorkspace(principal) } : {}) }
    clients.add(client)
    socket.on('close', () => clients.delete(client))
    socket.on('error', () => clients.delete(client))
    socket.on('message', (data, isBinary) => {
      if (isBinary) return socket.close(1003, 'text frames only')
      void handleFrame(client, data.toString())
    })
    send(client, { t: 'hello', version: 1 })
  }

  async function handleFrame(client: Client, text: string): Promise<void> {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      client.socket.close(1007, 'frames are JSON')
      return
    }
    const frame = clientFrameSchema.safeParse(raw)
    if (!frame.success) {
      client.socket.close(1008, 'not a command frame')
      return
    }
    const { id, name } = frame.data
    if (!isCommandName(name)) {
      send(client, { t: 'res', id, ok: false, error: { code: 'unknown_command', message: `unknown command "${name}"` } })
      return
    }
    try {
      // Who may run it is decided before its request is read: a role below the command's is told
      // the role it needs whatever it sent, and learns nothing of the request's shape.
      const caller = await clientCaller(client, name)
      if ('code' in caller) {
        send(client, { t: 'res', id, ok: false, error: { code: caller.code, message: caller.message } })
        if (caller.close) client.socket.close(SIGNED_OUT_CLOSE_CODE, 'signed out')
        return
      }
      const parsed = requestSchemas[name].safeParse(frame.data.req ?? {})
      if (!parsed.success) {
        send(client, { t: 'res', id, ok: false, error: { code: 'bad_request', message: describeIssues(name, parsed.error) } })
        return
      }
      const handler = options.handlers[name] as (req: unknown, caller: Caller) => unknown
      const res = await handler(parsed.data, caller)
      // The change is made: a failure to record it is logged, and the answer still says it was made.
      await options.succeeded?.(name, parsed.data, res, caller).catch((error: unknown) => log(`control: ${name} was not recorded in the audit: ${error instanceof Error ? error.message : String(error)}`))
      send(client, { t: 'res', id, ok: true, res })
    } catch (error) {
      const known = hostErrorOf(error)
      if (known) {
        send(client, { t: 'res', id, ok: false, error: { code: known.code, message: known.message } })
      } else {
        log(`control: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        const message = error instanceof Error ? error.message : String(error)
        send(client, { t: 'res', id, ok: false, error: { code: 'internal', message: `${name} failed: ${message}` } })
      }
    }
  }

  function flush(): void {
    flushTimer = null
    const batch = batcher.drain()
    if (batch.length === 0) return
    // With accounts, each socket is pushed what its workspace may see (workspace-scope.ts).
    const seenBy = (client: Client): EventMessage[] => (client.workspace !== undefined && options.scope ? options.scope(client.workspace, batch) : batch)
    for (const client of clients) {
      if (client.socket.bufferedAmount > maxBuffered) {
        client.behind = true
        continue
      }
      if (client.behind) {
        client.behind = false
        const others = seenBy(client).filter((event) => event.name !== 'timeline.upsert')
        send(client, { t: 'events', batch: [...others, { name: 'timeline.reset', payload: { total: -1 } }] })
        continue
      }
      send(client, { t: 'events', batch: seenBy(client) })
    }
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject)
    server.listen(options.port, listenHost, () => {
      server.off('error', reject)
      resolvePromise()
    })
  })
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('control server: no port after listen')
  port = address.port
  if (options.staticDir) serveStatic = createStaticHandler(options.staticDir, contentSecurityPolicy(port, publicUrl))
  const origin = `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${port}`

  return {
    port,
    origin,
    openUrl: `${origin}/#token=${encodeURIComponent(options.token)}`,
    publish(...event) {
      batcher.push(...event)
      if (!flushTimer && clients.size > 0) flushTimer = setTimeout(flush, flushMs)
      else if (clients.size === 0) batcher.drain() // nobody listens: nothing to keep
    },
    get clientCount() {
      return clients.size
    },
    async close() {
      offAccounts?.()
      if (sweep) clearInterval(sweep)
      if (flushTimer) clearTimeout(flushTimer)
      for (const client of clients) client.socket.terminate()
      wss.close()
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()))
    },
  }
}

const article = (role: string): string => (/^[aeiou]/.test(role) ? 'an' : 'a')
