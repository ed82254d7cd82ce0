// A scenario through the tunnel: Hookloop's sender delivers to the public URL of a tunnel (our
// test server, and the real localtunnel server in a child process), the receiver fails the first
// attempt in front of the app, then forwards the retry to a real app that verifies the signature
// with the official Standard Webhooks library. The run's report holds both legs on one timeline.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { createScenarioRuns } from '../../../electron/engine/host/scenario-runs'
import { runScenario } from '../../../electron/engine/scenarios/run'
import type { ScenarioRunView } from '../../../shared/contract'
import { parseScenario } from '../../../shared/scenario'
import type { ScenarioInput } from '../../../shared/scenario'
import type { ScenarioReport } from '../../../shared/scenario'
import { createTunnelServer } from '../../support/tunnel-server'
import { realServerLookup, startRealTunnelServer } from '../../support/tunnel-server/real-server'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { startApp, type App } from '../forward/apps'

const SECRET = 'whsec_' + Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')

/** A real-clock loop: one retry 300 ms after a 503 put in front of the app. */
function scenarioThrough(host: string, app: string): ScenarioInput {
  return {
    version: 1,
    name: 'fail the first in front of your app, through the tunnel',
    clock: { mode: 'real' },
    app,
    tunnel: { host, online_within_ms: 20_000 },
    endpoints: [{ slug: 'shop', scheme: 'standard-webhooks', secrets: [SECRET], rules: [{ preset: 'fail-then-forward', n: 1, url: `${app}/webhooks` }] }],
    subscriptions: [
      {
        id: 'provider',
        endpoint: 'shop',
        scheme: 'standard-webhooks',
        event_id_header: 'webhook-id',
        policy: { name: 'quick', max_attempts: 3, schedule: { kind: 'fixed', interval_ms: 300 }, timeout_ms: 5000, follow_redirects: 0, retry_after: { honour: false, statuses: [429, 503], max_ms: 1000 }, classification: { rules: [{ when: { status_range: [200, 299] }, then: 'succeeded' }], otherwise: 'retry' } },
      },
    ],
    events: [{ id: 'paid', type: 'order.paid', payload: { order: 'o_1' } }],
    expect: {
      deliveries: [{ event: 'paid', status: 'succeeded', attempts: 2, outcomes: ['http_503', 'http_200'] }],
      endpoints: [{ endpoint: 'shop', requests: 2, signatures: { ok: 2 } }],
      forwards: [{ event: 'paid', requests: 1, statuses: [200], outcomes: ['answered'] }],
    },
  }
}

function parsed(input: ScenarioInput) {
  const result = parseScenario(JSON.stringify(input))
  if (!result.ok) throw new Error(`invalid test scenario: ${JSON.stringify(result.problems)}`)
  return result.scenario
}

/** The app under test: verify() as the library's docs say (signature and timestamp age). */
async function verifyingApp(): Promise<{ app: App; verified: string[] }> {
  const verified: string[] = []
  const app = await startApp((req, res) => {
    try {
      new Webhook(SECRET).verify(req.body.toString('utf8'), req.headers as Record<string, string>)
      verified.push(String(req.headers['webhook-id']))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    } catch (error) {
      verified.push(`rejected: ${(error as Error).message}`)
      res.writeHead(401).end('bad signature')
    }
  })
  return { app, verified }
}

