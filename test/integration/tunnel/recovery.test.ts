import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { TunnelState } from '../../../shared/tunnel'
import { useCleanups, tunnelFixture } from './support/server'
import { listening, record, sendToPublicUrl, waitForState, waitUntil } from './support/tunnel'

const cleanup = useCleanups()
const isOnline = (s: TunnelState) => s.kind === 'online'

describe('tunnel recovery', () => {
  it('comes back online with the same URL after the tunnel server is killed and restarted', async () => {
    const { server, manager, receiver } = await tunnelFixture(cleanup)
    const { states, notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const url = manager.publicUrl()

    await server.stop()
    await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting after the server died')
    // Stay down across a few retries, then come back.
    await waitForState(manager, (s) => s.kind === 'reconnecting' && s.attempt >= 3, 'a third reconnect attempt')
    await server.start()
    await waitForState(manager, isOnline, 'online after the restart', 10_000)

    expect(manager.publicUrl()).toBe(url)
    expect(notices.filter((n) => n.kind === 'url-changed')).toEqual([])
    const kinds = states.map((s) => s.kind)
    expect(kinds.slice(0, 2)).toEqual(['connecting', 'online'])
    expect(kinds.at(-1)).toBe('online')
    const down = kinds.slice(2, -1)
    expect(down[0] === 'degraded' || down[0] === 'reconnecting').toBe(true)
    expect(down).toContain('reconnecting')
    expect(down.every((k) => k === 'degraded' || k === 'reconnecting' || k === 'connecting')).toBe(true)
    // Every reconnect attempt number follows the one before it.
    const attempts = states.flatMap((s) => (s.kind === 'reconnecting' ? [s.attempt] : []))
    expect(attempts).toEqual(attempts.map((_, i) => i + 1))

    const answer = await sendToPublicUrl(url ?? '', '/hooks/after-restart', { body: '{}' })
    expect(answer.status).toBe(200)
    expect(receiver.captured.map((c) => c.url)).toEqual(['/hooks/after-restart'])
  })

  it('backs off with growing waits while /?new answers 500, without a storm, then recovers', async () => {
    const { server, manager } = await tunnelFixture(cleanup, { backoff: { initialMs: 50, maxMs: 800, jitter: 0.2 } })
    server.setNewTunnelMode({ kind: 'status', status: 500, message: 'database down' })
    const { states } = record(manager)
    manager.start()
    await waitForState(manager, (s) => s.kind === 'reconnecting' && s.attempt >= 6, 'six reconnect attempts', 20_000)
    const waits = states.flatMap((s) => (s.kind === 'reconnecting' ? [s] : []))
    expect(waits[0]?.lastError).toContain('HTTP 500: database down')
    // 50, 100, 200, 400, 800 (cap), 800 — each shortened by up to 20 %.
    const nextIn = waits.map((w) => w.nextInMs)
    for (let i = 1; i < 5; i++) expect(nextIn[i]).toBeGreaterThan(nextIn[i - 1] ?? Infinity)
    for (const ms of nextIn) expect(ms).toBeLessThanOrEqual(800)
    expect(nextIn[5]).toBeGreaterThanOrEqual(640)

    // One request per attempt, and each at least its backoff wait after the one before.
    const requests = [...server.tunnelRequests]
    expect(requests.length).toBeGreaterThanOrEqual(6)
    expect(requests.length).toBeLessThanOrEqual(7)
    for (let i = 1; i < Math.min(requests.length, 6); i++) {
      expect((requests[i] ?? 0) - (requests[i - 1] ?? 0)).toBeGreaterThanOrEqual((nextIn[i - 1] ?? 0) - 5)
    }

    server.setNewTunnelMode({ kind: 'ok' })
    await waitForState(manager, isOnline, 'online once /?new works again')
  })

  it('gives up with offline(reason) on a 4xx from the tunnel server instead of retrying', async () => {
    const { server, manager } = await tunnelFixture(cleanup)
    server.setNewTunnelMode({ kind: 'status', status: 403, message: 'client blocked' })
    manager.start()
    const offline = await waitForState(manager, (s) => s.kind === 'offline', 'offline')
    expect(offline).toEqual({ kind: 'offline', status: 403, reason: 'the tunnel server refused (HTTP 403: client blocked)' })
    // Left alone for longer than several backoff waits, it asks no more.
    await new Promise((r) => setTimeout(r, 600))
    expect(server.tunnelRequests).toHaveLength(1)
    expect(manager.state.kind).toBe('offline')
    // Started again by the user, it asks again.
    server.setNewTunnelMode({ kind: 'ok' })
    manager.start()
    await waitForState(manager, isOnline, 'online after a manual start')
  })

  it('times out a /?new that never answers and retries', async () => {
    const { server, manager } = await tunnelFixture(cleanup, { requestTimeoutMs: 300 })
    server.setNewTunnelMode({ kind: 'hang' })
    manager.start()
    const retry = await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting after the timeout')
    expect(retry).toMatchObject({ kind: 'reconnecting', attempt: 1 })
    expect(retry.kind === 'reconnecting' && retry.lastError).toContain('did not answer within 300 ms')
    await waitForState(manager, (s) => s.kind === 'reconnecting' && s.attempt === 2, 'a second timeout')
    expect(server.tunnelRequests.length).toBeGreaterThanOrEqual(2)
    server.setNewTunnelMode({ kind: 'ok' })
    await waitForState(manager, isOnline, 'online once /?new answers')
  })

  it('reopens every socket the server drops, keeping the URL', async () => {
    const { server, manager } = await tunnelFixture(cleanup)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const url = manager.publicUrl()
    // Sockets younger than the pool's stable age count as failures; let them age first.
    await new Promise((r) => setTimeout(r, 400))
    const before = server.clients()[0]?.accepted ?? 0
    expect(server.dropAllSockets()).toBe(4)
    await waitUntil(() => (server.clients()[0]?.sockets ?? 0) === 4 && (server.clients()[0]?.accepted ?? 0) >= before + 4, 'the client to reopen 4 sockets')
    expect(manager.publicUrl()).toBe(url)
    expect(server.tunnelRequests).toHaveLength(1)
    expect((await sendToPublicUrl(url ?? '', '/hooks/after-drop', { body: '{}' })).status).toBe(200)
  })

  it('rebuilds the tunnel when the server drops the sockets and forgets the client', async () => {
    const { server, manager } = await tunnelFixture(cleanup)
    const { states, notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const url = manager.publicUrl()
    server.dropAllSockets({ forget: true })
    await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting')
    await waitForState(manager, isOnline, 'online again')
    expect(server.tunnelRequests.length).toBeGreaterThanOrEqual(2)
    // The forgotten subdomain is asked for again and granted: the provider's URL still works.
    expect(manager.publicUrl()).toBe(url)
    expect(notices).toEqual([])
    expect(states.at(-1)?.kind).toBe('online')
    expect((await sendToPublicUrl(url ?? '', '/hooks/after-rebuild', { body: '{}' })).status).toBe(200)
  })

  it('reports degraded while some sockets cannot come back, and online once they do', async () => {
    const { server, manager } = await tunnelFixture(cleanup)
    const { states } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    await new Promise((r) => setTimeout(r, 400))
    server.setRefuseSockets(true)
    expect(server.dropSomeSockets(2)).toBe(2)
    // A refused socket is connected for a moment before the server closes it: a report that
    // falls in that moment says 3, and the next one (a grace period later) says 2.
    const degraded = await waitForState(manager, (s) => s.kind === 'degraded' && s.liveSockets === 2, 'degraded, two sockets left')
    expect(degraded).toEqual({ kind: 'degraded', url: manager.publicUrl(), liveSockets: 2, maxSockets: 4 })
    // Requests still get through the sockets that are left.
    expect((await sendToPublicUrl(manager.publicUrl() ?? '', '/hooks/while-degraded', { body: '{}' })).status).toBe(200)
    server.setRefuseSockets(false)
    await waitForState(manager, isOnline, 'online once sockets are accepted again')
    // Counts change while degraded (a request cycles a socket; sockets come back one by one), and
    // refused sockets connected for the same moment can fill the pool for one report: under load
    // an "online" may fall between the degraded ones. What must hold: online first, degraded while
    // sockets are refused, online at the end.
    expect(states.map((s) => s.kind).join(' ')).toMatch(/^connecting online degraded (?:(?:degraded|online) )*online$/)
    for (const s of states) if (s.kind === 'degraded') expect(s.liveSockets).toBeLessThan(4)
  })

  it('rebuilds when no socket can come back, and reports the URL change', async () => {
    const { server, manager } = await tunnelFixture(cleanup, {}, { graceMs: 60_000 })
    const { notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const url = manager.publicUrl()
    await new Promise((r) => setTimeout(r, 400))
    server.setRefuseSockets(true)
    server.dropAllSockets()
    await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting once no socket stays up')
    server.setRefuseSockets(false)
    await waitForState(manager, isOnline, 'online again')
    // The old client is still registered on the server (long grace), so the rebuilt tunnel got a new subdomain.
    const now = manager.publicUrl()
    expect(now).not.toBe(url)
    expect(notices).toEqual([{ kind: 'url-changed', url: now, previousUrl: url, assignedSubdomain: new URL(now ?? '').hostname.split('.')[0] }])
    expect((await sendToPublicUrl(now ?? '', '/hooks/new-url', { body: '{}' })).status).toBe(200)
  })

  it('rebuilds when health checks through the public URL fail although the sockets stay open', async () => {
    const { server, manager } = await tunnelFixture(cleanup, { healthIntervalMs: 200 })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    server.setRouteRequests(false)
    const retry = await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting after failed health checks')
    expect(retry.kind === 'reconnecting' && retry.lastError).toMatch(/health check through .* got HTTP 404/)
    server.setRouteRequests(true)
    await waitForState(manager, isOnline, 'online again')
  })

  it('answers a request in flight on the old sockets when the tunnel is rebuilt (make before break)', async () => {
    // A receiver that holds /hooks/slow until the test lets it go.
    let release = () => undefined as void
    const held = new Promise<void>((resolve) => (release = resolve))
    let slowArrived = false
    const holding = await listening(
      createServer({ headersTimeout: 0, requestTimeout: 0 }, (req, res) => {
        req.resume()
        req.on('end', () => {
          if (req.url !== '/hooks/slow') return res.end('quick')
          slowArrived = true
          void held.then(() => res.end('answered late'))
        })
      }),
      undefined,
    )
    cleanup(() => holding.close())
    const { server, manager } = await tunnelFixture(cleanup, { localPort: holding.port, healthIntervalMs: 200 })
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const oldId = server.clients()[0]?.id
    const inFlight = sendToPublicUrl(manager.publicUrl() ?? '', '/hooks/slow', { body: '{}', timeoutMs: 30_000 })
    await waitUntil(() => slowArrived, 'the slow request to reach the receiver')
    // Health checks get 404 from now on: the tunnel is rebuilt on another id (the old one is still
    // held by the old sockets), and the old pool closes every socket but the busy one.
    server.setRouteRequests(false)
    await waitUntil(() => server.clients().some((c) => c.id !== oldId), 'a new tunnel on the server')
    await waitUntil(() => server.clients().find((c) => c.id === oldId)?.sockets === 1, 'the old tunnel down to its busy socket')
    release()
    const answer = await inFlight
    expect(answer.status).toBe(200)
    expect(answer.body).toBe('answered late')
    await waitUntil(() => (server.clients().find((c) => c.id === oldId)?.sockets ?? 0) === 0, 'the old socket to close once answered')
    server.setRouteRequests(true)
    await waitForState(manager, isOnline, 'online again')
  })

  it('reports when the requested subdomain comes back different', async () => {
    const { server, manager } = await tunnelFixture(cleanup, { subdomain: 'wanted1' })
    server.takeSubdomain('wanted1')
    const { notices } = record(manager)
    manager.start()
    const online = await waitForState(manager, isOnline, 'online')
    const granted = online.kind === 'online' ? new URL(online.url).hostname.split('.')[0] : ''
    expect(granted).not.toBe('wanted1')
    expect(notices).toEqual([{ kind: 'url-changed', url: manager.publicUrl(), requestedSubdomain: 'wanted1', assignedSubdomain: granted }])
  })

  it('gets the requested subdomain when it is free, and reports nothing', async () => {
    const { manager } = await tunnelFixture(cleanup, { subdomain: 'wanted2' })
    const { notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    expect(manager.publicUrl()).toMatch(/^http:\/\/wanted2\.localhost:\d+$/)
    expect(notices).toEqual([])
  })
})

describe('tunnel recovery with the default settings', () => {
  it('is back online within 10 s of the tunnel server returning', { timeout: 60_000 }, async () => {
    // Only the socket count is small; backoff, health interval and timeouts are the defaults.
    const { server, manager } = await tunnelFixture(cleanup, { requestTimeoutMs: undefined, backoff: undefined, healthIntervalMs: undefined, degradedGraceMs: undefined })
    const { states } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    await server.stop()
    await waitForState(manager, (s) => s.kind === 'reconnecting' && s.attempt >= 3, 'a third reconnect attempt', 30_000)
    await server.start()
    await waitForState(manager, isOnline, 'online within 10 s of the restart', 10_000)
    const waits = states.flatMap((s) => (s.kind === 'reconnecting' ? [s.nextInMs] : []))
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(10_000)
  })
})
