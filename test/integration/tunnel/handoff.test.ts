// Tunnel sockets handed straight to Hookloop's receiver in the same process (the engine's path,
// `accept: receiver.accept`), no relay hop: against our test server and the real localtunnel
// server. The receiver's limits, refusals and records apply to tunnelled requests as to direct
// ones; the tunnel still answers its health check itself and tells busy from idle.
import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { TunnelState } from '../../../shared/tunnel'
import type { Receiver } from '../../../electron/engine/receiver'
import type { TunnelManager } from '../../../electron/engine/tunnel'
import { useCleanups } from './support/server'
import { idOf, realTunnelFixture, testServerFixture } from './support/behind-tunnel'
import { record, sendToPublicUrl, startOnline, waitForState, waitUntil } from './support/tunnel'

const cleanup = useCleanups()
const isOnline = (s: TunnelState) => s.kind === 'online'

interface HandOffSetup {
  receiver: Receiver
  manager: TunnelManager
  /** Every tunnel socket the receiver was handed. */
  handed: Set<Socket>
  maxSockets: number
  /** The tunnel server closes every socket of the tunnel (our test server) or dies and comes back (the real one). */
  dropSockets(): Promise<void>
}

async function onTestServer(): Promise<HandOffSetup> {
  const { server, ...setup } = await testServerFixture(cleanup)
  return {
    ...setup,
    maxSockets: 4,
    dropSockets: async () => {
      server.dropAllSockets()
    },
  }
}

async function onRealServer(): Promise<HandOffSetup> {
  const { server, ...setup } = await realTunnelFixture(cleanup)
  return { ...setup, maxSockets: 10, dropSockets: () => server.restart() }
}

const flushed = (receiver: Receiver, n: number) => () => {
  receiver.requests.flush()
  return receiver.requests.count() >= n
}

