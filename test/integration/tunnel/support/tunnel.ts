import { createServer, request, type IncomingHttpHeaders, type Server, type ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TunnelManager } from '../../../../electron/engine/tunnel'
import type { TunnelNotice, TunnelState } from '../../../../shared/tunnel'

/** Every state and notice a manager reported, in order. */
export function record(manager: TunnelManager): { states: TunnelState[]; notices: TunnelNotice[] } {
  const states: TunnelState[] = []
  const notices: TunnelNotice[] = []
  manager.on('state', (s) => states.push(s))
  manager.on('notice', (n) => notices.push(n))
  return { states, notices }
}

/** Waits until `predicate` holds for the manager's state; fails with the states seen so far. */
export function waitForState(manager: TunnelManager, predicate: (s: TunnelState) => boolean, what: string, timeoutMs = 15_000): Promise<TunnelState> {
  if (predicate(manager.state)) return Promise.resolve(manager.state)
  const seen: string[] = [manager.state.kind]
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`tunnel never reached ${what} within ${timeoutMs} ms; states seen: ${seen.join(' → ')}`))
    }, timeoutMs)
    const off = manager.on('state', (s) => {
      seen.push(s.kind)
      if (!predicate(s)) return
      clearTimeout(timer)
      off()
      resolve(s)
    })
  })
}

/** Polls `check` every 20 ms until it holds or the bounded wait ends with `what` as the failure. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export interface Captured {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** A stand-in receiver: a real node:http server capturing every request, answering 200. */
export async function startReceiver(options: ServerOptions = { headersTimeout: 0, requestTimeout: 0 }): Promise<{ port: number; captured: Captured[]; server: Server; close: () => Promise<void> }> {
  const captured: Captured[] = []
  const server = createServer(options, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      captured.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ received: true }))
    })
  })
  return listening(server, captured)
}

export async function listening<T>(server: Server, extra: T): Promise<{ port: number; captured: T; server: Server; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    captured: extra,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Sends an HTTP request to a public URL the loopback tunnel server hands out
 * (http://<id>.localhost:<port>), connecting to 127.0.0.1 with that Host header.
 */
export function sendToPublicUrl(
  publicUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; hostHeader?: string; timeoutMs?: number } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const url = new URL(publicUrl)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: Number(url.port), method: init.method ?? 'POST', path, agent: false, headers: { host: init.hostHeader ?? url.host, ...init.headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.setTimeout(init.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer from ${publicUrl}${path} within ${init.timeoutMs ?? 10_000} ms`)))
    req.on('error', reject)
    req.end(init.body)
  })
}

/**
 * A receiver that keeps Node's header timeout: 1 s (checked every 100 ms), or Node's own
 * defaults (60 s) when `nodeDefaults`. Answers every request with "delivered".
 */
export function idleTimeoutReceiver(nodeDefaults = false): Server {
  return createServer(nodeDefaults ? {} : { headersTimeout: 1000, requestTimeout: 1000, connectionsCheckingInterval: 100 }, (req, res) => {
    req.resume()
    req.on('end', () => res.end('delivered'))
  })
}

/** Starts the manager and waits until it is online; its public URL. */
export async function startOnline(manager: TunnelManager): Promise<string> {
  manager.start()
  await waitForState(manager, (s) => s.kind === 'online', 'online')
  return manager.publicUrl() ?? ''
}
