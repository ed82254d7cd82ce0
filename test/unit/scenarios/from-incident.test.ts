// Incident → scenario, from hand-made HAR and case files: secrets become placeholders, requests
// keep their order and timing (a repeated event id is a resend), verdicts become the faults that
// make them again, answers become rules when the file has none, and everything observed is expected.
import { describe, expect, it } from 'vitest'
import type { CaseFile } from '../../../shared/contract'
import { fillPlaceholders, placeholdersIn, validateScenario } from '../../../shared/scenario'
import { parseIncident } from '../../../electron/engine/exports/incident'
import { ImportError } from '../../../electron/engine/exports/import'
import { incidentToScenario, IncidentConversionError } from '../../../electron/engine/scenarios/from-incident'
import { eventIdFor } from '../../../electron/engine/scenarios/incident-words'

const T0 = Date.parse('2026-03-02T08:00:00Z')
const iso = (ms: number) => new Date(T0 + ms).toISOString()

interface HarRequest {
  at: number
  id: string
  body: unknown
  status: number
  verify?: string
  duplicate?: number | null
  outcome?: string
}

/** A HAR as Hookloop writes one for captured requests (with its _hookloop fields). */
function har(requests: HarRequest[], hookloop = true): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: requests.map((r, i) => ({
        startedDateTime: iso(r.at),
        time: 3,
        request: {
          method: 'POST',
          url: 'https://abc.tunnel.example/h/clinic',
          headers: [
            { name: 'webhook-id', value: r.id },
            { name: 'webhook-signature', value: '[redacted]' },
            { name: 'content-type', value: 'application/json' },
          ],
          postData: { mimeType: 'application/json', text: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) },
        },
        response: { status: r.status },
        ...(hookloop
          ? { _hookloop: { source: 'request', id: i + 1, endpoint: 'clinic', outcome: r.outcome ?? `http_${r.status}`, verify: r.verify ? { valid: r.verify === 'ok', reason: r.verify } : null, duplicate_number: r.duplicate ?? null } }
          : {}),
      })),
    },
  })
}

function caseFile(parts: Partial<CaseFile>): string {
  return JSON.stringify({ hookloop_case: 1, exported_at: iso(0), redacted: true, setup: { endpoints: [], subscriptions: [] }, requests: [], deliveries: [], ...parts })
}

