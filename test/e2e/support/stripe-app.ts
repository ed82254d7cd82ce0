// A Stripe app on loopback for the journeys that forward to one: a node:http server taking
// Stripe's webhooks at /stripe/webhooks, each request handed over with its raw body (what
// `constructEvent` verifies).
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function startStripeWebhooksApp(handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => handle(req, Buffer.concat(chunks), res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhooks`,
    // Hookloop's forwarder keeps its connection open: close it too, or close() waits for it.
    close: () => new Promise((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  }
}
