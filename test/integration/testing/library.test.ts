import { createHmac } from 'node:crypto'
import { createServer } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, deliver, openResources, runScenarioFile, startReceiver, type TestReceiver } from '../../../electron/testing'
import { listenLoopback } from '../../support/loopback'
import { REPO_ROOT } from '../../support/run-cli'
import { assertBuilt, runNode } from './support'

// hookloop/testing from its source: what the example projects do not show (a bad signature, a
// wait that times out, bad input, faults, a test that forgets to close).

const githubSignature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

let receiver: TestReceiver | undefined
afterEach(async () => {
  await receiver?.close()
  receiver = undefined
})

describe('startReceiver', () => {
  it('says a signature signed with the wrong secret is invalid, and why', async () => {
    receiver = await startReceiver({ endpoints: [{ slug: 'github', scheme: 'github', secrets: ['right'], dedupe: 'github' }] })
    const body = '{"zen":"hi"}'
    const res = await fetch(receiver.endpointUrl('github'), { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-github-delivery': 'd-1', 'x-hub-signature-256': githubSignature('wrong', body) } })
    expect(res.status).toBe(200)
    const request = await receiver.nextRequest({ endpoint: 'github' })
    expect(request).toMatchObject({ verdict: 'invalid', eventId: 'd-1', arrival: 1, duplicate: null, fault: null, status: 200, method: 'POST' })
    expect(request.verify?.valid).toBe(false)
    expect(request.json()).toEqual({ zen: 'hi' })
    expect(request.headers['x-github-delivery']).toBe('d-1')
  })

  it('an endpoint without a scheme leaves requests unverified; a predicate picks among them', async () => {
    receiver = await startReceiver({ endpoints: [{ slug: 'plain' }] })
    for (const n of [1, 2]) await fetch(receiver.endpointUrl('plain'), { method: 'POST', body: JSON.stringify({ n }) })
    const second = await receiver.nextRequest({ where: (r) => (r.json() as { n: number }).n === 2 })
    expect(second).toMatchObject({ verdict: 'unverified', endpoint: 'plain', eventId: null, arrival: null })
    expect(receiver.requests().map((r) => r.body)).toEqual(['{"n":1}', '{"n":2}'])
  })

  it('a wait that times out names what it waited for and what did arrive', async () => {
    receiver = await startReceiver({ endpoints: [{ slug: 'orders', dedupe: { type: 'header', name: 'x-event-id' } }] })
    await fetch(receiver.endpointUrl('orders'), { method: 'POST', body: '{}', headers: { 'x-event-id': 'evt_other' } })
    await expect(receiver.nextRequest({ endpoint: 'orders', eventId: 'evt_42', timeoutMs: 100 })).rejects.toThrow(
      /waited 100 ms for a request to endpoint "orders" with event id "evt_42" at http:\/\/127\.0\.0\.1:\d+; 1 arrived: #1 POST \/h\/orders \(event evt_other\)/,
    )
  })

  it('closing the receiver ends a wait in progress, saying so', async () => {
    const closing = await startReceiver({ endpoints: [{ slug: 'orders' }] })
    const waiting = closing.nextRequest({ endpoint: 'orders', timeoutMs: 60_000 })
    await closing.close()
    await expect(waiting).rejects.toThrow(/was closed while waiting for a request to endpoint "orders"/)
  })

  it('a bad endpoint is refused naming its place and field', async () => {
    await expect(startReceiver({ endpoints: [{ slug: 'Not A Slug' }] })).rejects.toThrow(/endpoints\[0\] \("Not A Slug"\): slug: a slug is/)
    await expect(startReceiver({ endpoints: [] })).rejects.toThrow(/give at least one endpoint/)
    expect(openResources()).toEqual([])
  })

  it('closeAll closes what a test left open', async () => {
    const left = await startReceiver({ endpoints: [{ slug: 'left' }] })
    expect(openResources()).toEqual([expect.stringMatching(/^receiver at http:\/\/127\.0\.0\.1:\d+ \(started at .*library\.test\.ts:\d+:\d+\)$/)])
    await closeAll()
    expect(openResources()).toEqual([])
    await expect(fetch(left.endpointUrl('left'), { method: 'POST' })).rejects.toThrow()
  })
})

describe('deliver', () => {
  it('runs a policy with a duplicate fault against the code under test and reports every attempt', async () => {
    let calls = 0
    const app = await listenLoopback(
      createServer((_req, res) => {
        calls++
        res.writeHead(calls === 1 ? 503 : 200).end()
      }),
    )
    try {
      const result = await deliver({
        to: `${app.url}/hooks`,
        scheme: 'standard-webhooks',
        policy: 'standard-webhooks',
        secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        events: [{ type: 'order.paid', payload: { order: 7 }, faults: [{ type: 'duplicate' }] }],
      })
      expect(result.secret).toBe('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
      const [original, copy] = result.deliveries
      expect(original?.attempts.map((a) => a.outcome)).toEqual(expect.arrayContaining(['http_200']))
      expect(copy?.duplicateOf).toBe(original?.delivery.id)
      expect(result.deliveries.every((d) => d.status === 'succeeded')).toBe(true)
      expect(result.deliveries.flatMap((d) => d.attempts).length).toBe(calls)
    } finally {
      await app.close()
    }
    expect(openResources()).toEqual([])
  })

  it("delivers a provider's catalog event in the API version asked for", async () => {
    const bodies: string[] = []
    const app = await listenLoopback(
      createServer((req, res) => {
        let body = ''
        req.on('data', (chunk: Buffer) => (body += chunk.toString()))
        req.on('end', () => {
          bodies.push(body)
          res.writeHead(200).end()
        })
      }),
    )
    try {
      const result = await deliver({ to: `${app.url}/stripe`, provider: 'stripe', apiVersion: '2024-06-20', events: ['invoice.paid'] })
      expect(result.deliveries[0]?.status).toBe('succeeded')
      expect(JSON.parse(bodies[0]!)).toMatchObject({ type: 'invoice.paid', api_version: '2024-06-20' })
      await expect(deliver({ to: `${app.url}/stripe`, provider: 'stripe', apiVersion: '1999-01-01', events: ['invoice.paid'] })).rejects.toThrow(/1999-01-01/)
    } finally {
      await app.close()
    }
    expect(openResources()).toEqual([])
  })

  it('refuses what it cannot deliver, saying what to give', async () => {
    await expect(deliver({ to: 'localhost:3000', provider: 'github', events: ['push'] })).rejects.toThrow(/"to" is the http\(s\) URL/)
    await expect(deliver({ to: 'http://127.0.0.1:9/', events: ['push'] })).rejects.toThrow(/name a provider/)
    await expect(deliver({ to: 'http://127.0.0.1:9/', scheme: 'github', policy: 'github', apiVersion: '2024-06-20', events: ['push'] })).rejects.toThrow(/apiVersion is a provider's/)
    await expect(deliver({ to: 'http://127.0.0.1:9/', provider: 'github', events: ['no.such.event'] })).rejects.toThrow(/no event type "no.such.event"/)
    await expect(deliver({ to: 'http://127.0.0.1:9/', scheme: 'github', policy: 'github', events: ['push'] })).rejects.toThrow(/events\[0\] \("push"\) needs a payload/)
    expect(openResources()).toEqual([])
  })
})

describe('runScenarioFile', () => {
  it('returns a scenario report as an object', async () => {
    const report = await runScenarioFile(`${REPO_ROOT}/examples/provider-a-fail-first-3.json`)
    expect(report.ok).toBe(true)
    expect(report.deliveries[0]?.attempts).toHaveLength(4)
  })

  it('an invalid file throws naming it and the problem', async () => {
    await expect(runScenarioFile(`${REPO_ROOT}/package.json`)).rejects.toThrow(/package\.json is not a valid scenario/)
    await expect(runScenarioFile(`${REPO_ROOT}/no-such.json`)).rejects.toThrow(/cannot read .*no-such\.json/)
  })
})

describe('a test that forgets to close', () => {
  it('ends anyway, and the process names the receiver left open and where it started', async () => {
    assertBuilt()
    const script = "import { startReceiver } from 'hookloop/testing'\nawait startReceiver({ endpoints: [{ slug: 'forgotten' }] })\n"
    const result = await runNode(['--input-type=module', '-e', script], REPO_ROOT)
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(/HOOKLOOP_TESTING_OPEN.*1 thing started by hookloop\/testing was never closed:\n {2}- receiver at http:\/\/127\.0\.0\.1:\d+ \(started at /s)
    expect(result.stderr).not.toMatch(/started at [^\n]*out\/testing/)
  })
})
