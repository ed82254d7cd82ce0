// Read models for the inspector and the endpoint list: a delivery with its attempts, one captured
// request with its verdict and fault explained, endpoints with their URLs. Reads only.
import type { Database } from 'better-sqlite3'
import type {
  AttemptDetail,
  DedupeConfigView,
  DeliveryDetail,
  DeliveryStatus,
  EndpointView,
  FaultView,
  HeaderPair,
  RequestDetail,
} from '../../../shared/contract'
import type { SchemeId } from '../../../shared/signatures'
import { badge } from './timeline-read'
import { captureMarks } from '../../../shared/receiver-records'
import { decodeMarks } from '../store/request-codec'
import type { RequestRow } from '../store/requests'
import { isEnvelope } from '../../../shared/envelope'
import { sentBody } from '../sender/envelope'
import { secretBoxOf } from '../store/secret-box'

export interface DetailsReadOptions {
  /** The explain() sentence of a stored rule definition. */
  explainRule: (definition: unknown) => string
  /** The sentence for a stored fault (the final step a rule applied). */
  explainFault: (fault: unknown) => string
  /** Where an endpoint answers locally and (when the tunnel is up) publicly. */
  endpointUrls: (slug: string) => { localUrl: string; publicUrl: string | null }
}

export function secretHint(secret: string): string {
  if (secret.length <= 8) return '•'.repeat(secret.length)
  return `${secret.slice(0, 4)}…${secret.slice(-4)}`
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

function dedupeView(json: string | null): DedupeConfigView {
  const d = parseJson(json) as { type?: string; name?: string; path?: string; template?: string } | null
  if (!d || typeof d !== 'object') return { kind: 'none', value: '' }
  if (d.type === 'header') return { kind: 'header', value: d.name ?? '' }
  if (d.type === 'json-path') return { kind: 'json-path', value: d.path ?? '' }
  if (d.type === 'template') return { kind: 'template', value: d.template ?? '' }
  return { kind: 'none', value: '' }
}

export function createDetailsRead(db: Database, options: DetailsReadOptions) {
  const delivery = db.prepare<[number], { id: number; event_id: string; event_type: string; subscription_id: string; status: DeliveryStatus; payload: Buffer; faults_json: string | null; url: string | null; endpoint_slug: string | null; envelope: string | null }>(
    `SELECT d.id, d.event_id, e.event_type, d.subscription_id, d.status, e.payload, d.faults_json, s.url, s.endpoint_slug, s.envelope
       FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN subscriptions s ON s.id = d.subscription_id WHERE d.id = ?`,
  )
  const attempts = db.prepare<[number], Record<string, unknown>>(
    `SELECT a.*, (SELECT r.id FROM requests r WHERE r.attempt_id = a.id LIMIT 1) AS request_id FROM attempts a WHERE a.delivery_id = ? ORDER BY a.n`,
  )
  const request = db.prepare<[number], Record<string, unknown>>(`SELECT * FROM requests WHERE id = ?`)
  const ruleById = db.prepare<[string], { definition_json: string }>(`SELECT definition_json FROM rules WHERE id = ?`)
  // Secrets are sealed at rest; only their hints leave this module.
  const secretBox = secretBoxOf(db)
  const endpoints = db.prepare<[], { id: string; slug: string; name: string; scheme: string | null; secrets_json: string; dedupe_json: string | null }>(
    `SELECT id, slug, name, scheme, secrets_json, dedupe_json FROM endpoints ORDER BY created_at, id`,
  )

  const deliveryCounts = db.prepare<[string], { attempts: number | null; successes: number | null }>(
    `SELECT SUM(attempts) AS attempts, SUM(status = 'succeeded') AS successes FROM deliveries WHERE subscription_id = ?`,
  )

  /** Attempts, successes and failures from the deliveries table: one row per delivery, not per attempt. */
  function quickMetrics(subscriptionId: string): { attempts: number; successes: number; failures: number } {
    const row = deliveryCounts.get(subscriptionId)
    const attempts = row?.attempts ?? 0
    const successes = row?.successes ?? 0
    return { attempts, successes, failures: Math.max(0, attempts - successes) }
  }

  function faultView(faultJson: string | null, ruleId: string | null): FaultView | null {
    if (!faultJson && !ruleId) return null
    const data = parseJson(faultJson)
    const rule = ruleId ? ruleById.get(ruleId) : undefined
    return {
      summary: data ? options.explainFault(data) : 'no fault: the default answer',
      ruleId,
      ruleExplain: rule ? options.explainRule(parseJson(rule.definition_json)) : null,
      data,
    }
  }

  function deliveryDetail(id: number): DeliveryDetail | null {
    const d = delivery.get(id)
    if (!d) return null
    const list: AttemptDetail[] = attempts.all(id).map((a) => ({
      id: a.id as number,
      n: a.n as number,
      startedAt: a.started_at as number,
      durationMs: (a.duration_ms as number | null) ?? null,
      outcome: a.outcome as string,
      statusCode: (a.status_code as number | null) ?? null,
      decision: a.decision as AttemptDetail['decision'],
      nextAttemptAt: (a.next_attempt_at as number | null) ?? null,
      error: (a.error as string | null) ?? null,
      requestHeaders: headerPairs(a.request_headers_json as string | null),
      responseHeaders: headerPairs(a.response_headers_json as string | null),
      responseBodyBase64: base64(a.response_body as Buffer | null),
      fault: parseJson(a.fault_json as string | null),
      requestId: (a.request_id as number | null) ?? null,
    }))
    const target = d.endpoint_slug ? options.endpointUrls(d.endpoint_slug).localUrl : (d.url ?? '')
    return {
      id: d.id,
      eventId: d.event_id,
      eventType: d.event_type,
      subscriptionId: d.subscription_id,
      subscriptionUrl: target,
      status: d.status,
      // The body as its attempts send it: the stored payload in the subscription's envelope.
      payloadBase64: base64(sentBody({ id: d.event_id, event_type: d.event_type, payload: d.payload }, isEnvelope(d.envelope) ? d.envelope : 'event')),
      faults: parseJson(d.faults_json),
      attempts: list,
    }
  }

  function requestDetail(id: number): RequestDetail | null {
    const r = request.get(id)
    if (!r) return null
    const verify = parseJson(r.verify_json as string | null) as { expected?: string; received?: string } | null
    return {
      id,
      endpointId: (r.endpoint_id as string | null) ?? null,
      receivedAt: r.received_at as number,
      method: r.method as string,
      path: r.path as string,
      query: r.query as string,
      headers: headerPairs(r.headers_json as string),
      bodyBase64: base64(r.body as Buffer | null),
      bodySize: r.body_size as number,
      bodyTruncated: Boolean(r.body_truncated),
      remoteAddress: (r.remote_address as string | null) ?? null,
      verify: {
        ...badge(r.verify_valid as number | null, r.verify_reason as string | null, r.verify_json as string | null),
        expected: verify?.expected,
        received: verify?.received,
      },
      dedupeKey: (r.dedupe_key as string | null) ?? null,
      marks: captureMarks(decodeMarks(r as unknown as RequestRow)),
      duplicateOf: (r.duplicate_of as number | null) ?? null,
      duplicateNumber: (r.duplicate_number as number | null) ?? null,
      fault: faultView(r.fault_json as string | null, (r.rule_id as string | null) ?? null),
      response: {
        status: (r.response_status as number | null) ?? null,
        headers: headerPairs(r.response_headers_json as string | null),
        bodyBase64: base64(r.response_body as Buffer | null),
        ms: (r.response_ms as number | null) ?? null,
      },
      attemptId: (r.attempt_id as number | null) ?? null,
    }
  }

  function endpointViews(): EndpointView[] {
    return endpoints.all().map((e) => ({
      id: e.id,
      slug: e.slug,
      name: e.name,
      scheme: e.scheme as SchemeId | null,
      secretHints: (parseJson(secretBox.open(e.secrets_json)) as string[] | null)?.map(secretHint) ?? [],
      dedupe: dedupeView(e.dedupe_json),
      ...options.endpointUrls(e.slug),
    }))
  }

  return { deliveryDetail, requestDetail, endpointViews, quickMetrics }
}

export type DetailsRead = ReturnType<typeof createDetailsRead>