/** What must hold of a report through the tunnel, whichever server carried it. */
function expectThroughTheTunnel(report: ScenarioReport, app: App, verified: string[]) {
  expect(report.incomplete).toBeNull()
  expect(report.expectations.filter((e) => !e.ok)).toEqual([])
  expect(report.ok).toBe(true)
  const publicUrl = report.tunnel?.url as string
  expect(publicUrl).toMatch(/^http:\/\//)
  expect(report.tunnel?.bypassed_attempts).toBe(0)
  // The sender's side: it delivered to the public URL, and the receiver failed the first in front.
  const [delivery] = report.deliveries
  expect(delivery?.url).toBe(`${publicUrl.replace(/\/+$/, '')}/h/shop`)
  expect(delivery?.attempts.map((a) => [a.outcome, a.signature, a.request_id === null])).toEqual([
    ['http_503', 'ok', false],
    ['http_200', 'ok', false],
  ])
  // The app's side: only the retry reached it, verified by the official library, from the public host.
  expect(verified).toEqual([delivery?.event_id])
  expect(app.seen).toHaveLength(1)
  expect(app.seen[0]?.headers['x-forwarded-host']).toBe(new URL(publicUrl).host)
  // One timeline: the leg is the request of the attempt the app answered.
  expect(report.forwards?.map((l) => [l.request_id, l.event, l.endpoint, l.status, l.url])).toEqual([[delivery?.attempts[1]?.request_id, 'paid', 'shop', 200, `${app.url}/webhooks`]])
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn()
})

