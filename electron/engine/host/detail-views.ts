// The views of the inspector and the endpoint list: a delivery with its attempts, one captured
// request with its verdict and fault explained, endpoints with their URLs. Reads only, through the
// store's read modules (endpoints and rules decoded by their own store modules).
import type { AttemptDetail, DeliveryDetail, EndpointContractView, EndpointView, FaultView, HeaderPair, RequestDetail, RowClock } from '../../../shared/contract'
import { bodyStart } from './body-routes'
import { createInspectorReads, decodeMarks, type SecretBox, type SimulationRow, type SqlEngine } from '../store'
import { legView } from './forward-views'
import { badge } from './timeline-views'
import { captureMarks, dedupeKeySource, explainHold, type DedupeKey, type EndpointContract, type HoldRecord } from '../../../shared/receiver'
import { isEnvelope } from '../../../shared/sender'
import { sentBody } from '../sender'
import { eventIdHeadersOf, findEventId, isProviderId, PROVIDERS } from '../../../shared/providers'
import { providerBody, consumerEventId } from '../providers'

export interface DetailViewsOptions {
  /** The explain() sentence of a stored rule definition. */
  explainRule: (definition: unknown) => string
  /** The sentence for a stored fault (the final step a rule applied). */
  explainFault: (fault: unknown) => string
  /** Where an endpoint answers locally and (when the tunnel is up) publicly. */
  endpointUrls: (slug: string) => { localUrl: string; publicUrl: string | null }
  /**
   * A contract endpoint's spec and its event types (contracts' createContractEvents); without it
   * (the MCP server) the view names the spec and operation only.
   */
  contractView?: (contract: EndpointContract) => Promise<EndpointContractView>
}

