// Loop through your app, as a CI job runs it: `hookloop run` on the example scenario (Hookloop's
// sender under provider A's policy → the receiver, failing the first 3 → forward → the app), the
// app a real server on loopback that checks the Standard Webhooks signature with the official
// library, its URL given at run time. The report must say what the app saw, and a failing app
// must fail the run with the JSON path of the expectation.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ScenarioReport } from '../../../shared/scenario'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { startApp, type App } from './apps'

const EXAMPLE = join(REPO_ROOT, 'examples', 'forward', 'provider-a-through-your-app.json')
const SECRET = (JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { endpoints: { secrets: string[] }[] }).endpoints[0]?.secrets[0] as string

/**
 * The signature as the official library computes it for the request's own id and timestamp. (Its
 * verify() also rejects timestamps 5 min away from the wall clock; the scenario runs on a virtual
 * clock in January 2026, so the signature is checked, not the age.)
 */
function signatureValid(headers: Record<string, string | string[] | undefined>, body: Buffer): boolean {
  const id = String(headers['webhook-id'])
  const timestamp = Number(headers['webhook-timestamp'])
  const expected = new Webhook(SECRET).sign(id, new Date(timestamp * 1000), body.toString('utf8'))
  return String(headers['webhook-signature']).split(' ').includes(expected)
}

describe('a scenario through your app', () => {
  let app: App
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookloop-forward-run-'))
  })
  afterEach(async () => {
    await app?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('under provider A\'s policy with 3 failures in front, the app saw the event twice and answered 200 both times', async () => {
    app = await startApp((req, res) => res.writeHead(signatureValid(req.headers, req.body) ? 200 : 401).end())
    const out = join(dir, 'report.json')
    const result = await runCli(['run', EXAMPLE, '--app', `${app.url}/`, '--report', out])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const report = JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport
    expect(report.ok).toBe(true)
    // The app's side: two requests, at the path of the file's target, the same event both times.
    expect(app.seen.map((r) => [r.method, r.url, r.headers['x-pandoktorek-event-id']])).toEqual([
      ['POST', '/webhooks', '550e8400-e29b-41d4-a716-446655440000'],
      ['POST', '/webhooks', '550e8400-e29b-41d4-a716-446655440000'],
    ])
    // The provider's side, on the same timeline: 503 ×3, then the app's 200; the resend's 200.
    const [original, resend] = report.deliveries
    expect(original?.attempts.map((a) => a.outcome)).toEqual(['http_503', 'http_503', 'http_503', 'http_200'])
    expect(resend?.attempts.map((a) => a.outcome)).toEqual(['http_200'])
    expect(report.forwards?.map((l) => [l.event, l.endpoint, l.kind, l.status, l.url])).toEqual([
      ['booking', 'clinic', 'forward', 200, `${app.url}/webhooks`],
      ['booking', 'clinic', 'forward', 200, `${app.url}/webhooks`],
    ])
    // Each leg is the request of the attempt the app answered.
    expect(report.forwards?.map((l) => l.request_id)).toEqual([original?.attempts[3]?.request_id, resend?.attempts[0]?.request_id])
    expect(report.expectations.filter((e) => e.subject.kind === 'forward').map((e) => [e.path, e.ok])).toEqual([
      ['expect.forwards[0].requests', true],
      ['expect.forwards[0].statuses', true],
      ['expect.forwards[0].outcomes', true],
      ['expect.forwards[1].latency_ms', true],
    ])
    // The summary shows the app's answer under the attempt that reached it.
    expect(result.stdout).toMatch(/#4 .*http_200 .*\n +→ forward http:\/\/127\.0\.0\.1:\d+\/webhooks: answered 200 in \d+ ms/)
    expect(result.stdout).toMatch(/PASS: \d+ of \d+ expectations hold/)
  })

  it('an app that rejects the event fails the run, naming the expectation\'s path, expected and actual (URL from HOOKLOOP_APP_URL)', async () => {
    app = await startApp((_req, res) => res.writeHead(500).end('boom'))
    const out = join(dir, 'report.json')
    const result = await runCli(['run', EXAMPLE, '--report', out], { env: { ...process.env, HOOKLOOP_APP_URL: app.url } })
    expect(result.code).toBe(1)
    const report = JSON.parse(readFileSync(out, 'utf8')) as ScenarioReport
    const statuses = report.expectations.find((e) => e.path === 'expect.forwards[0].statuses')
    // Every attempt from the 4th on reaches the app, which fails each: the provider retries until its policy gives up.
    expect(statuses).toMatchObject({ ok: false, expected: [200, 200] })
    expect(statuses?.message).toMatch(/^\d+ requests reached it with status \[500(,500)*\]; expected 2: \[200,200\]$/)
    expect(result.stdout).toContain('expect.forwards[0].statuses')
    expect(app.seen.length).toBeGreaterThan(2)
  })

  it('a bad app URL is a usage error naming where it came from', async () => {
    const result = await runCli(['run', EXAMPLE, '--app', 'ftp://127.0.0.1/'])
    expect([result.code, result.stderr.trim()]).toEqual([2, 'hookloop: run: --app: a forward target must be http:// or https://, not ftp:'])
  })
})
