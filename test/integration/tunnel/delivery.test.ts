import { afterEach, describe, expect, it } from 'vitest'
import { createTunnelManager, type TunnelManager } from '../../../electron/engine/tunnel'
import { createTunnelServer, type TunnelServer } from '../../support/tunnel-server'
import { record, sendToPublicUrl, startReceiver, waitForState, waitUntil } from './support/tunnel'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function setUp(reuseSockets = false): Promise<{ server: TunnelServer; manager: TunnelManager; receiver: Awaited<ReturnType<typeof startReceiver>> }> {
  const server = await createTunnelServer({ maxSockets: 4, reuseSockets })
  cleanups.push(() => server.stop())
  const receiver = await startReceiver()
  cleanups.push(() => receiver.close())
  const manager = createTunnelManager({ localPort: receiver.port, host: server.url, requestTimeoutMs: 2000, backoff: { initialMs: 100, maxMs: 1000, jitter: 0.2 } })
  cleanups.push(() => manager.stop())
  return { server, manager, receiver }
}

describe('tunnel delivery', () => {
  it('carries a webhook sent to the public URL to the receiver, with the public URL known', async () => {
    const { manager, receiver } = await setUp()
    const { states } = record(manager)
    manager.start()
    const online = await waitForState(manager, (s) => s.kind === 'online', 'online')
    if (online.kind !== 'online') throw new Error('unreachable')
    expect(online.url).toMatch(/^http:\/\/[a-z0-9]+\.localhost:\d+$/)
    expect(online.sockets).toBe(4)
    expect(manager.publicUrl()).toBe(online.url)
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'online'])

    const body = JSON.stringify({ event_id: 'e1b6f1c4-8d2c-4a57-9a3e-5d1f0b9e7c21', event_type: 'booking.created', payload: { id: 7 } })
    const answer = await sendToPublicUrl(online.url, '/hooks/provider-a?x=1', { body, headers: { 'content-type': 'application/json', 'x-pandoktorek-event-id': 'e1b6f1c4-8d2c-4a57-9a3e-5d1f0b9e7c21' } })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ received: true })
    const webhooks = receiver.captured.filter((c) => c.url.startsWith('/hooks/'))
    expect(webhooks).toHaveLength(1)
    expect(webhooks[0]?.body).toBe(body)
    expect(webhooks[0]?.url).toBe('/hooks/provider-a?x=1')
    // The Host the provider used reaches the receiver: with publicUrl() it rebuilds the signed URL.
    expect(`http://${webhooks[0]?.headers.host}`).toBe(manager.publicUrl())
    // Health checks are answered by the tunnel itself and never captured by the receiver.
    expect(receiver.captured.filter((c) => !c.url.startsWith('/hooks/'))).toEqual([])
  })

  it.each([
    ['closes all but one free socket after each response (localtunnel-server)', false],
    ['keeps its sockets for the next request', true],
  ])('carries many requests in parallel when the server %s', async (_policy, reuse) => {
    const { manager, receiver } = await setUp(reuse)
    manager.start()
    const online = await waitForState(manager, (s) => s.kind === 'online', 'online')
    const url = manager.publicUrl() ?? online.kind
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => sendToPublicUrl(url, `/hooks/n${i}`, { body: `{"n":${i}}` })))
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 40 }, () => 200))
    expect(receiver.captured.map((c) => c.url).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `/hooks/n${i}`).sort())
  })

  it('answers 502 and reports local-unreachable when nothing listens on the receiver port', async () => {
    const { server, manager, receiver } = await setUp()
    const { notices } = record(manager)
    manager.start()
    await waitForState(manager, (s) => s.kind === 'online', 'online')
    const acceptedBefore = server.clients()[0]?.accepted ?? 0
    await receiver.close()
    for (let i = 0; i < 6; i++) {
      const answer = await sendToPublicUrl(manager.publicUrl() ?? '', `/hooks/x${i}`, { body: '{}' })
      expect(answer.status).toBe(502)
      expect(answer.body).toContain('local receiver is not reachable')
    }
    expect(notices).toContainEqual(expect.objectContaining({ kind: 'local-unreachable', port: receiver.port }))
    // Each socket that answered 502 is closed and replaced, none left half-open.
    await waitUntil(
      () => (server.clients()[0]?.accepted ?? 0) >= acceptedBefore + 6 && server.clients()[0]?.sockets === 4 && manager.sockets().live === 4,
      'the sockets that answered 502 to be replaced',
    )
    expect(manager.state.kind).toBe('online')
  })
})
