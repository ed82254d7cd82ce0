// `hookloop trigger` as a real process: against a consumer built on Stripe's official library
// (a 500 first, then constructEvent accepts), and against Hookloop's own receiver
// (`hookloop listen`, verifying Svix signatures with a fail-first rule).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { startListen } from '../../support/listen-cli'
import { runCli } from '../../support/run-cli'
import { useTempDir } from '../../support/use-temp-dir'
import { PROVIDERS } from '../../../shared/providers'

const STRIPE_SECRET = 'whsec_hookloopTriggerTest'

describe('hookloop trigger', () => {
  const temp = useTempDir('hookloop-trigger-')
  let server: Server | undefined
  afterEach(async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
    server = undefined
  })

  it('delivers a Stripe event as Stripe does, retries by Stripe\u2019s policy on the virtual clock, applies --set', async () => {
    const stripe = new Stripe('sk_test_hookloop')
    const events: Stripe.Event[] = []
    let calls = 0
    server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        calls++
        if (calls === 1) return void res.writeHead(500).end()
        try {
          events.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), String(req.headers['stripe-signature']), STRIPE_SECRET))
          res.writeHead(200).end()
        } catch {
          res.writeHead(400).end()
        }
      })
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`
    const result = await runCli(['trigger', 'stripe', 'payment_intent.succeeded', '--to', url, '--secret', STRIPE_SECRET, '--set', 'data.object.amount=500'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const lines = result.stdout.split('\n')
    expect(lines[0]).toBe(`Stripe payment_intent.succeeded → ${url} (virtual clock, policy stripe, API version ${PROVIDERS.stripe.apiVersions![0]})`)
    expect(lines[1]).toMatch(/^ {2}#1 {3}\+0 ms .*http_500 .*retry$/)
    // Stripe's preset waits 1 h after the first failure: on the virtual clock, at once.
    expect(lines[2]).toMatch(/^ {2}#2 {3}\+3600000 ms\s+\(1 h\)\s+http_200 .*succeeded$/)
    expect(result.stdout).toMatch(/: succeeded after 2 attempts, 1 h of clock time/)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'payment_intent.succeeded', object: 'event', data: { object: { object: 'payment_intent', amount: 500 } } })
    // Named as the consumer knows it (Stripe's evt_… in the body), beside Hookloop's own id.
    expect(events[0]?.id).toMatch(/^evt_/)
    expect(result.stdout).toMatch(new RegExp(`\\nevent ${events[0]?.id} \\(body\\.id; Hookloop event [0-9a-f-]{36}\\): succeeded`))
  })

  it('names a GitHub delivery by the X-GitHub-Delivery the consumer got, and prints how long a slow answer really took', async () => {
    const deliveries: string[] = []
    server = createServer((req, res) => {
      deliveries.push(String(req.headers['x-github-delivery']))
      req.resume()
      req.on('end', () => setTimeout(() => res.writeHead(200).end(), 300))
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github`
    const result = await runCli(['trigger', 'github', 'push', '--to', url, '--secret', 'gh-secret'])
    expect(result.code).toBe(0)
    expect(deliveries).toHaveLength(1)
    expect(result.stdout).toContain(`\nevent ${deliveries[0]} (x-github-delivery): succeeded after 1 attempt`)
    // The virtual clock stands still while the server answers; the attempt's time is the real one.
    const took = /#1 .*http_200 in (\d+) ms/.exec(result.stdout)
    expect(took, result.stdout).not.toBeNull()
    expect(Number(took?.[1])).toBeGreaterThanOrEqual(300)

    const json = await runCli(['trigger', 'github', 'push', '--to', url, '--secret', 'gh-secret', '--json'])
    const report = JSON.parse(json.stdout) as { provider_event_id: { value: string; where: string }; attempts: { durationMs: number }[] }
    expect(report.provider_event_id).toEqual({ value: deliveries[1], where: 'x-github-delivery' })
    expect(report.attempts[0]?.durationMs).toBeGreaterThanOrEqual(300)
  })

  it('exits 1 when the delivery fails, and 2 naming what is wrong with the usage', async () => {
    server = createServer((_req, res) => res.writeHead(410).end())
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gone`
    const gone = await runCli(['trigger', 'github', 'push', '--to', url, '--secret', 's', '--json'])
    expect(gone.code).toBe(1)
    const report = JSON.parse(gone.stdout) as { ok: boolean; status: string; attempts: Array<{ outcome: string }> }
    expect(report).toMatchObject({ ok: false, status: 'failed', attempts: [{ outcome: 'http_410' }] })

    const unknown = await runCli(['trigger', 'stripe', 'payment_intent.exploded', '--to', url])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/no event type "payment_intent.exploded".*payment_intent.succeeded/)
    const outside = await runCli(['trigger', 'stripe', 'charge.succeeded', '--to', url, '--set', 'livemode=true'])
    expect(outside.code).toBe(2)
    expect(outside.stderr).toMatch(/use a path starting with data/)
    expect((await runCli(['trigger', 'nope', 'x', '--to', url])).stderr).toMatch(/unknown provider "nope"/)
    const list = await runCli(['trigger', '--list', 'slack'])
    expect(list.stdout).toMatch(/^app_mention\s+The app was mentioned/m)
  })

  it('against Hookloop\u2019s own endpoint: hookloop listen verifies the Svix signatures and fails the first arrival', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const config = join(temp.dir, 'listen.json')
    writeFileSync(config, JSON.stringify({ endpoints: [{ slug: 'svix', scheme: 'svix', secrets: [secret], dedupe: { type: 'header', name: 'svix-id' }, rules: [{ preset: 'fail-first', n: 1 }] }] }))
    const cli = await startListen(['--config', config, '--data', join(temp.dir, 'data')])
    try {
      const { port } = cli
      const result = await runCli(['trigger', 'svix', 'invoice.paid', '--to', `http://127.0.0.1:${port}/h/svix`, '--secret', secret])
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(/#1 .*http_503 .*retry/)
      expect(result.stdout).toMatch(/#2 .*\(5 s\)\s+http_200 .*succeeded/)
      const logged = () => cli.stdout.split('\n').filter((l) => l.includes('status='))
      await cli.waitForOutput(() => logged().length >= 2)
      for (const line of logged()) expect(line).toContain('sig=ok')
    } finally {
      cli.kill()
      await cli.exited
    }
  })
})
