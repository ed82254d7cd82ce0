// A redacted case file keeps the symptom support is reproducing: a loop subscription that signs
// with a secret its endpoint does not verify with (a rotation done on one side only) fails its
// signature check in the scenario made from the file too, though the file holds neither secret.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CaseFile } from '../../../shared/contract'
import type { ScenarioInput, ScenarioReport } from '../../../shared/scenario'
import { runCli } from '../../support/run-cli'
import { newEngine } from '../exports/support'

const ENDPOINT_SECRET = `whsec_${randomBytes(24).toString('base64')}`
const ROTATED_SECRET = `whsec_${randomBytes(24).toString('base64')}`

let capture: Awaited<ReturnType<typeof newEngine>>
let caseFile: string
beforeAll(async () => {
  capture = await newEngine()
  const { engine } = capture
  engine.putEndpoint({ slug: 'shop', scheme: 'standard-webhooks', secrets: [ENDPOINT_SECRET], dedupe: 'standard-webhooks' })
  const sub = engine.putSubscription({ name: 'orders', target: { endpoint: 'shop' }, scheme: 'standard-webhooks', secrets: [ROTATED_SECRET], policy: 'csku' })
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
