// The server's probes and metrics (host/probe-routes.ts, host/metrics.ts) over real HTTP against a
// real host on a temp data folder: they answer without the token and to any Host, say no path or
// id, and the counters move with a real captured request, a real refusal and a real delivery
// attempt. /readyz turns 503 the moment a drain starts, while a held request is still answered.
import { createServer, request, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { METRICS } from '../../../electron/engine/host/metrics'
import { createToken } from '../../../electron/engine/host/guard'
import { startHost, type Host } from '../../../electron/engine/host/run-host'
import { createSqliteEngine, openDatabase } from '../../../electron/engine/store'
import { makeTempDir } from '../../support/temp-dir'
import { settled, useHostSessions } from './support/session'

const open = useHostSessions()
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A sample's value in Prometheus text, e.g. sample(text, 'hookloop_attempts_total', 'outcome="http_2xx"'); undefined when absent. */
function sample(text: string, name: string, labels?: string): number | undefined {
  const head = labels ? `${name}{${labels}} ` : `${name} `
  const line = text.split('\n').find((l) => l.startsWith(head))
  return line === undefined ? undefined : Number(line.slice(head.length))
}

/** GET with a Host header of our choosing (fetch sends the URL's own). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function metricsOf(host: Host, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${host.control.origin}/metrics`, { headers })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return res.text()
}

/** Raw bytes to the receiver that are not HTTP: refused before a request can be read. */
function sendGarbage(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
    socket.on('data', () => {})
    socket.on('close', () => resolve())
    socket.on('error', reject)
  })
}

async function ownHost(options: { metricsToken?: string } = {}): Promise<Host> {
  const { dir, cleanup } = makeTempDir()
  const host = await startHost({ dataDir: dir, port: 0, token: createToken(), ...options })
  cleanups.push(cleanup, () => host.close())
  return host
}

