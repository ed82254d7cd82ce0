// Forward mode over real sockets: a sender → the receiver → a real app on loopback, observed
// from both sides (what the sender was answered, what the app saw, what the store recorded).
import { Webhook } from 'standardwebhooks'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { DefinitionError } from '../../../shared/receiver'
import { sign } from '../../../electron/engine/signatures'
import { startHarness, type Harness } from './support'
import { downPort, post, startApp, type App } from '../../support/forward-apps'

const secret = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')

describe('forward mode', () => {
  let h: Harness
  const apps: App[] = []
  afterEach(async () => {
    await h?.stop()
    await Promise.all(apps.splice(0).map((a) => a.close()))
  })
  const app = async (...args: Parameters<typeof startApp>) => {
    const a = await startApp(...args)
    apps.push(a)
    return a
  }

  it('a Standard Webhooks app verifies the forwarded request with the official library; the sender gets its answer; both legs are stored', async () => {
    const verified: string[] = []
    const target = await app((req, res) => {
      try {
        new Webhook(secret).verify(req.body.toString('utf8'), req.headers as Record<string, string>)
        verified.push('ok')
        res.writeHead(202, { 'content-type': 'application/json', 'x-app': 'yes' }).end('{"received":true}')
      } catch (error) {
        verified.push((error as Error).message)
        res.writeHead(400).end('bad signature')
      }
    })
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'sw', scheme: 'standard-webhooks', secrets: [secret] })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: `${target.url}/webhooks` }] })
    // Odd spacing on purpose: a re-serialised body would break the signature.
    const body = '{"type":"invoice.paid",   "data":{"id":1}}'
    const ts = new Date()
    const answer = await post(`${h.receiver.url}/h/sw/extra?x=1`, body, {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', ts, body),
      connection: 'keep-alive, x-hop',
      'x-hop': 'drop me',
    })
    expect(answer).toMatchObject({ status: 202 })
    if ('error' in answer) throw new Error(answer.error)
    expect(answer.body.toString()).toBe('{"received":true}')
    expect(answer.headers['x-app']).toBe('yes')
    // The app's side.
    expect(verified).toEqual(['ok'])
    const seen = await target.received(1)
    expect(seen.url).toBe('/webhooks/extra?x=1')
    expect(seen.body.toString('utf8')).toBe(body)
    expect(seen.headers.host).toBe(`127.0.0.1:${target.port}`)
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(seen.headers['x-forwarded-proto']).toBe('http')
    expect(seen.headers['x-forwarded-host']).toBe(`127.0.0.1:${h.receiver.port}`)
    expect(seen.headers['x-hop']).toBeUndefined()
    // The store's side.
    const [request] = h.receiver.requests.list()
    expect(request?.verify?.valid).toBe(true)
    expect(request?.response.status).toBe(202)
    expect(Buffer.from(request?.response.body ?? []).toString()).toBe('{"received":true}')
    const [leg, ...more] = h.receiver.forwards.list(request?.id ?? -1)
    expect(more).toEqual([])
    expect(leg).toMatchObject({ kind: 'forward', outcome: 'answered', error: null, targetUrl: `${target.url}/webhooks` })
    expect(leg?.request.url).toBe(`${target.url}/webhooks/extra?x=1`)
    expect(Buffer.from(leg?.request.body ?? []).toString()).toBe(body)
    expect(leg?.request.headers.find(([n]) => n === 'webhook-signature')?.[1]).toBe(seen.headers['webhook-signature'])
    expect(leg?.response.status).toBe(202)
    expect(Buffer.from(leg?.response.body ?? []).toString()).toBe('{"received":true}')
    expect(leg?.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('a Stripe app accepts the forwarded event with stripe.webhooks.constructEvent', async () => {
    const stripe = new Stripe('sk_test_offline')
    const target = await app((req, res) => {
      try {
        const event = stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), secret)
        res.writeHead(200).end(`ok ${event.id}`)
      } catch (error) {
        res.writeHead(400).end((error as Error).message)
      }
    })
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'st', scheme: 'stripe', secrets: [secret], forward_to: target.url })
    const body = Buffer.from('{"id":"evt_1","object":"event","type":"charge.succeeded"}')
    const answer = await post(`${h.receiver.url}/h/st`, body, sign('stripe', { body, secret }))
    expect(answer).toMatchObject({ status: 200 })
    if ('error' in answer) throw new Error(answer.error)
    expect(answer.body.toString()).toBe('ok evt_1')
  })

  it('an app that is down: the sender gets 502 "your app is down", the leg says why', async () => {
    h = await startHarness()
    const port = await downPort()
    const endpoint = await h.receiver.endpoints.create({ slug: 'down', forward_to: `http://127.0.0.1:${port}/hook` })
    const answer = await post(`${h.receiver.url}/h/down`, '{}')
    expect(answer).toMatchObject({ status: 502 })
    if ('error' in answer) throw new Error(answer.error)
    expect(answer.body.toString()).toMatch(/your app is down: connection refused \(ECONNREFUSED\)/)
    const [request] = h.receiver.requests.list()
    expect(request?.endpointId).toBe(endpoint.id)
    expect(request?.response.status).toBe(502)
    expect(request?.fault?.step).toMatchObject({ type: 'forward' })
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    expect(leg).toMatchObject({ outcome: 'refused', error: 'connection refused (ECONNREFUSED)', response: { status: null } })
  })

  it('an app that resets the connection: 502 to the sender, the leg recorded as reset', async () => {
    const target = await app((_req, _res, raw) => raw.socket.resetAndDestroy())
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'rst' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: target.url }] })
    const answer = await post(`${h.receiver.url}/h/rst`, '{"a":1}')
    expect(answer).toMatchObject({ status: 502 })
    expect(target.seen).toHaveLength(1)
    const [request] = h.receiver.requests.list()
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    expect(leg?.outcome).toBe('reset')
    expect(leg?.error).toMatch(/reset|hang up/)
  })

  it('an app that closes the connection without answering: 502 to the sender, the leg recorded as reset', async () => {
    const target = await app((_req, _res, raw) => raw.socket.destroy())
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'fin', forward_to: target.url })
    const answer = await post(`${h.receiver.url}/h/fin`, '{}')
    expect(answer).toMatchObject({ status: 502 })
    const [request] = h.receiver.requests.list()
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    expect(leg).toMatchObject({ outcome: 'reset', error: 'the app closed the connection (socket hang up)', response: { status: null } })
  })

  it('a slow app past the target timeout: 504 to the sender; the app still got it; the leg is timed_out', async () => {
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    const target = await app((_req, res) => void released.then(() => res.writeHead(200).end('late')))
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'slow' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: target.url, timeout_ms: 50 }] })
    const answer = await post(`${h.receiver.url}/h/slow`, '{}')
    expect(answer).toMatchObject({ status: 504 })
    release()
    expect((await target.received(1)).body.toString()).toBe('{}')
    const [request] = h.receiver.requests.list()
    const [leg] = h.receiver.forwards.list(request?.id ?? -1)
    expect(leg?.outcome).toBe('timed_out')
    expect(leg?.error).toBe('no answer within 50 ms')
  })

  it("relays the app's redirect instead of following it, and stores an answer past the body limit truncated (marked) while relaying it whole", async () => {
    const big = Buffer.alloc(5000, 'x')
    const target = await app((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: '/elsewhere' }).end()
      else res.writeHead(200, { 'content-type': 'text/plain' }).end(big)
    })
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'r', body_limit: 1024, forward_to: `${target.url}/redirect` })
    await h.receiver.endpoints.create({ slug: 'big', body_limit: 1024, forward_to: target.url })
    const redirected = await post(`${h.receiver.url}/h/r`, '{}')
    expect(redirected).toMatchObject({ status: 302, headers: { location: '/elsewhere' } })
    expect(target.seen.map((r) => r.url)).toEqual(['/redirect'])
    const whole = await post(`${h.receiver.url}/h/big`, '{}')
    if ('error' in whole) throw new Error(whole.error)
    expect(whole.body.equals(big)).toBe(true)
    const bigRequest = h.receiver.requests.list().find((r) => r.path === '/h/big')
    const [leg] = h.receiver.forwards.list(bigRequest?.id ?? -1)
    expect(leg?.response).toMatchObject({ status: 200, bodySize: 5000, bodyTruncated: true })
    expect(leg?.response.body?.length).toBe(1024)
  })

  it('fans out to several default targets: the first answers the sender, every one gets the same bytes', async () => {
    const a = await app((_req, res) => res.writeHead(201).end('a'))
    const b = await app((_req, res) => res.writeHead(500).end('b'))
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'fan', forward_to: [a.url, b.url] })
    const answer = await post(`${h.receiver.url}/h/fan`, '{"n":1}')
    expect(answer).toMatchObject({ status: 201 })
    const [seenA, seenB] = await Promise.all([a.received(1), b.received(1)])
    expect(seenA.body.toString()).toBe('{"n":1}')
    expect(seenB.body.toString()).toBe('{"n":1}')
    const [request] = h.receiver.requests.list()
    await h.waitFor('request.forwarded', (e) => e.leg.kind === 'forward-copy')
    const legs = h.receiver.forwards.list(request?.id ?? -1)
    expect(legs.map((l) => [l.kind, l.response.status]).sort()).toEqual([
      ['forward', 201],
      ['forward-copy', 500],
    ])
  })

  it('keeps the original Host when asked', async () => {
    const target = await app((_req, res) => res.writeHead(204).end())
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'kh' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: target.url, keep_host: true }] })
    await post(`${h.receiver.url}/h/kh`, '{}', { host: 'hooks.example.com' })
    expect((await target.received(1)).headers.host).toBe('hooks.example.com')
  })

  it('refuses a target that is not http(s), or points back at the receiver, when the rule or endpoint is saved, naming the field', async () => {
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'bad' })
    const refused = async (fn: () => Promise<unknown>) => {
      try {
        await fn()
      } catch (error) {
        if (error instanceof DefinitionError) return error.message
        throw error
      }
      throw new Error('not refused')
    }
    expect(await refused(() => h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward', url: 'ftp://127.0.0.1/x' }] }))).toMatch(/^steps\[0\]\.url: a forward target must be http:\/\/ or https:\/\//)
    expect(await refused(() => h.receiver.rules.add(endpoint.id, { steps: [{ type: 'forward-copy', url: `${h.receiver.url}/h/bad` }, { type: 'reply', status: 200 }] }))).toMatch(/^steps\[0\]\.url: .* points back at this receiver/)
    expect(await refused(() => h.receiver.endpoints.create({ slug: 'loop', forward_to: `http://localhost:${h.receiver.port}/h/bad` }))).toMatch(/^forward_to: .*a loop/)
    expect(await refused(() => h.receiver.endpoints.update(endpoint.id, { slug: 'bad', forward_to: 'not a url' }))).toMatch(/^forward_to: .*is not a URL/)
    expect(h.receiver.rules.list(endpoint.id)).toEqual([])
  })
})
