// Incident → scenario → `hookloop run`, as real processes over real data folders: a case file and a
// HAR exported by Hookloop itself from a real capture (signed requests on a verifying endpoint with
// a rule, and a loop delivery) become scenario files that pass on a fresh data folder, and fail once
// the endpoint's rule in the file is changed.
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScenarioInput } from '../../../shared/scenario'
import { runCli } from '../../support/run-cli'
import { createFixture, newEngine, SECRET, SUBSCRIPTION_SECRET, type Fixture } from '../exports/support'

let fixture: Fixture
beforeAll(async () => {
  fixture = await createFixture()
})
afterAll(async () => {
  await fixture?.close()
})

/** Any secret in the scheme's format works: the run's sender and endpoint both use it. */
const RUN_SECRET = `whsec_${randomBytes(24).toString('base64')}`

async function exportFile(format: 'case' | 'har', name: string): Promise<string> {
  const out = join(fixture.dir, 'incident', name)
  const exported = await runCli(['export', '--data', fixture.dir, '--format', format, '--requests', fixture.requestIds.join(','), '--deliveries', String(fixture.deliveryIds[0]), '--out', out])
  expect(exported.stderr).toBe('')
  expect(exported.code).toBe(0)
  return out
}

async function toScenario(file: string, out: string): Promise<{ scenario: ScenarioInput; text: string; stderr: string }> {
  const made = await runCli(['import', file, '--as-scenario', out])
  expect(made.code, made.stderr).toBe(0)
  expect(made.stdout).toContain(`wrote ${out}`)
  expect(made.stdout).toContain('--secret HOOKLOOP_SECRET_SHOP=')
  const text = readFileSync(out, 'utf8')
  return { scenario: JSON.parse(text) as ScenarioInput, text, stderr: made.stderr }
}

function runArgs(file: string, data: string): string[] {
  return ['run', file, '--data', data, '--json', '--secret', `HOOKLOOP_SECRET_SHOP=${RUN_SECRET}`]
}

