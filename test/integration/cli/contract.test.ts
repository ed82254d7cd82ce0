// `hookloop contract` as a real process: `contract add` makes the spec's endpoints in a data
// folder (twice: the same endpoints), a real engine captures real HTTP requests at them (some
// matching, one missing a required field, one with a field the spec does not name, one with an
// enum value outside the spec, one of an event type the spec does not name), and `contract check`
// reports the drift as text, JSON, JUnit XML and a GitHub job summary, exiting 1 on what breaks.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { copyStore, openStore, parseStoreLocation } from '../../../electron/engine/store'
import { junitSchemaErrors } from '../../support/junit-xsd'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { usePostgres } from '../../support/use-postgres'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
const postgres = usePostgres()

let temp: ReturnType<typeof makeTempDir>
let dir: string
const ids: Record<string, number> = {}

const order = (extra: Record<string, unknown> = {}, customer: Record<string, unknown> = { email: 'ada@example.com' }) => ({
  type: 'order.created',
  id: 'evt_1',
  data: { order_id: 'ord_1', status: 'paid', total: 10.5, currency: 'EUR', customer, ...extra },
})

interface Endpoints {
  endpoints: { slug: string; name: string; scheme: string | null; action: string }[]
}

beforeAll(async () => {
  temp = makeTempDir('hookloop-contract-')
  dir = join(temp.dir, 'data')
  const added = await runCli(['contract', 'add', SHOP, '--data', dir, '--json'])
  expect(added.stderr.replace(/^hookloop: tightened .*\n/m, '')).toBe('')
  expect(added.code).toBe(0)
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'plain' })
    const post = async (name: string, slug: string, body: unknown) => {
      const response = await fetch(engine.receiver.endpointUrl(slug), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      await response.arrayBuffer()
      ids[name] = Math.max(0, ...Object.values(ids)) + 1
    }
    await post('good', 'order-created', order())
    await post('missing', 'order-created', order({}, {}))
    await post('extra', 'order-created', order({ coupon: 'SPRING' }))
    await post('enum', 'order-cancelled', { type: 'order.cancelled', id: 'evt_2', data: { order_id: 'ord_1', reason: 'weather' } })
    await post('unknown', 'plain', { type: 'refund.created', id: 'evt_3' })
    await post('typed', 'plain', order({ total: '10.50' }))
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}, 60_000)
afterAll(() => temp.cleanup())

describe('hookloop contract add', () => {
  it('makes an endpoint per operation, with the scheme the spec declares, and a second run makes nothing twice', async () => {
    const again = await runCli(['contract', 'add', SHOP, '--data', dir, '--json'])
    expect(again.code).toBe(0)
    const made = JSON.parse(again.stdout) as Endpoints
    expect(made.endpoints.map((e) => [e.slug, e.scheme, e.action])).toEqual([
      ['order-created', 'standard-webhooks', 'unchanged'],
      ['order-cancelled', 'standard-webhooks', 'unchanged'],
    ])
    const listed = await runCli(['requests', '--data', dir, '--endpoint', 'order-created', '--json'])
    expect(listed.code).toBe(0)
    // The endpoints are the ones the traffic reached: three requests at order-created.
    expect((JSON.parse(listed.stdout) as { requests: unknown[] }).requests).toHaveLength(3)
  })

  it("writes an example body per event type: the spec's example, else one made from the schema", async () => {
    const examples = join(temp.dir, 'examples')
    const result = await runCli(['contract', 'add', SHOP, '--data', dir, '--examples', examples])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('unchanged /h/order-created')
    expect(result.stdout).toContain("order.created (the spec's example)")
    expect(JSON.parse(readFileSync(join(examples, 'order.created.json'), 'utf8'))).toMatchObject({ type: 'order.created', data: { customer: { email: 'ada@example.com' } } })
    expect(JSON.parse(readFileSync(join(examples, 'order.cancelled.json'), 'utf8'))).toEqual({ type: 'order.cancelled', id: 'string', data: { order_id: 'string', reason: 'customer' } })
  })
})

