// `hookloop contract` over the other spec formats and bad input, as a real process: AsyncAPI 2.6
// and 3.0 and OpenAPI 3.0 callbacks checked against real captured requests; a spec that does not
// parse exits 2 naming its file, line and JSON pointer; a remote $ref (served by a real node:http
// server on loopback) is refused without --allow-remote-refs and fetched with it; bad usage exits 2.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const fixture = (name: string) => join(REPO_ROOT, 'test/fixtures/contracts', name)
const withoutNotice = (stderr: string) => stderr.replace(/^hookloop: tightened .*\n/m, '')

let temp: ReturnType<typeof makeTempDir>
let dir: string

beforeAll(async () => {
  temp = makeTempDir('hookloop-contract-specs-')
  dir = join(temp.dir, 'data')
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    await engine.putEndpoint({ slug: 'inbox' })
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      await (await fetch(engine.receiver.endpointUrl('inbox'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).arrayBuffer()
    }
    await post({ event: 'stock.changed', sku: 'SKU-1', quantity: 3 }) // #1 fits
    await post({ event: 'stock.changed', sku: 'SKU-2', quantity: 'many' }) // #2 a type that differs
    await post({ event: 'stock.depleted', sku: 'SKU-3', warehouse: 'north' }) // #3 an undocumented field
    await post({ type: 'payment.succeeded', payment_id: 'pay_1', amount: 100, note: null }) // #4 fits (nullable)
    await post({ type: 'payment.succeeded', amount: 0 }, { 'X-Event-Type': 'paymentSucceeded' }) // #5 required missing, minimum
    await engine.quiesce()
  } finally {
    await engine.close()
  }
}, 60_000)
afterAll(() => temp.cleanup())

describe('hookloop contract check on other formats', () => {
  it('AsyncAPI 3.0: messages matched by their name in the body, drift reported', async () => {
    const result = await runCli(['contract', 'check', fixture('inventory.asyncapi-3.0.yaml'), '--data', dir, '--json'])
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as { operations: { name: string; requestIds: number[]; findings: { kind: string; pointer: string; requestIds: number[] }[] }[]; unknownEventTypes: { eventType: string }[] }
    expect(report.operations.map((o) => [o.name, o.requestIds, o.findings.map((f) => [f.kind, f.pointer, f.requestIds])])).toEqual([
      ['onStockChanged', [1, 2], [['type', '/quantity', [2]]]],
      ['onStockDepleted', [3], [['undocumented', '/warehouse', [3]]]],
    ])
    // #5's header names it by the callback's name, which this spec does not know either.
    expect(report.unknownEventTypes.map((u) => u.eventType)).toEqual(['payment.succeeded', 'paymentSucceeded'])
  })

  it('AsyncAPI 2.6: the operation of the one message, the other event types not named', async () => {
    const result = await runCli(['contract', 'check', fixture('inventory.asyncapi-2.6.yaml'), '--data', dir])
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('stockChanged (operations › stockChanged (channel stock/changed)): 2 requests (#1, #2), 1 breaking difference')
    expect(result.stdout).toMatch(/type \(breaking\)\s+\/quantity\s+integer\s+string "many"/)
    expect(result.stdout).toContain('  stock.depleted: #3')
  })

  it('OpenAPI 3.0 callbacks: nullable read as the spec means it, a header naming the event type', async () => {
    const result = await runCli(['contract', 'check', fixture('payments-callbacks.openapi-3.0.yaml'), '--data', dir, '--json'])
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as { operations: { requestIds: number[]; findings: { kind: string; pointer: string; breaking: boolean }[] }[] }
    expect(report.operations[0]!.requestIds).toEqual([4, 5])
    expect(report.operations[0]!.findings.map((f) => [f.kind, f.pointer, f.breaking])).toEqual([
      ['required', '/payment_id', true],
      ['constraint', '/amount', false],
    ])
  })
})

describe('hookloop contract with a spec that does not parse', () => {
  it('exits 2 with the file and line of bad YAML', async () => {
    const result = await runCli(['contract', 'check', fixture('broken-yaml.openapi.yaml'), '--data', dir])
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^hookloop contract: .*broken-yaml\.openapi\.yaml:12: not valid YAML or JSON: /)
  })

  it('exits 2 with the file, line and JSON pointer of a $ref to nowhere', async () => {
    const result = await runCli(['contract', 'add', fixture('broken-ref.openapi.yaml'), '--data', join(temp.dir, 'never')])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`hookloop contract: ${fixture('broken-ref.openapi.yaml')}:12 at /webhooks/order.created/post/requestBody/content/application~1json/schema/$ref: Missing $ref pointer "#/components/schemas/Nowhere". Token "Nowhere" does not exist.\n`)
  })

  it('exits 2 on bad usage', async () => {
    expect((await runCli(['contract', 'verify', 'x'])).stderr).toBe('hookloop: contract: unknown action "verify" (actions: check, add)\n')
    const noSpec = await runCli(['contract', 'check'])
    expect(noSpec.code).toBe(2)
    expect(noSpec.stderr).toContain('give exactly one SPEC')
    const wrong = await runCli(['contract', 'add', fixture('shop-webhooks.openapi-3.1.yaml'), '--junit', 'x.xml'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('--junit belongs to `contract check`')
  })
})

describe('hookloop contract with a remote $ref', () => {
  let server: Server
  let spec: string
  let fetched = 0

  beforeAll(async () => {
    server = createServer((req, res) => {
      fetched++
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'object', required: ['event', 'sku'], properties: { event: { type: 'string' }, sku: { type: 'string' } } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stock.json`
    spec = join(temp.dir, 'remote.asyncapi.yaml')
    writeFileSync(spec, ['asyncapi: 3.0.0', 'info: {title: Remote, version: "1"}', 'channels:', '  stock:', '    messages:', '      stockChanged:', '        name: stock.changed', '        payload:', `          $ref: '${url}'`, 'operations:', '  onStock:', '    action: receive', "    channel: {$ref: '#/channels/stock'}", ''].join('\n'))
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('refuses it without --allow-remote-refs, naming the ref, and fetches it with the flag', async () => {
    const refused = await runCli(['contract', 'check', spec, '--data', dir])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`${spec}:9 at /channels/stock/messages/stockChanged/payload/$ref: the $ref "http://127.0.0.1:`)
    expect(refused.stderr).toContain('refused (fetch it with --allow-remote-refs)')
    expect(fetched).toBe(0)
    const allowed = await runCli(['contract', 'check', spec, '--data', dir, '--allow-remote-refs'])
    expect(withoutNotice(allowed.stderr)).toBe('')
    expect(fetched).toBe(1)
    expect(allowed.code).toBe(0)
    expect(allowed.stdout).toContain('onStock (operations › onStock): 2 requests (#1, #2), nothing breaking')
    // The fetched schema names no quantity: one finding for both requests.
    expect(allowed.stdout).toMatch(/undocumented\s+\/quantity\s+not in the spec\s+integer 3\s+not named in properties\s+#1, #2\n/)
  })
})
