// Builds the run report from what the store recorded: attempt times become offsets from the
// delivery's first attempt on the scenario clock, and each attempt that reached one of our own
// endpoints carries the receiver's verdict (signature reason, duplicate number).
import type { Scenario, ReportAction, ReportArrival, ReportAttempt, ReportDelivery, ReportEndpoint, ReportForwardLeg, ScenarioReport, ReportTunnel } from '../../../shared/scenario'
import { evaluateExpectations, presetOf, statusWordFor } from '../../../shared/scenario'

export interface RecordedRequest {
  id: number
  verify_reason: string | null
  duplicate_number: number | null
  fault: unknown
}

export interface RecordedAttempt {
  n: number
  started_at: number
  duration_ms: number | null
  outcome: string
  status_code: number | null
  decision: string
  next_attempt_at: number | null
  fault: unknown
  request: RecordedRequest | null
}

/** A delivery as read from the store: the report's own fields, with attempts not yet timed. */
export interface RecordedDelivery extends Omit<ReportDelivery, 'attempts'> {
  attempts: RecordedAttempt[]
}

export interface RecordedEndpointRequest {
  slug: string
  verify_reason: string | null
  duplicate_number: number | null
  /** What arrived (absent in reports built from older records: then no arrivals are listed). */
  id?: number
  received_at?: number
  headers_json?: string
  body?: Buffer | null
  /** Its schema verdict (null: not judged; absent in older records). */
  schema_verdict?: string | null
  schema_pointer?: string | null
  schema_expected?: string | null
  schema_got?: string | null
}

export interface BuildReportInput {
  scenario: Scenario
  file: string | null
  /** Scenario clock at the start and end of the run (ms since epoch). */
  startedAt: number
  endedAt: number
  wallMs: number
  incomplete: string | null
  deliveries: readonly RecordedDelivery[]
  /** Every request our endpoints captured during the run (loop mode or not). */
  endpointRequests: readonly RecordedEndpointRequest[]
  /** Panel actions done during the run (none by default). */
  actions?: readonly ReportAction[]
  /** Forward mode: every leg sent to a forward target during the run (none by default). */
  forwards?: readonly ReportForwardLeg[]
  /** Through the tunnel: where the loop deliveries went (null or absent: straight to the receiver). */
  tunnel?: ReportTunnel | null
}

export function reportAttempts(attempts: readonly RecordedAttempt[], runStartedAt: number): ReportAttempt[] {
  const sorted = [...attempts].sort((a, b) => a.n - b.n)
  const first = sorted[0]?.started_at ?? 0
  return sorted.map((a) => ({
    n: a.n,
    at_ms: a.started_at - first,
    run_ms: a.started_at - runStartedAt,
    duration_ms: a.duration_ms,
    outcome: a.outcome,
    status_code: a.status_code,
    decision: a.decision,
    next_at_ms: a.next_attempt_at === null ? null : a.next_attempt_at - first,
    fault: a.fault ?? null,
    request_id: a.request?.id ?? null,
    signature: a.request?.verify_reason ?? null,
    duplicate: a.request?.duplicate_number ?? null,
    receiver_fault: a.request?.fault ?? null,
  }))
}

function arrivalBody(body: Buffer | null | undefined): unknown {
  if (!body || body.length === 0) return null
  const text = body.toString('utf8')
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function arrivalHeaders(json: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of JSON.parse(json) as [string, string][]) {
    const key = name.toLowerCase()
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`
  }
  return headers
}

function arrivalOf(r: RecordedEndpointRequest, runStartedAt: number): ReportArrival | null {
  if (r.id === undefined || r.received_at === undefined || r.headers_json === undefined) return null
  return { endpoint: r.slug, request_id: r.id, run_ms: r.received_at - runStartedAt, headers: arrivalHeaders(r.headers_json), body: arrivalBody(r.body), signature: r.verify_reason, duplicate: r.duplicate_number, schema: arrivalSchema(r) }
}

function arrivalSchema(r: RecordedEndpointRequest): ReportArrival['schema'] {
  const verdict = r.schema_verdict
  if (verdict !== 'valid' && verdict !== 'invalid' && verdict !== 'no-schema') return null
  return { verdict, pointer: r.schema_pointer ?? null, expected: r.schema_expected ?? null, got: r.schema_got ?? null }
}

export function summarizeEndpoints(scenario: Scenario, requests: readonly RecordedEndpointRequest[]): ReportEndpoint[] {
  return scenario.endpoints.map((endpoint) => {
    const mine = requests.filter((r) => r.slug === endpoint.slug)
    const signatures: Record<string, number> = {}
    for (const r of mine) {
      const reason = r.verify_reason ?? 'not_verified'
      signatures[reason] = (signatures[reason] ?? 0) + 1
    }
    return { slug: endpoint.slug, requests: mine.length, duplicates_flagged: mine.filter((r) => (r.duplicate_number ?? 0) > 1).length, signatures }
  })
}

/** What arrived at the scenario's endpoints, in order. */
export function reportArrivals(scenario: Scenario, requests: readonly RecordedEndpointRequest[], runStartedAt: number): ReportArrival[] {
  const slugs = new Set(scenario.endpoints.map((e) => e.slug))
  return requests.filter((r) => slugs.has(r.slug)).map((r) => arrivalOf(r, runStartedAt)).filter((a): a is ReportArrival => a !== null)
}

export function buildReport(input: BuildReportInput): ScenarioReport {
  const deliveries: ReportDelivery[] = input.deliveries.map((d) => ({
    delivery_id: d.delivery_id,
    duplicate_of: d.duplicate_of,
    event: d.event,
    subscription: d.subscription,
    event_id: d.event_id,
    provider_event_id: d.provider_event_id,
    event_type: d.event_type,
    url: d.url,
    loop: d.loop,
    status: d.status,
    status_word: statusWordFor(presetOf(input.scenario, d.subscription), d.status),
    ...(d.resend === undefined ? {} : { resend: d.resend }),
    attempts: reportAttempts(d.attempts, input.startedAt),
  }))
  const endpoints = summarizeEndpoints(input.scenario, input.endpointRequests)
  const arrivals = reportArrivals(input.scenario, input.endpointRequests, input.startedAt)
  const forwards = [...(input.forwards ?? [])]
  const expectations = evaluateExpectations(input.scenario, deliveries, endpoints, arrivals, forwards)
  const actions = [...(input.actions ?? [])]
  return {
    ok: input.incomplete === null && expectations.every((e) => e.ok) && actions.every((a) => a.ok),
    scenario: input.scenario.name,
    file: input.file,
    clock: input.scenario.clock,
    started_at: input.startedAt,
    clock_ms: input.endedAt - input.startedAt,
    wall_ms: input.wallMs,
    incomplete: input.incomplete,
    deliveries,
    endpoints,
    arrivals,
    ...(forwards.length > 0 || input.scenario.expect.forwards.length > 0 ? { forwards } : {}),
    ...(input.tunnel ? { tunnel: input.tunnel } : {}),
    actions,
    expectations,
  }
}