describe.each([
  ['our test server', onTestServer],
  ['the real localtunnel server', onRealServer],
] as const)('tunnel sockets handed to the in-process receiver, through %s', (_name, setUp) => {
  it('serves requests on the tunnel sockets themselves: no receiver connection besides them, keep-alive reuse, health checks never captured', async () => {
    const { receiver, manager, handed, maxSockets } = await setUp()
    const endpoint = await receiver.endpoints.create({ slug: 'hooks' })
    expect(endpoint.slug).toBe('hooks')
    manager.start()
    await waitForState(manager, isOnline, 'online')
    // Before any request, the receiver already serves every tunnel socket (a relay would have
    // opened no receiver connection yet): there is no second connection per socket.
    await waitUntil(() => receiver.openConnections() === maxSockets, 'the receiver to serve every tunnel socket')
    const url = manager.publicUrl() ?? ''
    // One keep-alive request at a time: each is answered on a socket kept from the one before
    // (both servers keep a free socket), so thirty requests cost no new tunnel socket.
    const before = handed.size
    for (let i = 0; i < 30; i++) {
      const answer = await sendToPublicUrl(url, `/h/hooks?n=${i}`, { body: `{"n":${i}}`, headers: { 'content-type': 'application/json', connection: 'keep-alive' } })
      expect(answer.status).toBe(200)
    }
    // Our test server keeps every socket. The real one closes a socket when two answers end
    // together (a health check beside a request) and one is already free, so a few may be
    // replaced — a socket per request would be thirty.
    expect(handed.size - before).toBeLessThan(10)
    expect(receiver.openConnections()).toBeLessThanOrEqual(maxSockets)
    await waitUntil(flushed(receiver, 30), 'thirty captured requests')
    // Health checks ran through the same sockets all along but were answered by the tunnel.
    const records = receiver.requests.list()
    expect(records).toHaveLength(30)
    expect(records.every((r) => r.path === '/h/hooks')).toBe(true)
    // The receiver records the socket's peer as it does for any connection: the tunnel server's
    // address (loopback here), read from the socket it was handed.
    expect(records.every((r) => r.remoteAddress === '127.0.0.1')).toBe(true)
  })

  it('answers twelve requests held by a delay rule over the pool: no rebuild, no URL change, none lost', async () => {
    const { receiver, manager } = await setUp()
    const endpoint = await receiver.endpoints.create({ slug: 'slow' })
    await receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: 2500 }, { type: 'reply', status: 200, body: 'answered after the hold' }] })
    const { states, notices } = record(manager)
    const url = await startOnline(manager)
    const onlineAt = states.length
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sendToPublicUrl(url, `/h/slow?n=${i}`, { body: `{"n":${i}}`, timeoutMs: 30_000 })))
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 12 }, () => 200))
    expect(answers.every((a) => a.body === 'answered after the hold')).toBe(true)
    expect(states.slice(onlineAt).filter((s) => s.kind !== 'online' && s.kind !== 'degraded')).toEqual([])
    expect(manager.publicUrl()).toBe(url)
    expect(notices).toEqual([])
    await waitUntil(flushed(receiver, 12), 'twelve captured requests')
    expect(receiver.requests.list().map((r) => r.fault?.outcome)).toEqual(Array.from({ length: 12 }, () => 'replied'))
  })

  it("answers a request that says Connection: close and closes that caller's connection, the tunnel staying full", async () => {
    const { receiver, manager, maxSockets } = await setUp()
    await receiver.endpoints.create({ slug: 'closing' })
    const url = await startOnline(manager)
    // Some providers' clients send Connection: close. It is hop-by-hop: the tunnel server owns the
    // caller's connection and closes it after the answer; the tunnel socket it cost is replaced.
    const raw = await rawExchange(url, 'POST /h/closing HTTP/1.1\r\nHost: ' + new URL(url).host + '\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')
    expect(raw.text).toMatch(/^HTTP\/1\.1 200 /)
    expect(raw.text.toLowerCase()).toContain('connection: close')
    expect(raw.closedByServer).toBe(true)
    await waitUntil(() => manager.sockets().live === maxSockets, 'a full pool again')
    expect((await sendToPublicUrl(url, '/h/closing?after=close', { body: '{}' })).status).toBe(200)
    await waitUntil(flushed(receiver, 2), 'both requests captured')
    const [first] = receiver.requests.list().sort((a, b) => a.id - b.id)
    // What the caller sent is recorded as sent, the hop-by-hop header with it.
    expect(first?.headers.find(([name]) => name.toLowerCase() === 'connection')?.[1]).toBe('close')
  })

  it('carries a 3 MiB body whole, byte for byte', async () => {
    const { receiver, manager } = await setUp()
    await receiver.endpoints.create({ slug: 'big' })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const body = Array.from({ length: 3 * 1024 * 64 }, (_, i) => `${String(i).padStart(15, '0')}\n`).join('')
    expect(body.length).toBe(3 * 1024 * 1024)
    const answer = await sendToPublicUrl(manager.publicUrl() ?? '', '/h/big', { body, headers: { 'content-type': 'text/plain' }, timeoutMs: 30_000 })
    expect(answer.status).toBe(200)
    await waitUntil(flushed(receiver, 1), 'the big request captured')
    const [captured] = receiver.requests.list()
    expect(captured?.bodySize).toBe(body.length)
    expect(captured?.bodyTruncated).toBe(false)
    const digest = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
    expect(digest(Buffer.from(captured?.body ?? []))).toBe(digest(body))
  })

  it('refuses a tunnelled request over the endpoint body limit exactly as a direct one, and records it', async () => {
    const { receiver, manager } = await setUp()
    await receiver.endpoints.create({ slug: 'small', body_limit: 1024 })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const body = 'x'.repeat(4096)
    const direct = await sendToPublicUrl(receiver.url, '/h/small', { body, hostHeader: '127.0.0.1' })
    const tunnelled = await sendToPublicUrl(manager.publicUrl() ?? '', '/h/small', { body })
    expect(direct.status).toBe(413)
    expect(tunnelled.status).toBe(413)
    expect(tunnelled.body).toBe(direct.body)
    await waitUntil(flushed(receiver, 2), 'both refusals recorded')
    const records = receiver.requests.list()
    expect(records).toHaveLength(2)
    for (const r of records) {
      expect(r.bodySize).toBe(4096)
      expect(r.refusedReason).toBe(records[0]?.refusedReason)
      expect(r.refusedReason).toMatch(/1024/)
      expect(r.fault?.outcome).toBe('refused')
    }
  })

  it('records client_gone when the tunnel socket under a held request dies, as for a direct caller that leaves, and comes back', async () => {
    const { receiver, manager, maxSockets, dropSockets } = await setUp()
    const endpoint = await receiver.endpoints.create({ slug: 'held' })
    await receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: 30_000 }, { type: 'reply', status: 200 }] })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    let captured = 0
    receiver.subscribe((event) => {
      if (event.type === 'request.captured') captured++
    })
    const outcomes = () => {
      receiver.requests.flush()
      return receiver.requests.list().map((r) => r.fault?.outcome)
    }
    // Direct: the caller leaves while its request is held.
    const direct = request({ host: '127.0.0.1', port: receiver.port, method: 'POST', path: '/h/held', agent: false, headers: { 'content-type': 'application/json' } })
    direct.on('error', () => undefined)
    direct.end('{}')
    await waitUntil(() => captured === 1, 'the direct request to reach the receiver')
    direct.destroy()
    await waitUntil(() => outcomes()[0] !== 'pending', 'the direct request to end')
    // Tunnelled: the tunnel server drops the socket the request is held on (a tunnel server
    // keeps a proxied request going after its caller left, so the socket is what dies).
    const tunnelled = sendToPublicUrl(manager.publicUrl() ?? '', '/h/held', { body: '{}', timeoutMs: 30_000 }).catch((error: Error) => error)
    await waitUntil(() => captured === 2, 'the tunnelled request to reach the receiver')
    await dropSockets()
    await waitUntil(() => outcomes().every((o) => o !== 'pending'), 'the tunnelled request to end')
    expect(outcomes()).toEqual(['client_gone', 'client_gone'])
    await waitForState(manager, isOnline, 'online again')
    await waitUntil(() => manager.sockets().live === maxSockets, 'a full pool again')
    // The caller gets no answer of the receiver's (the real server sends none, ours a 502).
    const got = await tunnelled
    expect(got instanceof Error ? 'no answer' : got.status).not.toBe(200)
  })
})