describe('hookloop contract check', () => {
  it('prints a table per operation and exits 1 on a breaking difference', async () => {
    const result = await runCli(['contract', 'check', SHOP, '--data', dir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    const lines = result.stdout.split('\n')
    const row = (pointer: string) => lines.find((l) => l.includes(` ${pointer} `)) ?? ''
    expect(row('/data/customer/email')).toMatch(/required \(breaking\)\s+\/data\/customer\/email\s+required\s+missing\s+The customer's email address\s+#2$/)
    expect(row('/data/reason')).toMatch(/enum \(breaking\)\s+\/data\/reason\s+one of customer, fraud, stock\s+"weather"\s+Why the order was cancelled\s+#4$/)
    expect(row('/data/total')).toMatch(/type \(breaking\)\s+\/data\/total\s+number\s+string "10.50"\s+The order's total in its currency\s+#6$/)
    expect(row('/data/coupon')).toMatch(/undocumented\s+\/data\/coupon\s+not in the spec\s+string "SPRING"\s+not named in properties\s+#3$/)
    expect(result.stdout).toContain('order.created (webhooks › order.created › post): 4 requests (#1, #2, #3, #6), 2 breaking differences')
    expect(result.stdout).toContain('Event types the spec does not name:\n  refund.created: #5')
    expect(result.stdout).toContain('BREAKING: 3 breaking differences, 1 undocumented field, 0 event types the traffic never showed, 1 event type the spec does not name.')
  })

  it('gives the same report as JSON', async () => {
    const result = await runCli(['contract', 'check', SHOP, '--data', dir, '--json'])
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as { breaking: number; operations: { name: string; requestIds: number[]; findings: { kind: string; pointer: string; breaking: boolean; requestIds: number[] }[] }[]; unknownEventTypes: unknown[] }
    expect(report.breaking).toBe(3)
    const created = report.operations.find((o) => o.name === 'order.created')!
    expect(created.requestIds).toEqual([ids.good, ids.missing, ids.extra, ids.typed])
    expect(created.findings.map((f) => [f.kind, f.pointer, f.breaking, f.requestIds])).toEqual([
      ['required', '/data/customer/email', true, [ids.missing]],
      ['type', '/data/total', true, [ids.typed]],
      ['undocumented', '/data/coupon', false, [ids.extra]],
    ])
    expect(report.unknownEventTypes).toEqual([{ eventType: 'refund.created', requestIds: [ids.unknown] }])
  })

  it('writes JUnit XML, one testcase per operation, and appends a markdown job summary', async () => {
    const junit = join(temp.dir, 'reports', 'contract.xml')
    const summary = join(temp.dir, 'summary.md')
    writeFileSync(summary, '# earlier step\n')
    const result = await runCli(['contract', 'check', SHOP, '--data', dir, '--junit', junit], { env: { ...process.env, GITHUB_STEP_SUMMARY: summary } })
    expect(result.code).toBe(1)
    const xml = readFileSync(junit, 'utf8')
    expect(xml.match(/<testcase /g)).toHaveLength(2)
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toContain('<testcase name="order.created" classname="Shop webhooks 1.2.0" time="0.000">')
    expect(xml).toContain(`<failure type="breaking" message="2 breaking differences">request #${ids.missing} /data/customer/email: required: expected required, came missing`)
    expect(xml).toContain(`<failure type="breaking" message="1 breaking difference">request #${ids.enum} /data/reason: enum`)
    expect(xml).toContain(`order.created: request #${ids.extra} /data/coupon: undocumented: expected not in the spec`)
    const markdown = readFileSync(summary, 'utf8')
    expect(markdown.startsWith('# earlier step\n### Contract check: Shop webhooks 1.2.0 (OpenAPI 3.1.0)')).toBe(true)
    expect(markdown).toContain('| **required (breaking)** | `/data/customer/email` | required | `missing` | The customer\'s email address | #2 |')
  })

  it('exits 0 when only undocumented fields differ, and says which event types the traffic never showed', async () => {
    const junit = join(temp.dir, 'no-traffic.xml')
    const result = await runCli(['contract', 'check', SHOP, '--data', dir, '--endpoint', 'order-created', '--since', '1h', '--junit', junit])
    expect(result.stdout).toContain('order.cancelled (webhooks › order.cancelled › post): no traffic')
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toContain('<skipped message="no traffic: order.cancelled never seen"/>')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(result.stdout).toContain('1 event type the traffic never showed')
    // order-created still holds the missing field and the string total.
    expect(result.code).toBe(1)
    // The newest request at order-created is the one with a field the spec does not name.
    const extraOnly = await runCli(['contract', 'check', SHOP, '--data', dir, '--endpoint', 'order-created', '--limit', '1'])
    expect(extraOnly.stdout).toContain(`order.created (webhooks › order.created › post): 1 request (#${ids.extra}), nothing breaking`)
    expect(extraOnly.stdout).toContain('OK: 0 breaking differences, 1 undocumented field')
    expect(extraOnly.code).toBe(0)
  })
})

describe('hookloop contract check --store', () => {
  it("reads a team's PostgreSQL as it reads the data folder it was copied from, with no data key", async () => {
    const team = await postgres.freshDatabase()
    const quiet = { notice: () => undefined }
    const from = await openStore(parseStoreLocation(dir), quiet)
    const to = await openStore(parseStoreLocation(team), { ...quiet, postgresKey: { file: join(temp.dir, 'team.key') } })
    try {
      await copyStore(from, to)
    } finally {
      await from.engine.close()
      await to.engine.close()
    }
    // A team member who checks traffic holds no data key: requests carry no secret.
    const env = { ...process.env, HOOKLOOP_STORE: '', HOOKLOOP_SECRET_KEY: '', HOOKLOOP_SECRET_KEY_FILE: '' }
    for (const options of [['--json'], ['--endpoint', 'order-created', '--limit', '2']]) {
      const folder = await runCli(['contract', 'check', SHOP, '--data', dir, ...options], { env })
      const store = await runCli(['contract', 'check', SHOP, '--store', team, ...options], { env })
      expect(store.stderr).toBe('')
      expect(store.code).toBe(folder.code)
      expect(store.stdout).toBe(folder.stdout)
    }
    const both = await runCli(['contract', 'check', SHOP, '--data', dir, '--store', team], { env })
    expect(both.code).toBe(2)
    expect(both.stderr).toBe('hookloop: contract: give --store or --data, not both (--store takes a data folder too)\n')
    const onAdd = await runCli(['contract', 'add', SHOP, '--store', team], { env })
    expect(onAdd.code).toBe(2)
    expect(onAdd.stderr).toContain('--store belongs to `contract check`')
  }, 120_000)
})
