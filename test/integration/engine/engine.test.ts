import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, type Engine, type EngineEvent } from '../../../electron/engine/engine'
import { createTunnelServer, type TunnelServer } from '../../support/tunnel-server'
import { makeTempDir } from '../../support/temp-dir'
import { nextEvent } from '../../support/engine'

// The composed engine: one store, one clock, receiver + sender (+ tunnel), one event stream, and
// loop mode that goes through the tunnel while it is up and straight to loopback otherwise.

type AttemptEvent = Extract<EngineEvent, { attempt: unknown }>
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`gave up waiting for ${what}`)
}

async function engineWith(options: { tunnel?: TunnelServer; clock?: 'real' | 'virtual' } = {}): Promise<Engine> {
  const temp = makeTempDir('hookloop-engine-')
  cleanups.push(() => temp.cleanup())
  const engine = await createEngine({
    dataDir: temp.dir,
    clock: options.clock === 'virtual' ? { mode: 'virtual' } : { mode: 'real' },
    receiver: { host: '127.0.0.1', port: 0 },
    ...(options.tunnel ? { tunnel: { host: options.tunnel.url, requestTimeoutMs: 2000, healthIntervalMs: 500, backoff: { initialMs: 100, maxMs: 500, jitter: 0.2 } } } : {}),
  })
  cleanups.push(() => engine.close())
  return engine
}

async function setUpLoop(engine: Engine) {
  await engine.putEndpoint({ slug: 'loop', scheme: 'standard-webhooks', secrets: [SECRET], dedupe: 'standard-webhooks', rules: [] })
  return await engine.putSubscription({ name: 'loop', target: { endpoint: 'loop' }, scheme: 'standard-webhooks', secrets: [SECRET], policy: 'github' })
}

function attemptRequest(engine: Engine, attemptId: number): { verify_reason: string | null; duplicate_number: number | null } | undefined {
  engine.receiver.requests.flush()
  return engine.db.prepare('SELECT verify_reason, duplicate_number FROM requests WHERE attempt_id = ?').get(attemptId) as never
}

describe('createEngine', () => {
  it('without a tunnel, loop mode delivers on loopback and links the attempt to the captured request', async () => {
    const engine = await engineWith()
    expect(engine.tunnel).toBeNull()
    expect(engine.endpointUrl('loop')).toBe(`${engine.receiver.url}/h/loop`)
    const sub = await setUpLoop(engine)
    const seen: string[] = []
    engine.on((event) => seen.push(event.type))
    const finished = nextEvent(engine, (e) => e.type === 'attempt.finished')
    const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'booking.created', payload: { id: 1 } })
    const event = (await finished) as AttemptEvent
    expect(event.attempt.outcome).toBe('http_200')
    expect(event.attempt.url).toBe(`${engine.receiver.url}/h/loop`)
    expect(engine.isDeliverySettled(sent.deliveryIds[0]!)).toBe(true)
    expect(attemptRequest(engine, event.attempt.id)).toEqual({ verify_reason: 'ok', duplicate_number: 1 })
    // One stream, in the order things happened: the delivery, the attempt, the request it made.
    expect(seen).toEqual(expect.arrayContaining(['delivery.created', 'attempt.started', 'request.captured', 'request.verified', 'request.responded', 'attempt.finished', 'delivery.updated']))
    expect(seen.indexOf('delivery.created')).toBeLessThan(seen.indexOf('request.captured'))
    expect(seen.indexOf('request.captured')).toBeLessThan(seen.indexOf('attempt.finished'))
  })

  it('with a tunnel online, loop mode goes through the public URL; when it dies, back to loopback', async () => {
    const server = await createTunnelServer({ maxSockets: 4 })
    cleanups.push(() => server.stop())
    const engine = await engineWith({ tunnel: server })
    await waitFor(() => engine.tunnel?.state.kind === 'online', 'the tunnel to come online')
    const publicUrl = engine.tunnel!.publicUrl()!
    expect(publicUrl).toMatch(/^http:\/\/[a-z0-9-]+\.localhost:\d+$/)
    expect(engine.endpointUrl('loop')).toBe(`${publicUrl}/h/loop`)

    const sub = await setUpLoop(engine)
    const through = nextEvent(engine, (e) => e.type === 'attempt.finished')
    await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'booking.created', payload: { id: 2 } })
    const viaTunnel = (await through) as AttemptEvent
    expect(viaTunnel.attempt.url).toBe(`${publicUrl}/h/loop`)
    expect(viaTunnel.attempt.outcome).toBe('http_200')
    expect(attemptRequest(engine, viaTunnel.attempt.id)?.verify_reason).toBe('ok')
    const client = server.clients()[0]!
    expect(server.proxied(client.id)).toBeGreaterThanOrEqual(1)

    await server.stop()
    await waitFor(() => engine.tunnel?.publicUrl() === undefined, 'the tunnel to go down')
    expect(engine.endpointUrl('loop')).toBe(`${engine.receiver.url}/h/loop`)
    const direct = nextEvent(engine, (e) => e.type === 'attempt.finished')
    await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'booking.created', payload: { id: 3 } })
    const onLoopback = (await direct) as AttemptEvent
    expect(onLoopback.attempt.url).toBe(`${engine.receiver.url}/h/loop`)
    expect(onLoopback.attempt.outcome).toBe('http_200')
  })

  it('replaces an endpoint by slug, rules included', async () => {
    const engine = await engineWith({ clock: 'virtual' })
    await engine.putEndpoint({ slug: 'x', secrets: [], rules: [{ steps: [{ type: 'reply', status: 500 }] }] })
    const again = await engine.putEndpoint({ slug: 'x', secrets: [], rules: [{ preset: 'always-410' }] })
    expect(engine.receiver.endpoints.list().map((e) => e.slug)).toEqual(['x'])
    expect(engine.receiver.rules.list(again.id).map((r) => r.explain)).toEqual(['Every request: reply 410'])
  })

  it('refuses bad tunnel options with a clear error and leaves nothing open', async () => {
    const temp = makeTempDir('hookloop-engine-')
    cleanups.push(() => temp.cleanup())
    await expect(createEngine({ dataDir: temp.dir, tunnel: { host: 'ftp://tunnels.example' } })).rejects.toThrow('tunnel host must be an http:// or https:// URL, got "ftp://tunnels.example"')
    // The store was closed: it opens again at once (no lock, nothing half-written).
    const engine = await createEngine({ dataDir: temp.dir })
    cleanups.push(() => engine.close())
    expect(engine.receiver.endpoints.list()).toEqual([])
  })
})
