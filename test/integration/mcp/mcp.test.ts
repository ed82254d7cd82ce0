// `hookloop mcp` over a real data folder: seeded by a real engine (a delivery through a fault rule,
// requests signed by Stripe's own library with a wrong secret), then read by the SDK's Client over
// stdio from the built CLI. Each answer is checked against the host's own views; the tools
// that change anything refuse without --allow-changes, and with it a rule written through MCP is
// applied by `hookloop listen` running on the same folder. No answer ever holds a secret.
import { cpSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVirtualClock } from '../../../electron/engine/clock'
import { DATA_FILE_NAME } from '../../../electron/engine/store/data-file'
import { createDetailViews } from '../../../electron/engine/host/detail-views'
import { createTimelineViews } from '../../../electron/engine/host/timeline-views'
import { MCP_TOOLS } from '../../../electron/engine/mcp'
import { openDatabase } from '../../../electron/engine/store'
import { createEndpointStore } from '../../../electron/engine/store/endpoints'
import { createRuleStore } from '../../../electron/engine/store/rules'
import { openEngine } from '../../support/engine'
import { startListen } from '../../support/listen-cli'
import { REPO_ROOT, runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'
import { startMcp, type McpSession } from './support'
import { createSqliteEngine, secretBoxOf } from '../../../electron/engine/store'

const ENDPOINT_SECRET = 'whsec_Zm9yIHRoZSBvcmRlcnMgZW5kcG9pbnQgb25seQ'
const WRONG_SECRET = 'whsec_c29tZSBvdGhlciBlbmRwb2ludCdzIHNlY3JldA'
const QUERY_TOKEN = 'qtok_7f3a9c1e5b2d4680'
const stripe = new Stripe('sk_test_offline')

const temp = makeTempDir('hookloop-mcp-')
const dataDir = join(temp.dir, 'data')
/** Signature header values that arrived or were sent: none may appear in an answer. */
const signatures: string[] = []
let deliveryId = 0
let badRequestIds: number[] = []
const sessions: McpSession[] = []

function storeReads() {
  const db = openDatabase({ file: join(dataDir, DATA_FILE_NAME) })
  const details = createDetailViews(createSqliteEngine(db, { closeDatabase: false }), secretBoxOf(db), { explainRule: () => '', explainFault: () => '', endpointUrls: (slug) => ({ localUrl: `http://127.0.0.1:7780/h/${slug}`, publicUrl: null }) })
  return { db, timeline: createTimelineViews(createSqliteEngine(db, { closeDatabase: false })), details, endpoints: createEndpointStore(createSqliteEngine(db, { closeDatabase: false }), secretBoxOf(db)), rules: createRuleStore(createSqliteEngine(db, { closeDatabase: false })) }
}

async function session(args: string[] = []): Promise<McpSession> {
  const s = await startMcp(['--data', dataDir, ...args])
  sessions.push(s)
  return s
}

beforeAll(async () => {
  const clock = createVirtualClock({ start: Date.UTC(2026, 0, 1) })
  const engine = await openEngine(dataDir, clock)
  try {
    await engine.putEndpoint({ slug: 'orders', name: 'Orders', scheme: 'stripe', secrets: [ENDPOINT_SECRET], dedupe: 'stripe', rules: [{ preset: 'fail-first', n: 1 }] })
    const subscription = await engine.putSubscription({ name: 'orders', target: { endpoint: 'orders' }, scheme: 'stripe', secrets: [ENDPOINT_SECRET], policy: 'stripe' })
    const sent = await engine.sendEvent({ subscriptionIds: [subscription.id], eventType: 'invoice.paid', payload: { id: 'evt_mcp_paid', object: 'event', type: 'invoice.paid' } })
    deliveryId = sent.deliveryIds[0] as number
    await engine.sender.settled()
    // The same Stripe event twice, signed with a secret the endpoint does not have.
    const body = JSON.stringify({ id: 'evt_mcp_bad', object: 'event', type: 'charge.failed', data: { object: { id: 'ch_1' } } })
    for (let i = 0; i < 2; i++) {
      const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: WRONG_SECRET })
      signatures.push(header, ...header.split(',').map((part) => part.split('=')[1] ?? '').filter((v) => v.length > 20))
      const answer = await fetch(`${engine.receiver.endpointUrl('orders')}?token=${QUERY_TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body })
      await answer.arrayBuffer()
    }
    await engine.quiesce()
  } finally {
    await engine.close()
    clock.dispose()
  }
  const reads = storeReads()
  try {
    for (const attempt of (await reads.details.deliveryDetail(deliveryId))?.attempts ?? []) {
      const header = attempt.requestHeaders.find((h) => h.name.toLowerCase() === 'stripe-signature')?.value
      if (header) signatures.push(header, ...header.split(',').map((part) => part.split('=')[1] ?? '').filter((v) => v.length > 20))
    }
    badRequestIds = (await reads.timeline.page({ search: 'evt_mcp_bad' }, 0, 10)).rows.flatMap((r) => r.marks.map((m) => m.id))
  } finally {
    reads.db.close()
  }
}, 60_000)

afterAll(async () => {
  for (const s of sessions) await s.close()
  // Nothing a tool answered holds a secret, a signature or a secret query value.
  const all = sessions.flatMap((s) => s.texts).join('\n')
  for (const secret of [ENDPOINT_SECRET, WRONG_SECRET, QUERY_TOKEN, ...signatures]) expect(all).not.toContain(secret)
  temp.cleanup()
})

describe('hookloop mcp, read-only', () => {
  it('lists every tool of the catalog, with input schemas', async () => {
    const s = await session()
    const { tools } = await s.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort())
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_endpoints', 'list_rows', 'show_request', 'show_delivery', 'explain_signature', 'trigger_event', 'run_scenario', 'add_fault_rule', 'remove_fault_rule']))
    expect(tools.find((t) => t.name === 'show_request')?.inputSchema.properties).toHaveProperty('id')
    expect(s.stderr).toContain('read-only')
  })

  it('list_endpoints: the store’s endpoints with URLs and rules, secrets only as hints', async () => {
    const s = await session()
    const answer = await s.json<{ endpoints: { id: string; slug: string; url: string; scheme: string; secretHints: string[]; rules: { id: string; explain: string }[] }[] }>('list_endpoints')
    const reads = storeReads()
    const stored = (await reads.endpoints.list())
    const rules = (await reads.rules.list())
    reads.db.close()
    expect(answer.endpoints.map((e) => [e.id, e.slug, e.scheme])).toEqual(stored.map((e) => [e.id, e.slug, e.scheme]))
    expect(answer.endpoints[0]?.url).toBe('http://127.0.0.1:7780/h/orders')
    expect(answer.endpoints[0]?.secretHints).toEqual([`${ENDPOINT_SECRET.slice(0, 4)}…${ENDPOINT_SECRET.slice(-4)}`])
    expect(answer.endpoints[0]?.rules.map((r) => r.id)).toEqual(rules.map((r) => r.id))
  })

  it('list_rows: the timeline’s rows and ids, with the app’s filters', async () => {
    const s = await session()
    const reads = storeReads()
    const all = await reads.timeline.page({}, 0, 50)
    const received = await reads.timeline.page({ status: ['received'] }, 0, 50)
    reads.db.close()
    const answer = await s.json<{ total: number; rows: { kind: string; deliveryId?: number; requestIds?: number[]; eventId: string; duplicates: number }[] }>('list_rows')
    expect(answer.total).toBe(all.total)
    expect(answer.rows.map((r) => r.eventId)).toEqual(all.rows.map((r) => r.eventId))
    expect(answer.rows.find((r) => r.kind === 'delivery')?.deliveryId).toBe(deliveryId)

    const filtered = await s.json<typeof answer>('list_rows', { endpoint: 'orders', status: ['received'] })
    expect(filtered.total).toBe(received.total)
    expect(filtered.rows.map((r) => r.requestIds)).toEqual(received.rows.map((r) => r.marks.map((m) => m.id)))
    const searched = await s.json<typeof answer>('list_rows', { search: 'evt_mcp_bad' })
    expect(searched.rows).toHaveLength(1)
    expect(searched.rows[0]?.requestIds).toEqual(badRequestIds)
    expect(searched.rows[0]?.duplicates).toBe(1)

    const unknown = await s.call('list_rows', { endpoint: 'nope' })
    expect(unknown).toEqual({ isError: true, text: expect.stringContaining('no endpoint "nope"') })
    expect(unknown.text).toContain('endpoints: orders')
    const bad = await s.call('list_rows', { status: ['lost'] })
    expect(bad.isError).toBe(true)
    expect(bad.text).toMatch(/status/)
    expect(bad.text).not.toMatch(/\n\s+at /)
  })

  it('show_request: the inspector’s request, its verdict and duplicate number, credentials redacted', async () => {
    const s = await session()
    const second = badRequestIds[1] as number
    const reads = storeReads()
    const detail = await reads.details.requestDetail(second)
    reads.db.close()
    const answer = await s.json<{ id: number; query: string; headers: { name: string; value: string }[]; body: { text: string }; signature: { state: string; reason: string }; duplicateNumber: number; duplicateOf: number; response: { status: number } }>('show_request', { id: second })
    expect(answer.id).toBe(second)
    expect(answer.signature).toMatchObject({ state: 'invalid', reason: 'signature_mismatch' })
    expect(answer.duplicateNumber).toBe(detail?.duplicateNumber)
    expect(answer.duplicateOf).toBe(badRequestIds[0])
    expect(answer.response.status).toBe(detail?.response.status)
    expect(answer.query).toBe('token=[redacted]')
    expect(answer.headers.find((h) => h.name === 'stripe-signature')?.value).toBe('[redacted]')
    expect(JSON.parse(answer.body.text)).toMatchObject({ id: 'evt_mcp_bad' })

    expect(await s.call('show_request', { id: 99_999 })).toEqual({ isError: true, text: expect.stringContaining('request #99999 is not in') })
  })

  it('show_delivery: every attempt as the store holds it, signature headers redacted', async () => {
    const s = await session()
    const reads = storeReads()
    const detail = await reads.details.deliveryDetail(deliveryId)
    reads.db.close()
    const answer = await s.json<{ status: string; attempts: { statusCode: number; decision: string; requestId: number; requestHeaders: { name: string; value: string }[] }[] }>('show_delivery', { id: deliveryId })
    expect(answer.status).toBe('succeeded')
    expect(answer.attempts.map((a) => [a.statusCode, a.decision, a.requestId])).toEqual(detail?.attempts.map((a) => [a.statusCode, a.decision, a.requestId]))
    expect(answer.attempts.map((a) => a.statusCode)).toEqual([503, 200])
    for (const a of answer.attempts) expect(a.requestHeaders.find((h) => h.name.toLowerCase() === 'stripe-signature')?.value).toBe('[redacted]')
  })

  it('explain_signature: the stored verdict, computed vs received (shortened), scheme, tolerance and the fix', async () => {
    const s = await session()
    const bad = await s.json<{ endpoint: { scheme: string; toleranceSeconds: number; signatureHeader: string }; stored: { valid: boolean; reason: string; detail: string; computed: string; received: string }; recheckedWithCurrentSecrets: { reason: string }; fix: string }>('explain_signature', { requestId: badRequestIds[0] })
    expect(bad.endpoint).toMatchObject({ scheme: 'stripe', toleranceSeconds: 300, signatureHeader: 'stripe-signature' })
    expect(bad.stored).toMatchObject({ valid: false, reason: 'signature_mismatch' })
    expect(bad.stored.detail.length).toBeGreaterThan(10)
    expect(bad.stored.computed).toMatch(/^.{4}….{4}$/)
    expect(bad.stored.received).toMatch(/^.{4}….{4}$/)
    expect(bad.stored.computed).not.toBe(bad.stored.received)
    expect(bad.recheckedWithCurrentSecrets.reason).toBe('signature_mismatch')
    expect(bad.fix).toMatch(/raw request bytes/)

    const reads = storeReads()
    const ownRequest = (await reads.details.deliveryDetail(deliveryId))?.attempts[1]?.requestId
    reads.db.close()
    const good = await s.json<{ stored: { valid: boolean; reason: string }; fix: string }>('explain_signature', { requestId: ownRequest })
    expect(good.stored).toMatchObject({ valid: true, reason: 'ok' })
  })

  it('run_scenario: a scenario file’s report, as hookloop run gives it', async () => {
    const s = await session()
    const file = join(REPO_ROOT, 'examples/provider-a-fail-first-3.json')
    const report = await s.json<{ ok: boolean; expectations: { ok: boolean }[] }>('run_scenario', { path: file })
    const cli = await runCli(['run', file, '--json'])
    const expected = JSON.parse(cli.stdout) as typeof report
    expect(report.ok).toBe(true)
    expect(report.expectations.map((e) => e.ok)).toEqual(expected.expectations.map((e) => e.ok))
    const inline = await s.json<{ ok: boolean }>('run_scenario', { scenario: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> })
    expect(inline.ok).toBe(true)
    const invalid = await s.call('run_scenario', { scenario: { version: 1 } })
    expect(invalid).toEqual({ isError: true, text: expect.stringContaining('is not a valid scenario') })
    expect(await s.call('run_scenario', { path: join(temp.dir, 'missing.json') })).toEqual({ isError: true, text: expect.stringContaining('no such file') })
  }, 60_000)

  it('refuses every tool that changes something, saying how to allow it, and changes nothing', async () => {
    const s = await session()
    const before = storeReads()
    const rulesBefore = (await before.rules.list()).map((r) => r.id)
    before.db.close()
    const refusals = [
      await s.call('trigger_event', { provider: 'stripe', eventType: 'payment_intent.succeeded', endpoint: 'orders' }),
      await s.call('add_fault_rule', { endpoint: 'orders', preset: 'always-500' }),
      await s.call('remove_fault_rule', { ruleId: rulesBefore[0] }),
    ]
    for (const r of refusals) {
      expect(r.isError).toBe(true)
      expect(r.text).toContain('--allow-changes')
    }
    const after = storeReads()
    expect((await after.rules.list()).map((r) => r.id)).toEqual(rulesBefore)
    after.db.close()
  })
})

describe('hookloop mcp --allow-changes', () => {
  it('says so when an endpoint’s receiver is not running', async () => {
    const s = await session(['--allow-changes', '--receiver-url', 'http://127.0.0.1:1'])
    const answer = await s.call('trigger_event', { provider: 'stripe', eventType: 'payment_intent.succeeded', endpoint: 'orders' })
    expect(answer.isError).toBe(true)
    expect(answer.text).toContain('nothing answers at http://127.0.0.1:1/h/orders')
    expect(answer.text).toContain('hookloop listen')
    const unknownEvent = await s.call('trigger_event', { provider: 'stripe', eventType: 'no.such.event', url: 'http://127.0.0.1:1/x' })
    expect(unknownEvent).toEqual({ isError: true, text: expect.stringContaining('no catalog event "no.such.event"') })
  })

  it('removes and adds rules in the store; hookloop listen on the folder applies them to an event triggered through MCP', async () => {
    const listen = await startListen(['--data', dataDir])
    try {
      const s = await session(['--allow-changes', '--receiver-url', `http://127.0.0.1:${listen.port}`])
      const reloads = () => listen.stdout.split('endpoints and rules changed').length - 1
      const reads = storeReads()
      const failFirst = (await reads.rules.list())[0]?.id as string
      reads.db.close()

      const removed = await s.json<{ removed: { id: string } }>('remove_fault_rule', { ruleId: failFirst })
      expect(removed.removed.id).toBe(failFirst)
      await listen.waitForOutput(() => reloads() >= 1)
      const added = await s.json<{ rule: { id: string; explain: string } }>('add_fault_rule', { endpoint: 'orders', preset: 'always-410' })
      const stored = storeReads()
      expect((await stored.rules.list()).map((r) => [r.id, r.rule.steps?.[0]])).toEqual([[added.rule.id, { type: 'reply', status: 410 }]])
      stored.db.close()
      await listen.waitForOutput(() => reloads() >= 2)

      const triggered = await s.json<{ status: string; attempts: { statusCode: number; decision: string }[]; eventId: string }>('trigger_event', { provider: 'stripe', eventType: 'payment_intent.succeeded', endpoint: 'orders' })
      expect(triggered.attempts[0]?.statusCode).toBe(410)
      // listen captured it into the folder: the rule that answered is on the request, and its signature (the endpoint's secret) is valid.
      const rows = await s.json<{ rows: { requestIds: number[]; eventType: string }[] }>('list_rows', { endpoint: 'orders', eventType: 'payment_intent.succeeded' })
      const requestId = rows.rows[0]?.requestIds[0] as number
      const request = await s.json<{ fault: { ruleId: string }; signature: { state: string }; response: { status: number } }>('show_request', { id: requestId })
      expect(request.fault.ruleId).toBe(added.rule.id)
      expect(request.response.status).toBe(410)
      expect(request.signature.state).toBe('valid')

      expect(await s.call('add_fault_rule', { endpoint: 'orders', preset: 'fail-first', parameters: { n: 0 } })).toEqual({ isError: true, text: expect.stringContaining('fail-first') })
      expect(await s.call('remove_fault_rule', { ruleId: 'no-such-rule' })).toEqual({ isError: true, text: expect.stringContaining('no rule "no-such-rule"') })
    } finally {
      listen.kill()
      await listen.exited
    }
  }, 60_000)
})

describe('hookloop mcp on a folder it cannot open', () => {
  it('a folder whose secrets were sealed with another key: one line on stderr, exit 1, nothing on stdout', async () => {
    const copy = join(temp.dir, 'copied')
    cpSync(dataDir, copy, { recursive: true })
    rmSync(join(copy, `${DATA_FILE_NAME}.key`))
    const run = await runCli(['mcp', '--data', copy])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^hookloop mcp: cannot open .*sealed with another data key/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it('a folder with no store: a usage error naming it', async () => {
    const run = await runCli(['mcp', '--data', join(temp.dir, 'empty')])
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toBe(`hookloop: mcp: no Hookloop data in ${join(temp.dir, 'empty')} (--data; ${join(temp.dir, 'empty', DATA_FILE_NAME)} does not exist)`)
  })
})