describe('an incident becomes a regression test', () => {
  it('a case file: the scenario passes on a fresh data folder, and fails once the rule is changed', async () => {
    const file = await exportFile('case', 'ticket.case.json')
    const out = join(fixture.dir, 'incident', 'case-scenario.json')
    const { scenario, text, stderr } = await toScenario(file, out)
    // Nothing secret left the incident: the capture's secrets are not in the scenario.
    for (const secret of [SECRET, SUBSCRIPTION_SECRET]) expect(text).not.toContain(secret)
    expect(scenario.endpoints?.[0]?.secrets).toEqual(['${HOOKLOOP_SECRET_SHOP}'])
    // The binary request cannot be an event (events carry JSON), and the file says so.
    expect(stderr).toMatch(/body is not JSON/)
    // Two JSON requests sent again, plus the loop delivery under its own policy.
    expect(scenario.events).toHaveLength(3)
    expect(scenario.expect?.deliveries?.map((d) => d.outcomes)).toEqual([['http_200'], ['http_422'], ['http_200']])

    const passed = await runCli(runArgs(out, join(fixture.dir, 'run-case-1')))
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    const report = JSON.parse(passed.stdout) as { ok: boolean; expectations: { ok: boolean; path: string }[] }
    expect(report.ok).toBe(true)
    expect(report.expectations.length).toBeGreaterThanOrEqual(5)

    // Without the secret the run says which one is missing (exit 2), rather than signing with garbage.
    const missing = await runCli(['run', out, '--data', join(fixture.dir, 'run-case-2')], { env: { ...process.env, HOOKLOOP_SECRET_SHOP: '' } })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('endpoints[0].secrets[0]: the secret ${HOOKLOOP_SECRET_SHOP} has no value')
    // The environment fills it as well as --secret.
    const fromEnv = await runCli(['run', out, '--data', join(fixture.dir, 'run-case-3')], { env: { ...process.env, HOOKLOOP_SECRET_SHOP: RUN_SECRET } })
    expect(fromEnv.code, fromEnv.stdout + fromEnv.stderr).toBe(0)

    // The endpoint's rule changes (the refused event now gets a 500): the scenario catches it.
    const changed = JSON.parse(text) as { endpoints: { rules: { steps: { status: number }[] }[] }[] }
    changed.endpoints[0]!.rules[0]!.steps[0]!.status = 500
    const changedFile = join(fixture.dir, 'incident', 'case-scenario-changed.json')
    writeFileSync(changedFile, JSON.stringify(changed, null, 2))
    const failed = await runCli(runArgs(changedFile, join(fixture.dir, 'run-case-4')))
    expect(failed.code).toBe(1)
    const failedReport = JSON.parse(failed.stdout) as { expectations: { ok: boolean; path: string; expected: unknown; actual: unknown }[] }
    const broken = failedReport.expectations.filter((e) => !e.ok)
    expect(broken).toEqual([expect.objectContaining({ path: 'expect.deliveries[1].outcomes', expected: ['http_422'], actual: ['http_500'] })])
  })

  it('a HAR: rules are written from what was answered; the scenario passes, and fails once an answer is changed', async () => {
    const file = await exportFile('har', 'ticket.har')
    const out = join(fixture.dir, 'incident', 'har-scenario.json')
    const { scenario, text, stderr } = await toScenario(file, out)
    for (const secret of [SECRET, SUBSCRIPTION_SECRET]) expect(text).not.toContain(secret)
    expect(stderr).toMatch(/carries no rules/)
    const endpoint = scenario.endpoints?.[0] as { slug: string; rules: { sequence: { items: { status: number }[] } }[] }
    expect(endpoint.slug).toBe('shop')
    expect(endpoint.rules.map((r) => r.sequence.items.map((i) => i.status))).toEqual([[200], [422]])

    const passed = await runCli(runArgs(out, join(fixture.dir, 'run-har-1')))
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)

    const changed = JSON.parse(text) as typeof endpoint & { endpoints: (typeof endpoint)[] }
    changed.endpoints[0]!.rules[1]!.sequence.items[0]!.status = 200
    const changedFile = join(fixture.dir, 'incident', 'har-scenario-changed.json')
    writeFileSync(changedFile, JSON.stringify(changed, null, 2))
    const failed = await runCli(runArgs(changedFile, join(fixture.dir, 'run-har-2')))
    expect(failed.code).toBe(1)
  })

  it("a delivery to a consumer's URL: an endpoint of ours answers as the consumer did, and the policy's retries are expected", async () => {
    // A real consumer on loopback: 500 twice per message id, then 200.
    const seen = new Map<string, number>()
    const consumer = createServer((req, res) => {
      const id = String(req.headers['webhook-id'])
      const n = (seen.get(id) ?? 0) + 1
      seen.set(id, n)
      req.resume()
      req.on('end', () => res.writeHead(n <= 2 ? 500 : 200).end())
    })
    await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve))
    const capture = await newEngine()
    try {
      const url = `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/hooks`
      const sub = await capture.engine.putSubscription({ name: 'orders', target: { url }, scheme: 'standard-webhooks', policy: { preset: 'custom', name: 'quick', schedule: { kind: 'fixed', interval_ms: 300 }, max_attempts: 4, timeout_ms: 5000 } })
      const sent = await capture.engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 5 } })
      const id = sent.deliveryIds[0]!
      for (let i = 0; i < 1000 && !capture.engine.isDeliverySettled(id); i++) await new Promise((r) => setTimeout(r, 10))
      await capture.engine.quiesce()
      const file = join(capture.dir, 'consumer.case.json')
      const exported = await runCli(['export', '--data', capture.dir, '--format', 'case', '--deliveries', String(id), '--out', file])
      expect(exported.code, exported.stderr).toBe(0)
      const out = join(capture.dir, 'consumer-scenario.json')
      const made = await runCli(['import', file, '--as-scenario', out])
      expect(made.code, made.stderr).toBe(0)
      expect(made.stderr).toContain('in the scenario endpoint consumer-orders answers as it did')
      const text = readFileSync(out, 'utf8')
      const scenario = JSON.parse(text) as ScenarioInput
      expect(scenario.expect?.deliveries?.[0]).toMatchObject({ status: 'succeeded', attempts: 3, outcomes: ['http_500', 'http_500', 'http_200'], decisions: ['retry', 'retry', 'succeeded'] })

      const passed = await runCli(['run', out, '--data', join(capture.dir, 'run-1')])
      expect(passed.code, passed.stdout + passed.stderr).toBe(0)
      // The consumer's answers change (it no longer fails first): the scenario says so.
      const changed = JSON.parse(text) as { endpoints: { slug: string; rules: { sequence: { items: { status: number }[] } }[] }[] }
      changed.endpoints.find((e) => e.slug === 'consumer-orders')!.rules[0]!.sequence.items[0]!.status = 200
      const changedFile = join(capture.dir, 'consumer-changed.json')
      writeFileSync(changedFile, JSON.stringify(changed))
      const failed = await runCli(['run', changedFile, '--data', join(capture.dir, 'run-2')])
      expect(failed.code).toBe(1)
      expect(failed.stdout).toMatch(/✗ .*attempts/)
    } finally {
      await capture.close()
      await new Promise((resolve) => consumer.close(resolve))
    }
  })

  it('bad usage and files with nothing to send: exit 2 or 1, one line naming the problem', async () => {
    const none = await runCli(['import', join(fixture.dir, 'nope.har'), '--as-scenario', join(fixture.dir, 'x.json')])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('cannot read')
    const noOut = await runCli(['import', join(fixture.dir, 'nope.har')])
    expect(noOut.code).toBe(2)
    expect(noOut.stderr).toContain('--as-scenario OUT.json')
    const binary = join(fixture.dir, 'binary.har')
    writeFileSync(binary, JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-05T09:00:00Z', request: { method: 'POST', url: 'http://x/h/shop', headers: [], postData: { text: 'AP8=', encoding: 'base64' } }, response: { status: 200 } }] } }))
    const nothing = await runCli(['import', binary, '--as-scenario', join(fixture.dir, 'y.json')])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain('nothing in the file can be sent again')
    const badSecret = await runCli(['run', join(fixture.dir, 'y.json'), '--secret', 'lower=1'])
    expect(badSecret.code).toBe(2)
    expect(badSecret.stderr).toContain('--secret takes NAME=VALUE')
  })
})
