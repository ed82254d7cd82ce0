// The real localtunnel server frozen (SIGSTOP) past the health deadline with a request in
// flight, and the real server after a long idle.
import { describe, expect, it } from 'vitest'
import { expectDeliveredAfterIdle, idleMs, idleReceiver, useCleanups } from './support/server'
import { idOf, realTunnelFixture } from './support/behind-tunnel'
import { record, sendToPublicUrl, startOnline, waitForState } from './support/tunnel'

const cleanup = useCleanups()

describe('tunnel against a stalled real localtunnel server', () => {
  it('keeps the request in flight and the wanted subdomain when the server was only frozen', async () => {
    const { server, manager, receiver } = await realTunnelFixture(cleanup, { subdomain: 'wanted-stall', requestTimeoutMs: 1000, healthIntervalMs: 300 })
    const endpoint = await receiver.endpoints.create({ slug: 'held' })
    // Held longer than it takes two health checks (and the server's status) to time out.
    await receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: 6000 }, { type: 'reply', status: 202, body: 'held, then answered' }] })
    const { states, notices } = record(manager)
    const url = await startOnline(manager)
    expect(idOf(url)).toBe('wanted-stall')

    const inFlight = sendToPublicUrl(url, '/h/held', { body: '{}', timeoutMs: 30_000 })
    // Freeze the server once the receiver holds the request.
    for (let i = 0; i < 500 && receiver.requests.count() === 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect(receiver.requests.count()).toBe(1)
    server.pause()
    await waitForState(manager, (s) => s.kind === 'reconnecting', 'reconnecting while the server is frozen', 20_000)
    server.resume()

    // The old tunnel was kept while its successor was asked for; the server, back, still held its
    // id, and it answered a health check again: it stays, with the request it carries.
    const answer = await inFlight
    expect(answer.status).toBe(202)
    expect(answer.body).toBe('held, then answered')
    await waitForState(manager, (s) => s.kind === 'online' && idOf(s.url) === 'wanted-stall', 'online on the wanted subdomain', 20_000)
    expect(states.map((s) => s.kind)).toContain('reconnecting')
    expect(notices).toEqual([])
    expect(receiver.requests.list().map((r) => r.fault?.outcome)).toEqual(['replied'])
    expect((await sendToPublicUrl(url, '/h/held?after=stall', { body: '{}' })).status).toBe(202)
  })

  it(`still delivers after ${idleMs} ms idle to a receiver that keeps Node's header timeout`, { timeout: idleMs + 60_000 }, async () => {
    const receiver = await idleReceiver(cleanup)
    const { manager } = await realTunnelFixture(cleanup, { localPort: receiver.port, healthIntervalMs: 30_000 })
    await expectDeliveredAfterIdle(manager)
  })
})
