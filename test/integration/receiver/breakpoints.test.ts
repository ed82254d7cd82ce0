// Breakpoints on real sockets: a client POSTs, the request is held (no answer yet, its row already
// committed), then released as decided — edited, answered by hand, dropped — or by its limit;
// and in forward mode, edited and re-signed so the app's own check (Stripe's SDK) passes.
import { afterEach, describe, expect, it } from 'vitest'
import Stripe from 'stripe'
import { createRealClock } from '../../../electron/engine/clock'
import { createReceiver } from '../../../electron/engine/receiver'
import { startHarness, type Harness } from './support'
import { post, startApp, stopAll, type App } from '../../support/forward-apps'

const stripe = new Stripe('sk_test_unused')
const secret = 'whsec_breakpoint_tests_secret'

/** The POST as a promise, and whether it has been answered yet. */
function send(url: string, body: string, headers: Record<string, string> = {}) {
  const state = { answered: false }
  const answer = post(url, body, headers).then((r) => {
    state.answered = true
    return r
  })
  return { state, answer }
}

describe('breakpoints', () => {
  let h: Harness | undefined
  let app: App | undefined
  afterEach(() => stopAll(h, app))

  it('holds a matching request with its row committed, then releases it edited: the client gets the edited status', async () => {
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'pay' })
    h.receiver.breakpoints.put({ endpointId: endpoint.id, matchers: [{ type: 'method', method: 'POST' }, { type: 'event-type', path: 'type', value: 'invoice.paid' }], limitMs: 60_000 })
    const passing = await post(`${h.receiver.url}/h/pay`, '{"type":"invoice.created"}')
    expect(passing).toMatchObject({ status: 200 })

    const client = send(`${h.receiver.url}/h/pay`, '{"type":"invoice.paid","amount":100}')
    const held = await h.waitFor('breakpoint.held')
    expect(client.state.answered).toBe(false)
    expect(held.request).toMatchObject({ method: 'POST', path: '/h/pay', body: '{"type":"invoice.paid","amount":100}', onExpiry: { action: 'release' }, plan: 'reply 200 OK' })
    expect(held.request.expiresAt - held.request.heldAt).toBe(60_000)
    expect(h.receiver.breakpoints.held().map((r) => r.requestId)).toEqual([held.request.requestId])
    // Recorded before it is held: the row is there, its answer still to come.
    expect(h.receiver.requests.get(held.request.requestId)).toMatchObject({ method: 'POST', response: { status: null } })

    h.receiver.breakpoints.decide(held.request.requestId, { action: 'release', edit: { body: '{"type":"invoice.paid","amount":5}', headers: [['x-edited', 'yes']], status: 202 } })
    const answer = await client.answer
    expect(answer).toMatchObject({ status: 202 })
    await h.waitFor('request.responded', (e) => e.requestId === held.request.requestId)
    const row = h.receiver.requests.get(held.request.requestId)
    // The row keeps the original; the edit is beside it, in the hold.
    expect(Buffer.from(row?.body ?? []).toString()).toBe('{"type":"invoice.paid","amount":100}')
    expect(row?.response.status).toBe(202)
    expect(row?.fault?.hold).toMatchObject({ end: 'edited', edit: { body: '{"type":"invoice.paid","amount":5}', status: 202, resigned: false } })
    expect(row?.fault?.hold?.edit?.headers).toContainEqual(['x-edited', 'yes'])
    expect(h.receiver.breakpoints.held()).toEqual([])
    expect(() => h?.receiver.breakpoints.decide(held.request.requestId, { action: 'drop' })).toThrow(/is not held/)
  })

  it('answers a held request by hand, and drops another (the connection is destroyed)', async () => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'pay' })
    h.receiver.breakpoints.put({ matchers: [{ type: 'header', name: 'x-stop' }], limitMs: 60_000 })
    const first = send(`${h.receiver.url}/h/pay`, '{}', { 'x-stop': '1' })
    const heldFirst = await h.waitFor('breakpoint.held')
    h.receiver.breakpoints.decide(heldFirst.request.requestId, { action: 'answer', answer: { status: 418, headers: [['x-why', 'by hand']], body: 'teapot' } })
    const answered = await first.answer
    expect(answered).toMatchObject({ status: 418, headers: { 'x-why': 'by hand' } })
    expect('body' in answered && answered.body.toString()).toBe('teapot')

    const second = send(`${h.receiver.url}/h/pay`, '{}', { 'x-stop': '1' })
    const heldSecond = await h.waitFor('breakpoint.held', (e) => e.request.requestId !== heldFirst.request.requestId)
    h.receiver.breakpoints.decide(heldSecond.request.requestId, { action: 'drop' })
    expect(await second.answer).toHaveProperty('error')
    await h.waitFor('request.responded', (e) => e.requestId === heldSecond.request.requestId)
    expect(h.receiver.requests.get(heldFirst.request.requestId)?.fault?.hold).toMatchObject({ end: 'answered', answer: { status: 418 } })
    expect(h.receiver.requests.get(heldSecond.request.requestId)).toMatchObject({ fault: { outcome: 'closed', hold: { end: 'dropped' } }, response: { status: null } })
  })

  it.each([
    ['release', { action: 'release' as const }, 200],
    ['answer 503', { action: 'answer' as const, status: 503 }, 503],
  ])('runs out its limit and does what it says on expiry: %s', async (_name, onExpiry, status) => {
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'pay' })
    h.receiver.breakpoints.put({ limitMs: 100, onExpiry })
    const answer = await post(`${h.receiver.url}/h/pay`, '{}')
    expect(answer).toMatchObject({ status })
    const held = await h.waitFor('breakpoint.held')
    await h.waitFor('request.responded', (e) => e.requestId === held.request.requestId)
    expect(h.receiver.requests.get(held.request.requestId)?.fault?.hold).toMatchObject({ end: 'expired', expiry: onExpiry })
  })

  it('refuses a status edit where the rules do not answer with a plain reply, and a re-sign without a secret', async () => {
    h = await startHarness()
    const endpoint = await h.receiver.endpoints.create({ slug: 'slow' })
    await h.receiver.rules.add(endpoint.id, { steps: [{ type: 'delay', ms: 1 }, { type: 'reply', status: 201 }] })
    h.receiver.breakpoints.put({ limitMs: 60_000 })
    const client = send(`${h.receiver.url}/h/slow`, '{}')
    const held = await h.waitFor('breakpoint.held')
    const id = held.request.requestId
    expect(() => h?.receiver.breakpoints.decide(id, { action: 'release', edit: { status: 500 } })).toThrow(/^edit.status: .*answer it by hand/)
    expect(() => h?.receiver.breakpoints.decide(id, { action: 'release', edit: { resign: true } })).toThrow(/^edit.resign: /)
    h.receiver.breakpoints.decide(id, { action: 'release' })
    expect(await client.answer).toMatchObject({ status: 201 })
  })

  it('keeps its breakpoints in the data folder: a receiver started on it holds by them', async () => {
    h = await startHarness()
    const made = h.receiver.breakpoints.put({ name: 'payments', matchers: [{ type: 'path', path: '/h/pay' }], onExpiry: { action: 'answer', status: 500 } })
    const again = await createReceiver({ db: h.db, clock: createRealClock(), keepProcessAlive: false })
    try {
      expect(again.breakpoints.list()).toEqual([made])
      expect(again.breakpoints.remove(made.id)).toBe(true)
      h.receiver.breakpoints.reload()
      expect(h.receiver.breakpoints.list()).toEqual([])
    } finally {
      await again.close()
    }
    expect(() => h?.receiver.breakpoints.put({ matchers: [{ type: 'every-nth', n: 2 }] })).toThrow(/matches by method, path, header, query, event-type/)
  })

  it('forward mode: an edited, re-signed Stripe delivery reaches the app as edited and passes stripe.webhooks.constructEvent', async () => {
    const verdicts: string[] = []
    app = await startApp((req, res) => {
      try {
        const event = stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), secret)
        verdicts.push(`ok ${JSON.stringify(event.data.object)}`)
        res.writeHead(200).end('ok')
      } catch (error) {
        verdicts.push(`rejected: ${(error as Error).message}`)
        res.writeHead(400).end('bad signature')
      }
    })
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'stripe', scheme: 'stripe', secrets: [secret], forward_to: [`${app.url}/webhooks`] })
    h.receiver.breakpoints.put({ matchers: [{ type: 'event-type', path: 'type', value: 'charge.succeeded' }] })
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'charge.succeeded', data: { object: { id: 'ch_1', amount: 100 } } })
    const client = send(`${h.receiver.url}/h/stripe`, body, { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret }) })
    const held = await h.waitFor('breakpoint.held')
    // Below Stripe's own wait (its policy's timeout), so the hold ends before Stripe gives up.
    expect(held.request.expiresAt - held.request.heldAt).toBeLessThan(20_000)
    expect(held.request.canResign).toBe(true)
    expect(app.seen).toEqual([])
    const edited = body.replace('"amount":100', '"amount":5')
    h.receiver.breakpoints.decide(held.request.requestId, { action: 'release', edit: { body: edited, resign: true } })
    expect(await client.answer).toMatchObject({ status: 200 })
    expect(verdicts).toEqual(['ok {"id":"ch_1","amount":5}'])
    expect(app.seen[0]?.body.toString()).toBe(edited)
    await h.waitFor('request.responded', (e) => e.requestId === held.request.requestId)
    expect(h.receiver.requests.get(held.request.requestId)?.fault?.hold).toMatchObject({ end: 'edited', edit: { resigned: true } })
    expect(h.receiver.forwards.list(held.request.requestId).map((l) => l.request.body.toString())).toEqual([edited])
  })

  it("forward mode: holds your app's answer on its way back too, and the sender gets it as edited", async () => {
    app = await startApp((_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-app': 'orders' }).end('{"from":"app"}'))
    h = await startHarness()
    await h.receiver.endpoints.create({ slug: 'orders', forward_to: [`${app.url}/hooks`] })
    h.receiver.breakpoints.put({ limitMs: 60_000, holdAnswer: true })
    const client = send(`${h.receiver.url}/h/orders`, '{"n":1}')
    const onTheWayIn = await h.waitFor('breakpoint.held')
    expect(onTheWayIn.request.phase).toBe('request')
    h.receiver.breakpoints.decide(onTheWayIn.request.requestId, { action: 'release' })
    const onTheWayBack = await h.waitFor('breakpoint.held', (e) => e.request.phase === 'answer')
    expect(onTheWayBack.request).toMatchObject({ requestId: onTheWayIn.request.requestId, status: 201, body: '{"from":"app"}' })
    expect(onTheWayBack.request.headers).toContainEqual(['x-app', 'orders'])
    expect(app.seen).toHaveLength(1)
    expect(client.state.answered).toBe(false)
    h.receiver.breakpoints.decide(onTheWayBack.request.requestId, { action: 'release', edit: { status: 200, body: '{"from":"you"}' } })
    const answer = await client.answer
    expect(answer).toMatchObject({ status: 200, headers: { 'x-app': 'orders' } })
    expect('body' in answer && answer.body.toString()).toBe('{"from":"you"}')
    await h.waitFor('request.responded', (e) => e.requestId === onTheWayIn.request.requestId)
    expect(h.receiver.requests.get(onTheWayIn.request.requestId)?.fault?.hold).toMatchObject({ end: 'released', answerHold: { end: 'edited', edit: { status: 200, body: '{"from":"you"}' } } })
  })
})
