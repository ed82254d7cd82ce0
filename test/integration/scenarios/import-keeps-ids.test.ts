// `hookloop import` keeps what it saw. A customer's HAR (from their own proxy: no Hookloop fields,
// signed by the official `standardwebhooks` library, one request under a wrong secret, one with a
// stale timestamp, one event delivered twice) and a case file become scenarios that keep the
// original ids (the run sends msg_cust_1 in webhook-id again), expect each signature verdict and
// the duplicate flag, and pass on a real engine and through the built `hookloop run`.
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScenarioInput } from '../../../shared/scenario'
import { fillPlaceholders } from '../../../shared/scenario'
import { validateScenario } from '../../../shared/scenario'
import { scenarioFromIncidentText } from '../../../electron/engine/scenarios/incident-file'
import { runScenario } from '../../../electron/engine/scenarios/run'
import { runCli } from '../../support/run-cli'
import { makeTempDir } from '../../support/temp-dir'

const T0 = Date.parse('2026-03-02T08:00:00Z')
const iso = (ms: number) => new Date(T0 + ms).toISOString()
/** The customer's signing secret, which they attach to the ticket. */
const CUSTOMER_SECRET = `whsec_${randomBytes(24).toString('base64')}`
const STRANGER_SECRET = `whsec_${randomBytes(24).toString('base64')}`
/** Any secret in the scheme's format runs the scenario: its sender and endpoint both use it. */
const RUN_SECRET = `whsec_${randomBytes(24).toString('base64')}`

interface Sent {
  at: number
  id: string
  body: unknown
  status: number
  /** Signed with this secret, at this time (ms after T0); by default the customer's, when it arrived. */
  secret?: string
  signedAt?: number
  requestId: string
}

/** One entry as a proxy's HAR export has it: the request as sent, the status answered, nothing else. */
function harEntry(s: Sent) {
  const text = JSON.stringify(s.body)
  const signedAt = new Date(T0 + (s.signedAt ?? s.at))
  const signature = new Webhook(s.secret ?? CUSTOMER_SECRET).sign(s.id, signedAt, text)
  return {
    startedDateTime: iso(s.at),
    time: 4,
    request: {
      method: 'POST',
      url: 'https://hooks.customer.example/h/orders',
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'content-type', value: 'application/json' },
        { name: 'user-agent', value: 'AcmeShop-Webhooks/2.1' },
        { name: 'webhook-id', value: s.id },
        { name: 'webhook-timestamp', value: String(Math.floor(signedAt.getTime() / 1000)) },
        { name: 'webhook-signature', value: signature },
        { name: 'x-request-id', value: s.requestId },
        { name: 'content-length', value: String(Buffer.byteLength(text)) },
      ],
      postData: { mimeType: 'application/json', text },
    },
    response: { status: s.status, headers: [] },
  }
}

const customerHar = () =>
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'mitmproxy', version: '10' },
      entries: [
        harEntry({ at: 0, id: 'msg_cust_1', body: { type: 'order.paid', data: { order: 41 } }, status: 500, requestId: 'r-a' }),
        harEntry({ at: 2_000, id: 'msg_cust_2', body: { type: 'order.refunded', data: { order: 7 } }, status: 200, secret: STRANGER_SECRET, requestId: 'r-b' }),
        harEntry({ at: 5_000, id: 'msg_cust_3', body: { type: 'order.shipped', data: { order: 9 } }, status: 200, signedAt: 5_000 - 900_000, requestId: 'r-c' }),
        // The provider retried msg_cust_1 after the 500: the same id, the same body, signed anew.
        harEntry({ at: 65_000, id: 'msg_cust_1', body: { type: 'order.paid', data: { order: 41 } }, status: 200, requestId: 'r-d' }),
      ],
    },
  })

async function runOnEngine(scenario: ScenarioInput) {
  const filled = fillPlaceholders(scenario, () => RUN_SECRET)
  if (!filled.ok) throw new Error('a placeholder has no value')
  const checked = validateScenario(filled.document)
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems))
  return runScenario(checked.scenario, { file: 'incident.json' })
}

