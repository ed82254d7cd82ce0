// A redacted case file keeps the symptom support is reproducing: a loop subscription that signs
// with a secret its endpoint does not verify with (a rotation done on one side only), and a run's
// deliveries whose signatures failed on purpose, fail their signature checks in the scenario made
// from the file too, though the file holds no secret.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CaseFile } from '../../../shared/contract'
import type { ScenarioInput, ScenarioReport } from '../../../shared/scenario'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { newEngine } from '../exports/support'

const ENDPOINT_SECRET = `whsec_${randomBytes(24).toString('base64')}`
const ROTATED_SECRET = `whsec_${randomBytes(24).toString('base64')}`

let capture: Awaited<ReturnType<typeof newEngine>>
let caseFile: string
beforeAll(async () => {
  capture = await newEngine()
  const { engine } = capture
  await engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [ENDPOINT_SECRET], dedupe: 'standard-webhooks' })
  const sub = await engine.putSubscription({ name: 'orders', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [ROTATED_SECRET], policy: 'csku' })
  const sent = await engine.sendEvent({ subscriptionIds: [sub.id], eventType: 'order.paid', payload: { id: 7 } })
  for (let i = 0; i < 500 && !engine.isDeliverySettled(sent.deliveryIds[0]!); i++) await new Promise((r) => setTimeout(r, 10))
  await engine.quiesce()
  expect(engine.receiver.requests.list({ limit: 10 }).map((r) => r.verify?.reason)).toEqual(['signature_mismatch'])
  caseFile = join(capture.dir, 'ticket.case.json')
  const exported = await runCli(['export', '--data', capture.dir, '--format', 'case', '--all', '--out', caseFile])
  expect(exported.code, exported.stderr).toBe(0)
})
afterAll(async () => {
  await capture?.close()
})

describe('a redacted case file of a signature mismatch', () => {
  it('holds neither secret, and says the subscription signed with a secret its endpoint does not verify with', () => {
    const text = readFileSync(caseFile, 'utf8')
    expect(text).not.toContain(ENDPOINT_SECRET)
    expect(text).not.toContain(ROTATED_SECRET)
    const file = JSON.parse(text) as CaseFile
    expect(file.setup.subscriptions[0]).toMatchObject({ secrets: ['[redacted: not a secret of endpoint shop]'] })
  })

  it('becomes a scenario whose run fails the signature as it failed then, and says why', async () => {
    const out = join(capture.dir, 'ticket.scenario.json')
    const made = await runCli(['import', caseFile, '--as-scenario', out])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stderr).toContain('subscription orders signed with a secret endpoint shop does not verify with')
    const scenario = JSON.parse(readFileSync(out, 'utf8')) as ScenarioInput
    // The scenario expects the mismatch, so it fails the day the secrets agree.
    expect(scenario.expect?.deliveries?.[0]).toMatchObject({ signatures: 'signature_mismatch' })
    expect(JSON.stringify(scenario)).not.toContain(ROTATED_SECRET)
    const run = await runCli(['run', out, '--json', '--data', join(capture.dir, 'run'), '--secret', `HOOKLOOP_SECRET_SHOP=${ENDPOINT_SECRET}`])
    const report = JSON.parse(run.stdout) as ScenarioReport
    expect(report.deliveries.flatMap((d) => d.attempts.map((a) => a.signature))).toEqual(['signature_mismatch'])
    expect(run.code, run.stdout).toBe(0)
  })
})

describe("a redacted case file of a run's signature failures", () => {
  it('becomes a scenario whose run gets the same verdicts: a mismatch and a stale timestamp stay what they were', async () => {
    const dir = join(capture.dir, 'faults')
    const example = join(REPO_ROOT, 'examples/duplicate-bad-signature.json')
    const secret = (JSON.parse(readFileSync(example, 'utf8')) as { endpoints: { secrets: string[] }[] }).endpoints[0]!.secrets[0]!
    expect((await runCli(['run', example, '--data', join(dir, 'run')])).code).toBe(0)
    const file = join(dir, 'faults.case.json')
    expect((await runCli(['export', '--data', join(dir, 'run'), '--format', 'case', '--all', '--out', file])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).not.toContain(secret)
    const out = join(dir, 'faults.scenario.json')
    const made = await runCli(['import', file, '--as-scenario', out])
    expect(made.code, made.stderr).toBe(0)
    const scenario = JSON.parse(readFileSync(out, 'utf8')) as ScenarioInput
    expect(scenario.expect?.deliveries?.map((d) => d.signatures)).toEqual(['ok', 'ok', 'signature_mismatch', 'timestamp_too_old'])
    const run = await runCli(['run', out, '--json', '--data', join(dir, 'again'), '--secret', `HOOKLOOP_SECRET_CONSUMER=${secret}`])
    expect(run.code, run.stdout + run.stderr).toBe(0)
    const report = JSON.parse(run.stdout) as ScenarioReport
    expect(report.deliveries.map((d) => d.attempts[0]!.signature).sort()).toEqual(['ok', 'ok', 'signature_mismatch', 'timestamp_too_old'])
  })
})
