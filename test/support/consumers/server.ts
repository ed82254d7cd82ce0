// A tiny node:http server on 127.0.0.1 for the test consumers: raw body bytes in, an answer out,
// every request recorded, and close() that does not wait for slow handlers.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ConsumerRequest {
  headers: IncomingHttpHeaders
  body: Buffer
  status: number
}

export interface Answer {
  status: number
  body?: string
  headers?: Record<string, string>
}

export interface RunningConsumer {
  url: string
  requests: ConsumerRequest[]
  close(): Promise<void>
}

export async function serveConsumer(handle: (headers: IncomingHttpHeaders, body: Buffer) => Promise<Answer> | Answer, path = '/webhooks'): Promise<RunningConsumer> {
  const requests: ConsumerRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      Promise.resolve()
        .then(() => handle(req.headers, body))
        .catch((): Answer => ({ status: 500, body: 'internal error' }))
        .then((answer) => {
          requests.push({ headers: req.headers, body, status: answer.status })
          if (res.destroyed) return
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
          res.end(answer.body ?? '')
        })
        .catch(() => {})
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name]
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
}