function valid(scenario: unknown): void {
  const filled = fillPlaceholders(scenario, () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
  expect(filled.ok).toBe(true)
  const checked = validateScenario(filled.ok ? filled.document : null)
  expect(checked.ok ? [] : checked.problems).toEqual([])
}

describe('incident → scenario', () => {
  it('a HAR: the same event id again is a resend, times keep their order (1 ms apart at one instant), verdicts and dup numbers are expected', () => {
    const { scenario, notes, secrets } = incidentToScenario(
      parseIncident(
        har([
          { at: 0, id: 'msg_1', body: { type: 'booking.created', id: 1 }, status: 503, verify: 'ok', duplicate: 1 },
          { at: 0, id: 'msg_2', body: { type: 'booking.cancelled', id: 2 }, status: 200, verify: 'signature_mismatch', duplicate: 1 },
          { at: 120_000, id: 'msg_1', body: { type: 'booking.created', id: 1 }, status: 200, verify: 'ok', duplicate: 2 },
        ]),
      ),
      { source: 'ticket-4711.har' },
    )
    valid(scenario)
    expect(secrets).toEqual(['HOOKLOOP_SECRET_CLINIC'])
    expect(scenario.name).toBe('Incident from ticket-4711.har')
    expect(scenario.clock).toEqual({ mode: 'virtual', start: iso(0) })
    expect(scenario.endpoints).toEqual([
      expect.objectContaining({ slug: 'clinic', scheme: 'standard-webhooks', secrets: ['${HOOKLOOP_SECRET_CLINIC}'], dedupe: { type: 'header', name: 'webhook-id' } }),
    ])
    // The id each request carried is the event's id: the run sends msg_1 in webhook-id again.
    const id1 = 'msg_1'
    expect(scenario.events).toEqual([
      { id: 'r1', type: 'booking.created', payload: { type: 'booking.created', id: 1 }, event_id: id1, subscriptions: ['replay-clinic'], at_ms: 0 },
      expect.objectContaining({ id: 'r2', type: 'booking.cancelled', at_ms: 1, faults: [{ type: 'wrong-secret' }] }),
    ])
    expect(scenario.actions).toEqual([{ type: 'resend', at_ms: 120_000, event: 'r1', subscription: 'replay-clinic' }])
    // No rules in a HAR: each event's arrivals are answered as recorded, matched by the id we send.
    const rules = (scenario.endpoints?.[0] as { rules: unknown[] }).rules
    expect(rules).toEqual([
      { name: 'r1 as recorded', matchers: [{ type: 'header', name: 'webhook-id', value: id1 }], sequence: { items: [{ type: 'reply', status: 503 }, { type: 'reply', status: 200 }] } },
      expect.objectContaining({ sequence: { items: [{ type: 'reply', status: 200 }] } }),
    ])
    expect(scenario.expect?.deliveries).toEqual([
      { event: 'r1', subscription: 'replay-clinic', attempts: 1, outcomes: ['http_503'], signatures: 'ok', duplicates: [1] },
      { event: 'r2', subscription: 'replay-clinic', attempts: 1, outcomes: ['http_200'], signatures: 'signature_mismatch', duplicates: [1] },
      { event: 'r1', resend: 1, subscription: 'replay-clinic', attempts: 1, outcomes: ['http_200'], signatures: 'ok', duplicates: [2] },
    ])
    expect(scenario.expect?.endpoints).toEqual([
      {
        endpoint: 'clinic',
        requests: 3,
        arrivals: [
          { run_ms: 0, signature: 'ok', duplicate: 1, headers: { 'webhook-id': 'msg_1' } },
          { run_ms: 1, signature: 'signature_mismatch', duplicate: 1, headers: { 'webhook-id': 'msg_2' } },
          { run_ms: 120_000, signature: 'ok', duplicate: 2 },
        ],
      },
    ])
    expect(notes).toEqual([expect.stringContaining('endpoint clinic: the file carries no rules')])
    // The secret is never in the file, whatever the HAR held.
    expect(placeholdersIn(scenario)).toEqual(['HOOKLOOP_SECRET_CLINIC'])
  })

  it('a HAR from another tool (no _hookloop fields): the endpoint comes from the URL, the answers from the statuses, dup numbers from the ids; unjudged signatures get a note', () => {
    const { scenario, notes } = incidentToScenario(parseIncident(har([{ at: 5, id: 'msg_9', body: { type: 'x' }, status: 410 }], false)))
    valid(scenario)
    expect(scenario.expect?.deliveries).toEqual([{ event: 'r1', subscription: 'replay-clinic', attempts: 1, outcomes: ['http_410'], duplicates: [1] }])
    expect(scenario.expect?.endpoints?.[0]?.arrivals).toEqual([{ run_ms: 0, duplicate: 1, headers: { 'webhook-id': 'msg_9' } }])
    expect(notes).toContain('signatures not checked (1 request): the file holds no secret and no verdicts; pass --secret with the secret they were signed with')
    expect(scenario.description).toContain('Notes from the import: ')
    expect(scenario.description).toContain('signatures not checked (1 request)')
  })

  it('answers that are not a status: a timeout step, a reset; a body that is not JSON is left out with a note', () => {
    const { scenario, notes } = incidentToScenario(
      parseIncident(
        har([
          { at: 0, id: 'a', body: { n: 1 }, status: 0, outcome: 'timed_out' },
          { at: 10, id: 'b', body: { n: 2 }, status: 0, outcome: 'reset' },
          { at: 20, id: 'c', body: 'not json', status: 200 },
          { at: 30, id: 'd', body: { n: 4 }, status: 0, outcome: 'closed' },
        ]),
      ),
    )
    valid(scenario)
    const items = (scenario.endpoints?.[0] as { rules: { sequence: { items: unknown[] } }[] }).rules.map((r) => r.sequence.items)
    expect(items).toEqual([[{ type: 'timeout' }], [{ type: 'reset' }], [{ type: 'close' }]])
    expect(scenario.expect?.deliveries?.map((d) => d.outcomes)).toEqual([['timeout'], ['reset'], undefined])
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/body is not JSON/), expect.stringMatching(/"closed" is not certain/)]))
  })

  it('a case file: its endpoint and rules as set up (secrets as placeholders), a delivery to a URL answered by an endpoint of ours as the URL answered', () => {
    const text = caseFile({
      setup: {
        endpoints: [{ slug: 'shop', name: 'shop', scheme: 'standard-webhooks', secrets: ['[redacted]', '[redacted]'], dedupe: 'standard-webhooks', rules: [{ preset: 'fail-first', n: 1 }] }],
        global_rules: [{ matchers: [{ type: 'header', name: 'x-teapot' }], steps: [{ type: 'reply', status: 418 }] }],
        subscriptions: [{ id: 'sub_1', name: 'orders feed', url: 'https://consumer.example/hooks', scheme: 'standard-webhooks', secrets: ['[redacted]'], policy: 'pandoktorek', headers: { authorization: '[redacted]', 'x-team': 'blue' } }],
      },
      requests: [
        {
          id: 7,
          endpoint: 'shop',
          received_at: iso(1000),
          method: 'POST',
          path: '/h/shop',
          query: '',
          headers: [['webhook-id', 'msg_a']],
          body: { text: '{"event_type":"order.paid"}' },
          verify: { valid: true, reason: 'ok' },
          duplicate_number: 1,
          outcome: 'http_503',
          response: { status: 503, headers: [], body: null, ms: 2 },
        },
      ],
      deliveries: [
        {
          id: 3,
          event_id: '3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c',
          event_type: 'order.paid',
          subscription: 'sub_1',
          status: 'succeeded',
          body: { text: JSON.stringify({ event_id: '3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c', event_type: 'order.paid', payload: { id: 9 } }) },
          attempts: [
            { n: 1, started_at: iso(0), url: 'https://consumer.example/hooks', request_headers: [], outcome: 'http_500', status_code: 500, duration_ms: 4, decision: 'retry', response_headers: [], response_body: null },
            { n: 2, started_at: iso(120_003), url: 'https://consumer.example/hooks', request_headers: [], outcome: 'timeout', status_code: null, duration_ms: 10_000, decision: 'retry', response_headers: [], response_body: null },
            { n: 3, started_at: iso(480_001), url: 'https://consumer.example/hooks', request_headers: [], outcome: 'http_200', status_code: 200, duration_ms: 3, decision: 'succeeded', response_headers: [], response_body: null },
          ],
        },
      ],
    })
    const { scenario, notes, secrets } = incidentToScenario(parseIncident(text))
    valid(scenario)
    expect(secrets).toEqual(['HOOKLOOP_SECRET_SHOP'])
    const [shop, consumer] = scenario.endpoints as { slug: string; secrets: string[]; rules: unknown[] }[]
    expect(shop).toMatchObject({ slug: 'shop', secrets: ['${HOOKLOOP_SECRET_SHOP}'], rules: [{ preset: 'fail-first', n: 1 }, { matchers: [{ type: 'header', name: 'x-teapot' }] }] })
    expect(consumer).toMatchObject({
      slug: 'consumer-orders-feed',
      scheme: null,
      rules: [{ matchers: [{ type: 'header', name: 'x-pandoktorek-event-id', value: '3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c' }], sequence: { items: [{ type: 'reply', status: 500 }, { type: 'timeout' }, { type: 'reply', status: 200 }] } }],
    })
    const feed = scenario.subscriptions?.find((s) => s.id === 'orders-feed')
    expect(feed).toMatchObject({ endpoint: 'consumer-orders-feed', policy: 'pandoktorek', headers: { 'x-team': 'blue' } })
    expect(feed).not.toHaveProperty('secrets')
    // The delivery's event keeps its id and comes first (it started first); the request 1 s later.
    expect(scenario.events?.map((e) => [e.id, e.at_ms, e.event_id])).toEqual([
      ['d2', 0, '3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c'],
      ['r1', 1000, 'msg_a'],
    ])
    expect(scenario.events?.[0]?.payload).toEqual({ id: 9 })
    expect(scenario.expect?.deliveries).toEqual([
      { event: 'r1', subscription: 'replay-shop', attempts: 1, outcomes: ['http_503'], signatures: 'ok', duplicates: [1] },
      { event: 'd2', subscription: 'orders-feed', status: 'succeeded', attempts: 3, at_ms: [0, 120_003, 480_001], tolerance_ms: 1000, outcomes: ['http_500', 'timeout', 'http_200'], decisions: ['retry', 'retry', 'succeeded'] },
    ])
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/rule\(s\) for every endpoint were added/),
        expect.stringMatching(/its 2 secrets became one placeholder/),
        expect.stringMatching(/went to https:\/\/consumer.example\/hooks; in the scenario endpoint consumer-orders-feed answers as it did/),
        expect.stringMatching(/redacted headers were left out/),
      ]),
    )
  })

  it('a delivery still retrying when the file was made: the run stops at the last moment the file knows', () => {
    const text = caseFile({
      setup: { endpoints: [{ slug: 'shop', scheme: null, secrets: [], rules: [] }], subscriptions: [{ id: 's', name: 'loop', endpoint: 'shop', scheme: 'standard-webhooks', secrets: [], policy: 'csku', headers: {} }] },
      deliveries: [
        {
          id: 1,
          event_id: 'not-a-uuid',
          event_type: 'message.received',
          subscription: 's',
          status: 'retrying',
          body: { text: '{"event_id":"not-a-uuid","event_type":"message.received","payload":{"m":1}}' },
          attempts: [{ n: 1, started_at: iso(0), url: 'http://127.0.0.1:1/h/shop', request_headers: [], outcome: 'http_500', status_code: 500, duration_ms: 1, decision: 'retry', response_headers: [], response_body: null }],
        },
      ],
    })
    const { scenario, secrets } = incidentToScenario(parseIncident(text))
    valid(scenario)
    expect(secrets).toEqual([])
    expect(scenario.max_duration_ms).toBe(1)
    expect(scenario.events?.[0]?.event_id).toBe(eventIdFor('not-a-uuid'))
    expect(scenario.expect?.deliveries?.[0]).toMatchObject({ status: 'retrying', attempts: 1 })
    expect(scenario.expect?.endpoints).toEqual([])
  })

  it('a loop subscription gets a secret of its own only when the file (kept secrets) shows it signed with another', () => {
    const file = (subSecret: string, endpointSecret: string) =>
      caseFile({
        redacted: false,
        setup: {
          endpoints: [{ slug: 'shop', scheme: 'standard-webhooks', secrets: [endpointSecret], rules: [] }],
          subscriptions: [{ id: 's', name: 'loop', endpoint: 'shop', scheme: 'standard-webhooks', secrets: [subSecret], policy: 'csku', headers: {} }],
        },
        deliveries: [
          {
            id: 1,
            event_id: '3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c',
            event_type: 'x',
            subscription: 's',
            status: 'succeeded',
            body: { text: '{"event_id":"3f6c2a1e-8b4d-4e2f-9a7c-1d5e6f7a8b9c","event_type":"x","payload":{}}' },
            attempts: [{ n: 1, started_at: iso(0), url: null, request_headers: [], outcome: 'http_200', status_code: 200, duration_ms: 1, decision: 'succeeded', response_headers: [], response_body: null }],
          },
        ],
      })
    const other = incidentToScenario(parseIncident(file('whsec_b3RoZXItc2VjcmV0LW9mLXRoZS1zdWJzY3JpcHRpb24=', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')))
    expect(other.secrets).toEqual(['HOOKLOOP_SECRET_SHOP', 'HOOKLOOP_SECRET_LOOP'])
    expect(other.scenario.subscriptions?.[0]).toMatchObject({ id: 'loop', secrets: ['${HOOKLOOP_SECRET_LOOP}'] })
    expect(JSON.stringify(other.scenario)).not.toContain('whsec_')
    const same = incidentToScenario(parseIncident(file('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')))
    expect(same.secrets).toEqual(['HOOKLOOP_SECRET_SHOP'])
    expect(same.scenario.subscriptions?.[0]).not.toHaveProperty('secrets')
    const redacted = incidentToScenario(parseIncident(file('[redacted]', '[redacted]')))
    expect(redacted.notes).toEqual(expect.arrayContaining([expect.stringMatching(/its secret is redacted and the file does not mark it as another than endpoint shop's, so in the scenario it signs with shop's/)]))
  })

  it('files with nothing to send, and broken files, say why', () => {
    expect(() => incidentToScenario(parseIncident(har([{ at: 0, id: 'x', body: 'plain text', status: 200 }])))).toThrow(IncidentConversionError)
    expect(() => incidentToScenario(parseIncident(har([{ at: 0, id: 'x', body: 'plain text', status: 200 }])))).toThrow(/nothing in the file can be sent again: .*body is not JSON/)
    expect(() => parseIncident('{"log": {"version": "1.2", "entries": [{"startedDateTime": "yesterday", "request": {"method": "POST"}}]}}')).toThrow(
      new ImportError('log.entries[0].startedDateTime is not an ISO 8601 time (got "yesterday")'),
    )
    expect(() => parseIncident('[]')).toThrow(/top level must be a JSON object/)
    expect(() => parseIncident('{"hookloop_case": 2}')).toThrow(/version 1/)
  })
})

describe('secret placeholders', () => {
  it('fills endpoint and subscription secrets and subscription headers; each missing one is a problem at its JSON path', () => {
    const doc = { endpoints: [{ secrets: ['${A_1}', 'plain'] }], subscriptions: [{ secrets: ['${B}'], headers: { authorization: '${TOKEN}', x: 'y' } }] }
    expect(placeholdersIn(doc)).toEqual(['A_1', 'B', 'TOKEN'])
    const filled = fillPlaceholders(doc, (name) => ({ A_1: 'one', B: 'two', TOKEN: 'Bearer t' })[name])
    expect(filled).toEqual({ ok: true, filled: ['A_1', 'B', 'TOKEN'], document: { endpoints: [{ secrets: ['one', 'plain'] }], subscriptions: [{ secrets: ['two'], headers: { authorization: 'Bearer t', x: 'y' } }] } })
    // The document itself is left as it was.
    expect(doc.endpoints[0]!.secrets[0]).toBe('${A_1}')
    expect(fillPlaceholders(doc, (name) => (name === 'B' ? 'two' : undefined))).toEqual({
      ok: false,
      problems: [
        { path: 'endpoints[0].secrets[0]', message: 'the secret ${A_1} has no value: give --secret A_1=… or set the environment variable A_1' },
        { path: 'subscriptions[0].headers.authorization', message: 'the secret ${TOKEN} has no value: give --secret TOKEN=… or set the environment variable TOKEN' },
      ],
    })
    // Lower case or text around it is an ordinary string, left alone.
    expect(placeholdersIn({ endpoints: [{ secrets: ['${lower}', 'x${A}'] }] })).toEqual([])
  })
})
