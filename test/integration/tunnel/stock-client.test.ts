import localtunnel from '@n8n/localtunnel'
import { describe, expect, it } from 'vitest'
import { createTunnelServer } from '../../support/tunnel-server'
import { useCleanups } from './support/server'
import { idleTimeoutReceiver, listening, sendToPublicUrl, startReceiver, waitUntil } from './support/tunnel'

// The published localtunnel client against the loopback tunnel server: proof that the test
// server speaks the protocol real clients speak, and a record of the stock client's idle-408
// problem that Hookloop's own client avoids (see idle-408.test.ts).

const cleanup = useCleanups()

async function openStock(port: number, host: string) {
  const tunnel = await localtunnel({ port, host })
  const errors: unknown[] = []
  // Without this listener a socket error would crash the process.
  tunnel.on('error', (e: unknown) => errors.push(e))
  cleanup(() => tunnel.close())
  return tunnel
}

describe('@n8n/localtunnel against the loopback tunnel server', () => {
  it('opens a tunnel and carries a request (the server speaks the localtunnel protocol)', async () => {
    const server = await createTunnelServer({ maxSockets: 3 })
    cleanup(() => server.stop())
    const receiver = await startReceiver()
    cleanup(() => receiver.close())
    const tunnel = await openStock(receiver.port, server.url)
    expect(tunnel.url).toMatch(/^http:\/\/[a-z0-9]+\.localhost:\d+$/)
    await waitUntil(() => server.clients()[0]?.sockets === 3, 'the stock client to open 3 sockets')
    const answer = await sendToPublicUrl(tunnel.url, '/hooks/stock', { body: '{"a":1}' })
    expect(answer.status).toBe(200)
    expect(receiver.captured.map((c) => [c.url, c.body])).toEqual([['/hooks/stock', '{"a":1}']])
  })

  it('answers a request after an idle period with a stale 408 (the problem Hookloop avoids)', async () => {
    const server = await createTunnelServer({ maxSockets: 1 })
    cleanup(() => server.stop())
    const receiver = await listening(idleTimeoutReceiver(), undefined)
    cleanup(() => receiver.close())
    const tunnel = await openStock(receiver.port, server.url)
    await waitUntil(() => server.clients()[0]?.sockets === 1, 'the stock client to open its socket')
    await new Promise((r) => setTimeout(r, 2500))
    const answer = await sendToPublicUrl(tunnel.url, '/hooks/after-idle', { body: '{}' }).catch((e: Error) => ({ status: -1, body: e.message }))
    // The receiver's 408 for the idle connection, sitting unread in the server's pool, answers the request.
    expect(answer.status).toBe(408)
  })
})
