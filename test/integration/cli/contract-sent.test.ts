// `hookloop contract check` on what Hookloop's own sender published: a real engine on a data folder
// `contract add` made publishes events (one as the spec's example, one missing a required field,
// one with a value outside an enum, one of a type the spec does not name), and the built CLI reports
// their drift in a section "sent by Hookloop", as text, JSON and JUnit, exiting 1 on what breaks
// there; a folder whose sender sent only what the spec says exits 0.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../electron/engine/engine'
import { junitSchemaErrors } from '../../support/junit-xsd'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const SHOP = join(REPO_ROOT, 'test/fixtures/contracts/shop-webhooks.openapi-3.1.yaml')
const ORDER = { type: 'order.created', id: 'evt_1001', data: { order_id: 'ord_1', status: 'pending', total: 42.5, currency: 'EUR', customer: { email: 'ada@example.com' } } }

let temp: ReturnType<typeof makeTempDir>
const sent: Record<string, string> = {}

/** A data folder with the spec's endpoints, and these events published by its sender (to a port nobody answers). */
async function folderWith(name: string, events: { key: string; eventType: string; payload: unknown }[]): Promise<string> {
  const dir = join(temp.dir, name)
  expect((await runCli(['contract', 'add', SHOP, '--data', dir])).code).toBe(0)
  const engine = await createEngine({ dataDir: dir, receiver: { host: '127.0.0.1', port: 0 } })
  try {
    const subscription = await engine.putSubscription({ name: 'shop', target: { url: 'http://127.0.0.1:9/hook' }, scheme: 'standard-webhooks', policy: 'pandoktorek', envelope: 'payload' })
    for (const e of events) sent[e.key] = (await engine.sendEvent({ eventType: e.eventType, payload: e.payload, subscriptionIds: [subscription.id] })).eventId
  } finally {
    await engine.close()
  }
  return dir
}

let drifted: string
let clean: string

beforeAll(async () => {
  temp = makeTempDir('hookloop-contract-sent-')
  drifted = await folderWith('drifted', [
    { key: 'good', eventType: 'order.created', payload: ORDER },
    { key: 'missing', eventType: 'order.created', payload: { ...ORDER, data: { ...ORDER.data, customer: {} } } },
    { key: 'enum', eventType: 'order.cancelled', payload: { type: 'order.cancelled', id: 'evt_2', data: { order_id: 'ord_1', reason: 'weather' } } },
    { key: 'unknown', eventType: 'refund.created', payload: { type: 'refund.created', id: 'evt_3' } },
  ])
  clean = await folderWith('clean', [{ key: 'fine', eventType: 'order.created', payload: ORDER }])
}, 60_000)
afterAll(() => temp.cleanup())

interface SentJson {
  sentByHookloop: {
    events: { read: number; matched: number }
    operations: { name: string; eventIds: string[]; breaking: number; findings: { kind: string; pointer: string; breaking: boolean; eventIds: string[] }[] }[]
    unknownEventTypes: { eventType: string; eventIds: string[] }[]
    breaking: number
  }
  breaking: number
}

describe('hookloop contract check: what Hookloop sent', () => {
  it('reports the sender\'s drift in its own section and exits 1 on a breaking difference there', async () => {
    const result = await runCli(['contract', 'check', SHOP, '--data', drifted])
    expect(result.code).toBe(1)
    const out = result.stdout
    expect(out).toContain("Sent by Hookloop: 4 events read: 3 matched to the spec's operations, 1 of event types it does not name.")
    expect(out).toContain(`order.created (webhooks › order.created › post): 2 events (${sent.good}, ${sent.missing}), 1 breaking difference`)
    expect(out).toMatch(new RegExp(`required \\(breaking\\) +/data/customer/email +required +missing .*${sent.missing}`))
    expect(out).toMatch(new RegExp(`enum \\(breaking\\) +/data/reason .*"weather" .*${sent.enum}`))
    expect(out).toContain(`not in the spec: refund.created: ${sent.unknown}`)
    // No traffic was captured: the traffic's part says so; the verdict counts the sender's part.
    expect(out).toContain('0 requests read')
    expect(out.trimEnd().split('\n').at(-1)).toBe('BREAKING: 0 breaking differences, 0 undocumented fields, 2 event types the traffic never showed, 0 event types the spec does not name, 2 breaking differences in what Hookloop sent.')
  })

  it('gives the section as JSON, by event id', async () => {
    const result = await runCli(['contract', 'check', SHOP, '--data', drifted, '--json'])
    expect(result.code).toBe(1)
    const report = JSON.parse(result.stdout) as SentJson
    expect(report.breaking).toBe(0)
    const s = report.sentByHookloop
    expect([s.events, s.breaking]).toEqual([{ read: 4, matched: 3 }, 2])
    expect(s.operations.map((o) => [o.name, o.eventIds, o.breaking])).toEqual([
      ['order.created', [sent.good, sent.missing], 1],
      ['order.cancelled', [sent.enum], 1],
    ])
    expect(s.operations[0]!.findings.map((f) => [f.kind, f.pointer, f.breaking, f.eventIds])).toEqual([['required', '/data/customer/email', true, [sent.missing]]])
    expect(s.unknownEventTypes).toEqual([{ eventType: 'refund.created', eventIds: [sent.unknown] }])
  })

  it('writes a JUnit testcase per operation the sender sent, failed on what breaks', async () => {
    const file = join(temp.dir, 'junit', 'contract.xml')
    expect((await runCli(['contract', 'check', SHOP, '--data', drifted, '--junit', file])).code).toBe(1)
    const xml = readFileSync(file, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toContain('tests="4" failures="2" errors="0" skipped="2"')
    expect(xml).toMatch(/<testcase name="sent by Hookloop: order.created"[^>]*>\s*<failure type="breaking" message="1 breaking difference">event [0-9a-f-]+ \/data\/customer\/email: required/)
    expect(xml).toContain('sent by Hookloop, an event type the spec does not name: refund.created')
  })

  it('exits 0 when the sender sent only what the spec says', async () => {
    const result = await runCli(['contract', 'check', SHOP, '--data', clean])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`order.created (webhooks › order.created › post): 1 event (${sent.fine}), nothing breaking`)
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^OK: .*, 0 breaking differences in what Hookloop sent\.$/)
  })
})
