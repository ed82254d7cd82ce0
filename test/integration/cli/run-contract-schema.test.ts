// A scenario whose endpoint names a contract (`contract: {spec, operation}`, the spec beside the
// scenario file): `hookloop run` holds each arrival against the spec's operation, and the run's
// `expect.schema` passes or fails on it, on the built CLI, whatever folder the run starts in.
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
let temp: ReturnType<typeof makeTempDir>

beforeAll(() => {
  temp = makeTempDir('hookloop-run-contract-')
  copyFileSync(SHOP, join(temp.dir, 'shop.yaml'))
})
afterAll(() => temp.cleanup())

function scenario(name: string, payload: unknown): string {
  const file = join(temp.dir, `${name}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name,
      clock: { mode: 'virtual' },
      endpoints: [{ slug: 'orders', contract: { spec: 'shop.yaml', operation: 'order.created' } }],
      subscriptions: [{ id: 'shop', endpoint: 'orders', envelope: 'payload', policy: 'github' }],
      events: [{ type: 'order.created', payload }],
      expect: { schema: 'valid' },
    }),
  )
  return file
}

const order = (total: unknown) => ({ type: 'order.created', id: 'evt_1', data: { order_id: 'ord_1', status: 'pending', total, currency: 'EUR', customer: { email: 'ada@example.com' } } })

describe('hookloop run with an endpoint given a contract', () => {
  it('passes when what arrived fits the spec’s operation, read from beside the scenario file', async () => {
    const result = await runCli(['run', scenario('fits', order(42.5)), '--json'], { cwd: REPO_ROOT })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const report = JSON.parse(result.stdout) as { ok: boolean; arrivals: { schema: { verdict: string } | null }[] }
    expect(report.ok).toBe(true)
    expect(report.arrivals.map((a) => a.schema?.verdict)).toEqual(['valid'])
  })

  it('fails when it does not, naming the place', async () => {
    const result = await runCli(['run', scenario('drifts', order('42.50'))], { cwd: REPO_ROOT })
    expect(result.code).toBe(1)
    expect(result.stdout + result.stderr).toMatch(/invalid at \/data\/total \(expected number, came string "42\.50"\)/)
  })
})
