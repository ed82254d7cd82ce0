// What a forward leg puts on the wire, and which HTTP client writes it. Forward mode is faithful:
// the app gets the provider's headers, and the leg records exactly the header lines the app got.
//
// undici, the engine's client, writes every leg but one kind. Beside the headers it is given it
// writes its own framing: `host` first, then `connection` (`close` on a HEAD, else `keep-alive`),
// the rest in order, `content-length` last — and it leaves out a `content-length: 0` on a method
// whose semantics expect no body (GET, HEAD, DELETE, OPTIONS …), as RFC 9110 §8.6 lets a user agent
// do (undici's `expectsPayload`, lib/dispatcher/client-h1.js). A provider that sent such a request
// with an explicit `content-length: 0` would then reach the app without it. Exactly those legs
// go through node:http's client, which writes the header lines it is given as they are; every
// other leg stays on undici (its pool is what forward floods were measured on).
//
// `outboundHeaders` (forward.ts) lists the lines in the order both clients write them, with the
// `connection` and `content-length` lines chosen here, so the list stored with the leg is what
// went on the wire (test/integration/receiver/forward-wire.test.ts compares it with the app's
// raw headers).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { Agent, type Dispatcher } from 'undici'

/** Methods undici always frames with a `content-length` (0 for no body): its `expectsPayload`. */
const PAYLOAD_METHODS = new Set(['PUT', 'POST', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH'])

/** How the connection is asked to go on after the leg: undici closes after a HEAD (a misbehaving app may answer it with a body). */
export function connectionFor(method: string): string {
  return method === 'HEAD' ? 'close' : 'keep-alive'
}

/**
 * The leg's `content-length`, or null for none: the body's length when the provider framed a body
 * (it sent Content-Length or Transfer-Encoding), when there is a body, or when the method expects
 * one (a client frames those always); a bodiless GET that said nothing says nothing to the app.
 */
export function contentLengthFor(method: string, providerFramed: boolean, bodyLength: number): string | null {
  return providerFramed || bodyLength > 0 || PAYLOAD_METHODS.has(method) ? String(bodyLength) : null
}

/** undici would leave this leg's `content-length: 0` out: node:http writes it instead. */
function undiciDropsContentLength(method: string, headers: readonly [string, string][]): boolean {
  if (PAYLOAD_METHODS.has(method)) return false
  for (const [name, value] of headers) if (name.toLowerCase() === 'content-length') return value === '0'
  return false
}

/** What the forwarder hears about one leg (undici's dispatch handler, which node:http's leg speaks too). */
export interface LegHandler {
  /** The leg can now be cut with `abort`. */
  onConnect(abort: (reason: Error) => void): void
  /** The app's status and raw header lines; false pauses the body until `resume`. */
  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean
  /** A piece of the app's body; false pauses until `resume`. */
  onData(chunk: Buffer): boolean
  onComplete(): void
  onError(error: NodeJS.ErrnoException): void
}

export interface LegRequest {
  url: URL
  method: string
  /** The exact header lines, in order (outboundHeaders). */
  headers: readonly [string, string][]
  body: Buffer
}

export interface LegClients {
  send(request: LegRequest, handler: LegHandler): void
  /** Drops every pooled connection. */
  close(): Promise<void>
}

export function createLegClients(): LegClients {
  // Keep-alive: a stream of webhooks to one app reuses its connections, as a provider's would not
  // necessarily, but the app's handler is what is under test, not its accept loop.
  const agent = new Agent({ connections: 256 })
  const http = new HttpAgent({ keepAlive: true, maxSockets: 256 })
  const https = new HttpsAgent({ keepAlive: true, maxSockets: 256 })

  function sendOverNodeHttp({ url, method, headers }: LegRequest, handler: LegHandler): void {
    const secure = url.protocol === 'https:'
    // Headers as an array: node:http writes exactly these lines (no Host, Connection or framing of its own).
    const req = (secure ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || (secure ? 443 : 80),
      method,
      path: `${url.pathname}${url.search}`,
      headers: headers.flat(),
      agent: secure ? https : http,
    })
    let failed = false
    const fail = (error: NodeJS.ErrnoException) => {
      if (failed) return
      failed = true
      handler.onError(error)
    }
    req.on('error', fail)
    req.on('response', (res: IncomingMessage) => {
      res.on('error', fail)
      const raw = res.rawHeaders.map((text) => Buffer.from(text, 'latin1'))
      const flowing = handler.onHeaders(res.statusCode ?? 0, raw, () => res.resume())
      if (!flowing) res.pause()
      res.on('data', (chunk: Buffer) => {
        if (!handler.onData(chunk)) res.pause()
      })
      res.on('end', () => handler.onComplete())
    })
    handler.onConnect((reason) => req.destroy(reason))
    req.end()
  }

  return {
    send(request, handler) {
      if (undiciDropsContentLength(request.method, request.headers)) return sendOverNodeHttp(request, handler)
      const { url, method, headers, body } = request
      agent.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method, headers: headers.flat(), body }, handler as unknown as Dispatcher.DispatchHandler)
    },
    async close() {
      http.destroy()
      https.destroy()
      await agent.destroy()
    },
  }
}