export function secretHint(secret: string): string {
  if (secret.length <= 8) return '•'.repeat(secret.length)
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`
}

/**
 * Where a request's dedupe key was read, in words ("auto: body.event_id", "header webhook-id"):
 * an automatic key is found again in the stored headers and body, as the receiver found it.
 */
function keySource(dedupe: DedupeKey | null, key: string | null, headers: HeaderPair[], body: Buffer | null): string | null {
  if (key === null || dedupe === null) return null
  if (dedupe.type !== 'auto') return dedupeKeySource(dedupe, null)
  const header = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value
  const json = () => {
    try {
      return JSON.parse(body?.toString('utf8') ?? '') as unknown
    } catch {
      return undefined
    }
  }
  return dedupeKeySource(dedupe, findEventId(eventIdHeadersOf(Object.values(PROVIDERS)), header, json)?.where ?? null)
}

function headerPairs(json: string | null): HeaderPair[] {
  if (!json) return []
  try {
    const parsed = JSON.parse(json) as unknown
    if (Array.isArray(parsed)) return parsed.map((pair) => ({ name: String((pair as unknown[])[0]), value: String((pair as unknown[])[1]) }))
    if (parsed && typeof parsed === 'object') {
      return Object.entries(parsed as Record<string, unknown>).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((v) => ({ name, value: String(v) })) : [{ name, value: String(value) }],
      )
    }
  } catch {
    // Unreadable headers show as none rather than breaking the inspector.
  }
  return []
}

function parseJson(json: string | null): unknown {
  if (!json) return null
  try {
    return JSON.parse(json) as unknown
  } catch {
    return json
  }
}

function base64(bytes: Buffer | null): string {
  return bytes ? bytes.toString('base64') : ''
}

/** A breakpoint's hold, kept in the request's fault (receiver/hold.ts). */
function holdView(fault: unknown): RequestDetail['hold'] {
  const record = fault && typeof fault === 'object' ? (fault as { hold?: HoldRecord }).hold : undefined
  return record ? { summary: explainHold(record), record } : null
}

/** The views over either store engine; `secrets` opens the endpoints' signing secrets (for their hints). */
export function createDetailViews(engine: SqlEngine, secrets: SecretBox, options: DetailViewsOptions) {
  const reads = createInspectorReads(engine, secrets)

  async function faultView(faultJson: string | null, ruleId: string | null): Promise<FaultView | null> {
    if (!faultJson && !ruleId) return null
    const data = parseJson(faultJson)
    const rule = ruleId ? await reads.rule(ruleId) : undefined
    return {
      summary: data ? options.explainFault(data) : 'no fault: the default answer',
      ruleId,
      ruleExplain: rule ? options.explainRule(rule.rule) : null,
      data,
    }
  }

  const clockOf = (simulation: SimulationRow | undefined): RowClock =>
    simulation ? { kind: 'simulated', simulationId: simulation.id, mode: simulation.mode, startedAt: simulation.started_at } : { kind: 'wall' }

  async function deliveryDetail(id: number): Promise<DeliveryDetail | null> {
    const d = await reads.delivery(id)
    if (!d) return null
    const [attempts, simulation] = await Promise.all([reads.attempts(id), reads.simulationOfDelivery(id)])
    const list: AttemptDetail[] = attempts.map((a) => ({
      id: a.id,
      n: a.n,
      startedAt: a.started_at,
      durationMs: a.duration_ms,
      outcome: a.outcome,
      statusCode: a.status_code,
      decision: a.decision as AttemptDetail['decision'],
      nextAttemptAt: a.next_attempt_at,
      error: a.error,
      requestHeaders: headerPairs(a.request_headers_json),
      responseHeaders: headerPairs(a.response_headers_json),
      responseBodyBase64: base64(a.response_body),
      fault: parseJson(a.fault_json),
      requestId: a.request_id,
      startedWallAt: a.started_wall_at ?? null,
    }))
    const target = d.endpoint_slug ? options.endpointUrls(d.endpoint_slug).localUrl : (d.url ?? '')
    const event = { id: d.event_id, eventType: d.event_type, payload: d.payload }
    const pack = d.provider && isProviderId(d.provider) ? PROVIDERS[d.provider] : null
    // The body as its attempts send it: the provider's shape, or the stored payload in the subscription's envelope.
    const body = pack
      ? providerBody(pack, { eventId: d.event_id, eventType: d.event_type, payload: d.payload, createdAt: d.event_created_at, sentAt: d.event_created_at, apiVersion: d.api_version })
      : sentBody(event, isEnvelope(d.envelope) ? d.envelope : 'event')
    return {
      id: d.id,
      eventId: d.event_id,
      eventType: d.event_type,
      subscriptionId: d.subscription_id,
      subscriptionUrl: target,
      status: d.status,
      payloadBase64: base64(body),
      providerEventId: pack ? consumerEventId(pack, { eventId: d.event_id, eventType: d.event_type, createdAt: d.event_created_at, body: body.toString('utf8') }) : null,
      faults: parseJson(d.faults_json),
      attempts: list,
      clock: clockOf(simulation),
    }
  }

  async function requestDetail(id: number): Promise<RequestDetail | null> {
    const r = await reads.request(id)
    if (!r) return null
    const verify = parseJson(r.verify_json) as { expected?: string; received?: string } | null
    const headers = headerPairs(r.headers_json)
    // A request one of our attempts made is on that attempt's clock: a simulation's, maybe.
    const [simulation, endpoint, legs, fault, schema] = await Promise.all([
      r.attempt_id === null ? undefined : reads.simulationOfAttempt(r.attempt_id),
      r.endpoint_id === null ? undefined : reads.endpoint(r.endpoint_id),
      reads.legsOf(id),
      faultView(r.fault_json, r.rule_id),
      reads.schemaVerdictOf(id),
    ])
    return {
      id,
      endpointId: r.endpoint_id,
      receivedAt: r.received_at,
      method: r.method,
      path: r.path,
      query: r.query,
      headers,
      bodyBase64: bodyStart(r.body),
      bodyStoredBytes: r.body?.length ?? 0,
      bodySize: r.body_size,
      bodyTruncated: Boolean(r.body_truncated),
      remoteAddress: r.remote_address,
      verify: {
        ...badge(r.verify_valid, r.verify_reason, r.verify_json),
        expected: verify?.expected,
        received: verify?.received,
      },
      schema,
      dedupeKey: r.dedupe_key,
      dedupeKeyFrom: keySource(endpoint?.dedupe ?? null, r.dedupe_key, headers, r.body),
      marks: captureMarks(decodeMarks(r)),
      duplicateOf: r.duplicate_of,
      duplicateNumber: r.duplicate_number,
      fault,
      hold: holdView(fault?.data),
      response: {
        status: r.response_status,
        headers: headerPairs(r.response_headers_json),
        bodyBase64: bodyStart(r.response_body),
        ms: r.response_ms,
      },
      attemptId: r.attempt_id,
      legs: legs.map(legView),
      clock: clockOf(simulation),
      storedAt: r.stored_at ?? r.received_at,
    }
  }

  const contractViewOf = async (contract: EndpointContract | undefined): Promise<EndpointContractView | null> => {
    if (!contract) return null
    if (options.contractView) return options.contractView(contract)
    return { spec: contract.spec, operation: contract.operation, title: null, events: [], problem: null }
  }

  async function endpointViews(): Promise<EndpointView[]> {
    const endpoints = await reads.endpoints()
    const contracts = await Promise.all(endpoints.map((e) => contractViewOf(e.contract)))
    return endpoints.map((e, i) => ({
      id: e.id,
      slug: e.slug,
      name: e.name,
      scheme: e.scheme,
      secretHints: e.secrets.map(secretHint),
      dedupe: e.dedupe,
      forwardTo: e.forwardTo ?? [],
      ...options.endpointUrls(e.slug),
      contract: contracts[i] ?? null,
    }))
  }

  /** A captured request's whole stored body, for its download; undefined when there is no such request. */
  async function requestBody(id: number): Promise<Buffer | undefined> {
    const r = await reads.request(id)
    return r ? (r.body ?? Buffer.alloc(0)) : undefined
  }

  return { deliveryDetail, requestDetail, requestBody, endpointViews }
}

export type DetailViews = ReturnType<typeof createDetailViews>