describe('a scenario through the tunnel', () => {
  it('on our test tunnel server: sender → public URL → receiver (503 first) → forward → the app, both legs in the report', async () => {
    const server = await createTunnelServer({ maxSockets: 4, reuseSockets: true })
    cleanups.push(() => server.stop())
    const { app, verified } = await verifyingApp()
    cleanups.push(() => app.close())
    const report = await runScenario(parsed(scenarioThrough(server.url, app.url)), { wallLimitMs: 30_000 })
    expectThroughTheTunnel(report, app, verified)
    expect(report.tunnel?.host).toBe(server.url)
  })

  it('on the real localtunnel server: the same loop, the same expectations hold', async () => {
    const server = await startRealTunnelServer()
    cleanups.push(() => server.stop())
    const { app, verified } = await verifyingApp()
    cleanups.push(() => app.close())
    const report = await runScenario(parsed(scenarioThrough('https://localtunnel.me', app.url)), { wallLimitMs: 30_000, tunnel: { host: server.url, lookup: realServerLookup } })
    expectThroughTheTunnel(report, app, verified)
    // The run-time host replaced the file's, and the public URL is one the real server handed out.
    expect(report.tunnel?.host).toBe(server.url)
    expect(new URL(report.tunnel?.url as string).hostname).toMatch(/\.lt\.test$/)
  }, 60_000)

  it('hookloop run --tunnel-host: the CLI runs the file through the tunnel server given at run time', async () => {
    const server = await createTunnelServer({ maxSockets: 4, reuseSockets: true })
    cleanups.push(() => server.stop())
    const { app, verified } = await verifyingApp()
    cleanups.push(() => app.close())
    const dir = mkdtempSync(join(tmpdir(), 'hookloop-run-tunnel-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'through-the-tunnel.json')
    writeFileSync(file, JSON.stringify(scenarioThrough('https://localtunnel.me', 'http://127.0.0.1:3000')))
    const out = join(dir, 'report.json')
    const result = await runCli(['run', file, '--app', app.url, '--tunnel-host', server.url, '--report', out])
    expect(result.code).toBe(0)
    const report = JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport
    expectThroughTheTunnel(report, app, verified)
    expect(result.stdout).toContain(`Through the tunnel: loop deliveries went to ${report.tunnel?.url} (tunnel server ${server.url}).`)
    expect(result.stdout).toMatch(/#2 .*http_200 .*\n +→ forward http:\/\/127\.0\.0\.1:\d+\/webhooks: answered 200 in \d+ ms/)
  })

  it('the example (provider A, 3 failures in front, virtual clock) runs through the tunnel server given at run time: the app sees the event twice', async () => {
    const example = join(REPO_ROOT, 'examples', 'forward', 'provider-a-through-the-tunnel.json')
    const secret = (JSON.parse(readFileSync(example, 'utf8')) as { endpoints: { secrets: string[] }[] }).endpoints[0]?.secrets[0] as string
    const server = await createTunnelServer({ maxSockets: 4, reuseSockets: true })
    cleanups.push(() => server.stop())
    // The library's own signature for the request's id and timestamp (its verify() also checks the
    // age against the wall clock, and this run's clock is virtual, in January 2026).
    const app = await startApp((req, res) => {
      const expected = new Webhook(secret).sign(String(req.headers['webhook-id']), new Date(Number(req.headers['webhook-timestamp']) * 1000), req.body.toString('utf8'))
      res.writeHead(String(req.headers['webhook-signature']).split(' ').includes(expected) ? 200 : 401).end()
    })
    cleanups.push(() => app.close())
    const result = await runCli(['run', example, '--json'], { env: { ...process.env, HOOKLOOP_APP_URL: app.url, HOOKLOOP_TUNNEL_HOST: server.url } })
    expect(result.code).toBe(0)
    const report = JSON.parse(result.stdout) as ScenarioReport
    expect(report.ok).toBe(true)
    expect(report.tunnel).toMatchObject({ host: server.url, bypassed_attempts: 0 })
    expect(report.deliveries.map((d) => [d.url.startsWith(report.tunnel?.url.replace(/\/+$/, '') as string), d.attempts.map((a) => a.outcome)])).toEqual([
      [true, ['http_503', 'http_503', 'http_503', 'http_200']],
      [true, ['http_200']],
    ])
    expect(app.seen.map((r) => [r.url, r.headers['x-forwarded-host']])).toEqual([
      ['/webhooks', new URL(report.tunnel?.url as string).host],
      ['/webhooks', new URL(report.tunnel?.url as string).host],
    ])
  })

  it('the app\'s scenario run: a file with "tunnel" goes through the app\'s tunnel server, and the report shows it', async () => {
    const server = await createTunnelServer({ maxSockets: 4, reuseSockets: true })
    cleanups.push(() => server.stop())
    const { app, verified } = await verifyingApp()
    cleanups.push(() => app.close())
    let finished: (view: ScenarioRunView) => void = () => {}
    const done = new Promise<ScenarioRunView>((resolve) => (finished = resolve))
    const runs = createScenarioRuns({ publish: (view) => view.state !== 'running' && finished(view), tunnel: () => ({ host: server.url }) })
    cleanups.push(() => runs.close())
    runs.start(JSON.stringify(scenarioThrough('https://localtunnel.me', app.url)))
    const view = await done
    expect([view.state, view.error]).toEqual(['done', null])
    expectThroughTheTunnel(view.report as ScenarioReport, app, verified)
    expect(view.report?.tunnel?.host).toBe(server.url)
  })

  it('a tunnel server that never answers fails the run, naming the host and the state it was left in', async () => {
    const { app } = await verifyingApp()
    cleanups.push(() => app.close())
    const input = scenarioThrough('http://127.0.0.1:9', app.url)
    const scenario = parsed({ ...input, tunnel: { host: 'http://127.0.0.1:9', online_within_ms: 1500 } })
    await expect(runScenario(scenario)).rejects.toThrow(/^the tunnel at http:\/\/127\.0\.0\.1:9 was not online within 1500 ms \(tunnel\.online_within_ms\): tunnel (connecting|reconnecting)/)
    expect(app.seen).toEqual([])
  })

  it('a tunnel with no loop-mode subscription is refused by the validator, naming the field', () => {
    const input = scenarioThrough('http://127.0.0.1:9', 'http://127.0.0.1:3000')
    const result = parseScenario(JSON.stringify({ ...input, subscriptions: [{ ...input.subscriptions[0], endpoint: undefined, url: 'http://127.0.0.1:3000/hooks' }], expect: { deliveries: [], endpoints: [], forwards: [] } }))
    expect(result.ok).toBe(false)
    expect(!result.ok && result.problems).toContainEqual({ path: 'tunnel', message: 'no subscription targets one of this scenario\'s endpoints ("endpoint"), so nothing would go through the tunnel' })
  })
})