/** A consumer that holds each delivery until the test answers it. */
async function heldConsumer(): Promise<{ url: string; arrived: Promise<ServerResponse> }> {
  let arrive: (res: ServerResponse) => void = () => {}
  const arrived = new Promise<ServerResponse>((resolve) => (arrive = resolve))
  const server = createServer((req, res) => {
    req.resume()
    arrive(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`, arrived }
}

describe('probes', () => {
  it('answer without a token and to a foreign Host, with no path in them; the app itself refuses that Host', async () => {
    const { host } = await open()
    const live = await fetch(`${host.control.origin}/livez`)
    expect(live.status).toBe(200)
    expect(await live.json()).toEqual({ status: 'live' })
    const foreign = 'hookloop.internal:8080'
    const ready = await getWithHost(`${host.control.origin}/readyz`, foreign)
    expect(ready).toEqual({ status: 200, body: '{"status":"ready"}\n' })
    const metrics = await getWithHost(`${host.control.origin}/metrics`, foreign)
    expect(metrics.status).toBe(200)
    expect(metrics.body).toContain('hookloop_requests_captured_total 0')
    expect(metrics.body).not.toContain(host.engine.dataFile)
    // The app itself keeps its Host check.
    expect((await getWithHost(`${host.control.origin}/`, foreign)).status).toBe(421)
    expect((await fetch(`${host.control.origin}/livez`, { method: 'POST' })).status).toBe(405)
  })

  it('lists every metric of the catalog, its help, the default process metrics and the live UI clients', async () => {
    const { host } = await open()
    await metricsOf(host)
    // The store reads of a scrape are timed into the histogram after it was written out: seen on the next one.
    const text = await metricsOf(host)
    for (const metric of Object.values(METRICS)) expect(text).toContain(`# HELP ${metric.name} ${metric.help}`)
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter')
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge')
    // The session opened one WebSocket.
    expect(sample(text, 'hookloop_ui_clients')).toBe(1)
    expect(sample(text, 'hookloop_draining')).toBe(0)
    expect(sample(text, 'hookloop_due_deliveries')).toBe(0)
    expect(sample(text, 'hookloop_due_lag_seconds')).toBe(0)
    expect(sample(text, 'hookloop_store_read_seconds_count', 'read="due_queue"')).toBe(1)
    expect(sample(text, 'hookloop_store_read_seconds_count', 'read="probe"')).toBeUndefined()
    expect((await fetch(`${host.control.origin}/readyz`)).status).toBe(200)
    expect(sample(await metricsOf(host), 'hookloop_store_read_seconds_count', 'read="probe"')).toBe(1)
  })

  it('count a captured request, a refused connection and a delivery attempt by its outcome', async () => {
    const { host } = await open()
    const engine = host.engine
    await engine.putEndpoint({ slug: 'orders' })
    const before = await metricsOf(host)
    expect(sample(before, 'hookloop_requests_captured_total')).toBe(0)
    expect(sample(before, 'hookloop_requests_refused_total', 'reason="bad_request"')).toBe(0)
    expect(sample(before, 'hookloop_attempts_total', 'outcome="http_2xx"')).toBeUndefined()

    const posted = await fetch(engine.receiver.endpointUrl('orders'), { method: 'POST', body: '{"order":1}', headers: { 'content-type': 'application/json' } })
    expect(posted.status).toBe(200)
    await sendGarbage(engine.receiver.port)
    // A delivery to our own endpoint: one attempt, answered 200, and its request captured too.
    const subscription = await engine.putSubscription({ name: 'orders', target: { endpoint: 'orders' }, scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'csku' })
    const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: 2 } })
    await settled(host, sent.deliveryIds)

    const after = await metricsOf(host)
    expect(sample(after, 'hookloop_requests_captured_total')).toBe(2)
    expect(sample(after, 'hookloop_requests_refused_total', 'reason="bad_request"')).toBe(1)
    expect(sample(after, 'hookloop_attempts_total', 'outcome="http_2xx"')).toBe(1)
    expect(sample(after, 'hookloop_due_deliveries')).toBe(0)
  })

  it('put /metrics behind a bearer token when given one, and only /metrics', async () => {
    const host = await ownHost({ metricsToken: 'scrape-secret-1' })
    const none = await fetch(`${host.control.origin}/metrics`)
    expect(none.status).toBe(401)
    expect(await none.text()).toBe('unauthorized\n')
    expect((await fetch(`${host.control.origin}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    const text = await metricsOf(host, { authorization: 'Bearer scrape-secret-1' })
    expect(text).not.toContain('scrape-secret-1')
    expect((await fetch(`${host.control.origin}/readyz`)).status).toBe(200)
  })

  it('/readyz says 503 with its reason as soon as a drain starts; a request held by a rule is still answered', async () => {
    const host = await ownHost()
    const engine = host.engine
    await engine.putEndpoint({ slug: 'slow', rules: [{ steps: [{ type: 'delay', ms: 1500 }, { type: 'reply', status: 202, body: 'answered during the drain' }] }] })
    const answer = fetch(engine.receiver.endpointUrl('slow'), { method: 'POST', body: 'x' })
    // The request is in flight once the receiver has captured it.
    for (let i = 0; i < 400; i++) {
      if (sample(await metricsOf(host), 'hookloop_requests_captured_total') === 1) break
      await new Promise((r) => setTimeout(r, 10))
    }
    const drained = host.drain(30_000)
    const ready = await fetch(`${host.control.origin}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'not ready', reason: 'draining: the server is stopping' })
    expect(sample(await metricsOf(host), 'hookloop_draining')).toBe(1)
    const res = await answer
    expect(res.status).toBe(202)
    expect(await res.text()).toBe('answered during the drain')
    await drained
    // The port is closed: a new connection is refused.
    await expect(fetch(engine.receiver.endpointUrl('slow'), { method: 'POST', body: 'late' })).rejects.toThrow()
  })

  it('a drain and close record the attempt in flight with its real outcome', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const host = await startHost({ dataDir: dir, port: 0, token: createToken() })
    const consumer = await heldConsumer()
    const subscription = await host.engine.putSubscription({ name: 'held', target: { url: consumer.url }, scheme: 'standard-webhooks', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], policy: 'csku' })
    await host.engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'order.created', payload: { order: 3 } })
    const held = await consumer.arrived
    // Nothing is in flight at the receiver: the drain ends at once, and close waits for the attempt.
    const stopped = host.drain(30_000).then(() => host.close())
    held.writeHead(204).end()
    await stopped
    const store = createSqliteEngine(openDatabase({ file: host.engine.dataFile, notice: () => undefined }))
    try {
      expect(await store.all('SELECT outcome, status_code FROM attempts')).toEqual([{ outcome: 'http_204', status_code: 204 }])
    } finally {
      await store.close()
    }
  })
})
