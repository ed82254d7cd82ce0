import { afterEach, describe, expect, it } from 'vitest'
import { answer, deliveredOnce, linkedAttemptId, startSender, startServer, type SenderRig, type TestServer } from './support'

// A subscription that targets one of our own endpoints goes wherever the engine says that
// endpoint is right now (tunnel URL when up, loopback otherwise), asked again for every attempt.

describe('loop mode targets', () => {
  let rig: SenderRig
  let server: TestServer | undefined
  afterEach(async () => {
    await rig?.close()
    await server?.close()
    server = undefined
  })

  it('resolves the endpoint slug on each attempt and links each request to its attempt', async () => {
    let base = ''
    const asked: string[] = []
    rig = await startSender({
      start: 0,
      resolveEndpointUrl: (slug) => {
        asked.push(slug)
        return `${base}/e/${slug}`
      },
    })
    let n = 0
    server = await startServer(rig.clock, (req, res) => answer(++n === 1 ? 503 : 200)(req, res))
    base = server.url
    const { sender } = rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'loop', target: { endpoint: 'orders' }, scheme: 'standard-webhooks', policy: 'csku' }, { eventType: 'a', payload: {} })
    expect(delivery.status).toBe('succeeded')
    expect(asked).toEqual(['orders', 'orders'])
    expect(server.requests.map((r) => r.path)).toEqual(['/e/orders', '/e/orders'])
    expect(server.requests.map((r) => linkedAttemptId(r.headers))).toEqual(attempts.map((a) => a.id))
    expect(attempts.map((a) => a.url)).toEqual([`${server.url}/e/orders`, `${server.url}/e/orders`])
    expect(sender.getSubscription('loop')?.target).toEqual({ endpoint: 'orders' })
  })

  it('an endpoint that cannot be resolved is a recorded connection error, retried by the policy', async () => {
    rig = await startSender({
      start: 0,
      resolveEndpointUrl: () => {
        throw new Error('no endpoint with this slug')
      },
    })
    const { sender } = rig
    const { delivery, attempts } = await deliveredOnce(sender, { id: 'loop', target: { endpoint: 'gone' }, scheme: 'standard-webhooks', policy: 'csku' }, { eventType: 'a', payload: {} })
    expect(delivery.status).toBe('failed')
    expect(attempts).toHaveLength(4)
    expect(attempts[0]).toMatchObject({ outcome: 'connection_error', decision: 'retry', url: null })
    expect(attempts[0]?.error).toMatch(/endpoint gone: no endpoint with this slug/)
  })

  it('without a resolver attached, a loop-mode attempt says so', async () => {
    rig = await startSender({ start: 0 })
    const { sender } = rig
    expect((await deliveredOnce(sender, { id: 'loop', target: { endpoint: 'orders' }, scheme: 'standard-webhooks', policy: 'github' }, { eventType: 'a', payload: {} })).attempts[0]?.error).toMatch(/no receiver is attached/)
  })
})