describe('tunnel sockets handed to the in-process receiver: make before break', () => {
  it('answers a request held on an old socket when the tunnel is rebuilt, then closes that socket', async () => {
    const { server, receiver, manager } = await testServerFixture(cleanup, { healthIntervalMs: 200 }, { server: { reuseSockets: false } })
    const endpoint = await receiver.endpoints.create({ slug: 'slow' })
    // Long enough for the rebuild below to happen while it is held (it takes about a second).
    await receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: 8000 }, { type: 'reply', status: 200, body: 'answered late' }] })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const oldId = idOf(manager.publicUrl())
    let arrived = false
    receiver.subscribe((event) => {
      if (event.type === 'request.captured') arrived = true
    })
    const inFlight = sendToPublicUrl(manager.publicUrl() ?? '', '/h/slow', { body: '{}', timeoutMs: 30_000 })
    await waitUntil(() => arrived, 'the slow request to reach the receiver')
    // Health checks get 404 from now on: the tunnel is rebuilt on another id, and the old pool
    // closes every socket but the busy one.
    server.setRouteRequests(false)
    await waitUntil(() => server.clients().some((c) => c.id !== oldId), 'a new tunnel on the server')
    await waitUntil(() => server.clients().find((c) => c.id === oldId)?.sockets === 1, 'the old tunnel down to its busy socket')
    server.setRouteRequests(true)
    const answer = await inFlight
    expect(answer.status).toBe(200)
    expect(answer.body).toBe('answered late')
    await waitUntil(() => (server.clients().find((c) => c.id === oldId)?.sockets ?? 0) === 0, 'the old socket to close once answered')
    await waitForState(manager, isOnline, 'online again')
    receiver.requests.flush()
    expect(receiver.requests.list()[0]?.fault?.outcome).toBe('replied')
  })
})

/** Writes `request` on a new connection to the server behind `publicUrl`; what came back, and whether the server closed the connection. */
function rawExchange(publicUrl: string, request: string): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(publicUrl).port) })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closedByServer: false })
    }, 10_000)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closedByServer: true })
    })
    socket.on('error', reject)
    socket.write(request)
  })
}