let dir: string
let cleanup: () => void
beforeAll(() => {
  const temp = makeTempDir('hookloop-import-ids-')
  dir = temp.dir
  cleanup = temp.cleanup
})
afterAll(() => cleanup?.())

describe('a HAR import keeps the original ids and turns signature verdicts and duplicates into expectations', () => {
  it("a customer's HAR with the secret: ids kept, verdicts judged as they were then, the retry a duplicate; the run reproduces them", async () => {
    const made = scenarioFromIncidentText(customerHar(), { source: 'ticket-5120.har', secret: CUSTOMER_SECRET })
    const { scenario, notes } = made
    // The secret the person gave judged the file; it never enters the scenario.
    expect(made.text).not.toContain(CUSTOMER_SECRET)
    expect(made.secrets).toEqual(['HOOKLOOP_SECRET_ORDERS'])

    // Original ids are the events' ids; the retry is a resend of msg_cust_1.
    expect(scenario.events?.map((e) => [e.id, e.event_id, e.faults ?? []])).toEqual([
      ['r1', 'msg_cust_1', []],
      ['r2', 'msg_cust_2', [{ type: 'wrong-secret' }]],
      ['r3', 'msg_cust_3', [{ type: 'stale-timestamp' }]],
    ])
    expect(scenario.actions).toEqual([{ type: 'resend', at_ms: 65_000, event: 'r1', subscription: 'replay-orders' }])
    // The provider is recognised, and the replay sends the headers every request had.
    const sub = scenario.subscriptions?.[0] as Record<string, unknown>
    expect(sub).toMatchObject({ scheme: 'standard-webhooks', event_id_header: 'webhook-id', headers: { 'content-type': 'application/json', 'user-agent': 'AcmeShop-Webhooks/2.1' } })
    expect(scenario.description).toContain('look like Standard Webhooks deliveries (webhook-signature, webhook-id)')
    expect(scenario.endpoints?.[0]).toMatchObject({ slug: 'orders', scheme: 'standard-webhooks', dedupe: { type: 'header', name: 'webhook-id' } })

    // Verdicts and duplicates as expectations, per delivery and per arrival in order.
    expect(scenario.expect?.deliveries?.map((d) => [d.event, d.signatures, d.duplicates, d.outcomes])).toEqual([
      ['r1', 'ok', [1], ['http_500']],
      ['r2', 'signature_mismatch', [1], ['http_200']],
      ['r3', 'timestamp_too_old', [1], ['http_200']],
      ['r1', 'ok', [2], ['http_200']],
    ])
    expect(scenario.expect?.endpoints?.[0]?.arrivals).toEqual([
      { run_ms: 0, signature: 'ok', duplicate: 1, headers: { 'webhook-id': 'msg_cust_1' } },
      { run_ms: 2_000, signature: 'signature_mismatch', duplicate: 1, headers: { 'webhook-id': 'msg_cust_2' } },
      { run_ms: 5_000, signature: 'timestamp_too_old', duplicate: 1, headers: { 'webhook-id': 'msg_cust_3' } },
      { run_ms: 65_000, signature: 'ok', duplicate: 2 },
    ])
    // What could not be kept is said, and travels with the file.
    expect(notes).toContain('endpoint orders: header x-request-id changed between requests or was not on every one, so it is not sent again (the scenario sends the headers every request had, the same)')
    expect(scenario.description).toContain('x-request-id changed between requests')

    const report = await runOnEngine(scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
    // The run's events carry the customer's ids.
    expect(report.deliveries.map((d) => d.event_id).sort()).toEqual(['msg_cust_1', 'msg_cust_1', 'msg_cust_2', 'msg_cust_3'])
  })

  it('without the secret the verdicts are not guessed: a note says how to get them; a request without an id gets a fresh one and a note', async () => {
    const har = JSON.parse(customerHar()) as { log: { entries: { request: { headers: { name: string }[] } }[] } }
    const last = har.log.entries[3]!.request
    last.headers = last.headers.filter((h) => h.name !== 'webhook-id')
    const { scenario, notes } = scenarioFromIncidentText(JSON.stringify(har), { source: 'ticket-5120.har' })
    expect(notes).toContain('signatures not checked (4 requests): the file holds no secret and no verdicts; pass --secret with the secret they were signed with')
    expect(notes).toContain('log.entries[3]: no event id found (no header webhook-id) — a fresh id is used')
    expect(scenario.expect?.deliveries?.every((d) => d.signatures === undefined)).toBe(true)
    expect(scenario.events?.map((e) => e.event_id?.startsWith('msg_cust_'))).toEqual([true, true, true, false])
    expect(scenario.events?.map((e) => e.faults)).toEqual([undefined, undefined, undefined, undefined])
    const report = await runOnEngine(scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
  })

  it('a case file: its verdicts and duplicate numbers become expectations, its ids are kept', async () => {
    const request = (id: number, at: number, eventId: string, body: unknown, verify: string, duplicate: number) => ({
      id,
      endpoint: 'orders',
      received_at: iso(at),
      method: 'POST',
      path: '/h/orders',
      query: '',
      headers: [['webhook-id', eventId], ['webhook-signature', '[redacted]']],
      body: { text: JSON.stringify(body) },
      verify: { valid: verify === 'ok', reason: verify },
      duplicate_number: duplicate,
      outcome: 'http_200',
      response: { status: 200, headers: [], body: null, ms: 2 },
    })
    const text = JSON.stringify({
      hookloop_case: 1,
      exported_at: iso(90_000),
      redacted: true,
      setup: { endpoints: [{ slug: 'orders', name: 'orders', scheme: 'standard-webhooks', secrets: ['[redacted]'], dedupe: 'standard-webhooks', rules: [] }], subscriptions: [] },
      requests: [
        request(1, 0, 'msg_case_1', { type: 'order.paid' }, 'ok', 1),
        request(2, 1_000, 'msg_case_2', { type: 'order.voided' }, 'signature_mismatch', 1),
        request(3, 30_000, 'msg_case_1', { type: 'order.paid' }, 'ok', 2),
      ],
      deliveries: [],
    })
    const { scenario } = scenarioFromIncidentText(text, { source: 'ticket.case.json' })
    expect(scenario.events?.map((e) => e.event_id)).toEqual(['msg_case_1', 'msg_case_2'])
    expect(scenario.expect?.deliveries?.map((d) => [d.event, d.resend, d.signatures, d.duplicates])).toEqual([
      ['r1', undefined, 'ok', [1]],
      ['r2', undefined, 'signature_mismatch', [1]],
      ['r1', 1, 'ok', [2]],
    ])
    const report = await runOnEngine(scenario)
    expect(report.expectations.filter((e) => !e.ok)).toEqual([])
    expect(report.ok).toBe(true)
  })

  it('`hookloop import --secret` prints each note, and `hookloop run` on the scenario passes', async () => {
    const file = join(dir, 'ticket-5120.har')
    mkdirSync(dir, { recursive: true })
    writeFileSync(file, customerHar())
    const out = join(dir, 'ticket-5120.json')
    const made = await runCli(['import', file, '--as-scenario', out, '--secret', CUSTOMER_SECRET])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stderr).toContain('hookloop: note: endpoint orders: header x-request-id changed between requests')
    expect(made.stdout).toContain('--secret HOOKLOOP_SECRET_ORDERS=')
    const text = readFileSync(out, 'utf8')
    expect(text).not.toContain(CUSTOMER_SECRET)
    expect((JSON.parse(text) as ScenarioInput).events?.[0]?.event_id).toBe('msg_cust_1')

    const passed = await runCli(['run', out, '--data', join(dir, 'run-1'), '--json', '--secret', `HOOKLOOP_SECRET_ORDERS=${RUN_SECRET}`])
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    const report = JSON.parse(passed.stdout) as { ok: boolean; deliveries: { event_id: string }[] }
    expect(report.ok).toBe(true)
    expect(report.deliveries.map((d) => d.event_id)).toContain('msg_cust_2')

    const noNotes = await runCli(['import', file, '--as-scenario', join(dir, 'x.json'), '--secret', ''])
    expect(noNotes.code).toBe(2)
    expect(noNotes.stderr).toContain('--secret is empty')
  })
})
