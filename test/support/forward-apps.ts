// Real apps on loopback for forward mode: each is a node:http server on 127.0.0.1 that records
// exactly what reached it (raw headers, raw body bytes) and answers the way the test says.
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { listenLoopback } from './loopback'

export interface SeenRequest {
  method: string
  url: string
  rawHeaders: [string, string][]
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export interface App {
  url: string
  port: number
  seen: SeenRequest[]
  /** Resolves when the app has received its nth request (1-based). */
  received(n: number): Promise<SeenRequest>
  close(): Promise<void>
}

export type AppHandler = (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void

export async function startApp(handler: AppHandler): Promise<App> {
  const seen: SeenRequest[] = []
  const waiters: { n: number; resolve: (r: SeenRequest) => void }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const pairs: [string, string][] = []
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string])
      const request: SeenRequest = { method: req.method ?? '', url: req.url ?? '', rawHeaders: pairs, headers: req.headers, body: Buffer.concat(chunks) }
      seen.push(request)
      for (const w of [...waiters]) {
        if (seen.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(seen[w.n - 1] as SeenRequest)
        }
      }
      handler(request, res, req)
    })
  })
  return {
    ...(await listenLoopback(server)),
    seen,
    received(n) {
      if (seen.length >= n) return Promise.resolve(seen[n - 1] as SeenRequest)
      return new Promise((resolve) => waiters.push({ n, resolve }))
    },
  }
}

/** An app that checks Standard Webhooks signatures with the official library: 200 "valid", else 401 "invalid". */
export function startVerifyingApp(secret: string): Promise<App> {
  return startApp((req, res) => {
    try {
      new Webhook(secret).verify(req.body.toString('utf8'), req.headers as Record<string, string>)
      res.writeHead(200).end('valid')
    } catch {
      res.writeHead(401).end('invalid')
    }
  })
}

/**
 * An app that checks Standard Webhooks signatures with the official library (signature and
 * timestamp age, as its docs say): 200 `{"ok":true}`, else 401. `verified` lists the webhook-id
 * of each request it verified, and why it refused any other.
 */
export async function startIdVerifyingApp(secret: string): Promise<{ app: App; verified: string[] }> {
  const verified: string[] = []
  const app = await startApp((req, res) => {
    try {
      new Webhook(secret).verify(req.body.toString('utf8'), req.headers as Record<string, string>)
      verified.push(String(req.headers['webhook-id']))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    } catch (error) {
      verified.push(`rejected: ${(error as Error).message}`)
      res.writeHead(401).end('bad signature')
    }
  })
  return { app, verified }
}

/** The Standard Webhooks headers for body as message id, signed now with secret. */
export function signedHeaders(secret: string, id: string, body: string): Record<string, string> {
  const ts = new Date()
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, ts, body) }
}

/** Stops what a test started (its harness, its app), passing over what it did not get to start. */
export async function stopAll(...open: ({ stop(): Promise<void> } | { close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const item of open) if (item) await ('stop' in item ? item.stop() : item.close())
}

/** A port that was just free and is closed again: connecting to it is refused. */
export async function downPort(): Promise<number> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** POSTs to url and reads the whole answer (undici-free: node:http, so resets show as errors). */
export function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
    req.end(body)
  })
}
