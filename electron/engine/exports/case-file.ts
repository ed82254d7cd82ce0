// A Hookloop case file: the endpoints (with rules) and subscriptions involved, in the form a
// scenario file takes them, plus the captured requests and the deliveries with every attempt
// and its outcome. What support attaches to a ticket and QA opens again.
import { CASE_FILE_VERSION, redactedForeignSecret, type CaseAttempt, type CaseDelivery, type CaseFile, type CaseRequest } from '../../../shared/contract'
import { endpointDefinition } from '../../../shared/receiver'
import { toCaseBody } from './body'
import { schemaOf, type Collected } from './collect'
import { requestOutcome } from './exchange'
import type { Redactor } from './redact'

function pairs(json: string | null): [string, string][] {
  if (!json) return []
  const value = JSON.parse(json) as unknown
  return Array.isArray(value) ? (value as [string, string][]) : Object.entries(value as Record<string, string>)
}

/**
 * A subscription's secrets, redacted. The one a loop subscription signs with (the first; the
 * others are retired) says so when its endpoint does not verify with it: the signature mismatch
 * that caused is what support reproduces.
 */
function subscriptionSecrets(secrets: readonly string[], endpoint: Collected['endpoints'][number]['endpoint'] | undefined, redactor: Redactor): string[] {
  return secrets.map((secret, i) => (redactor.active && i === 0 && endpoint && !endpoint.secrets.includes(secret) ? redactedForeignSecret(endpoint.slug) : redactor.secret(secret)))
}

function setupOf(collected: Collected, redactor: Redactor): CaseFile['setup'] {
  // Forward targets stay out: a case file replays against Hookloop alone, not the user's app.
  const endpoints = collected.endpoints.map(({ endpoint, rules }) => {
    const { forward_to: _forwardTo, ...definition } = endpointDefinition(endpoint)
    return { ...definition, scheme: endpoint.scheme, secrets: endpoint.secrets.map((s) => redactor.secret(s)), rules: rules.map((r) => r.rule) }
  })
  const subscriptions = collected.subscriptions.map((sub) => ({
    id: sub.id,
    name: sub.name,
    ...(sub.endpoint_slug ? { endpoint: sub.endpoint_slug } : { url: sub.url }),
    scheme: sub.scheme,
    secrets: subscriptionSecrets(JSON.parse(sub.secrets_json) as string[], sub.endpoint_slug ? collected.endpoints.find((e) => e.endpoint.slug === sub.endpoint_slug)?.endpoint : undefined, redactor),
    policy: JSON.parse(sub.policy_json) as unknown,
    headers: Object.fromEntries(redactor.headers(Object.entries(JSON.parse(sub.headers_json) as Record<string, string>))),
    ...(sub.event_id_header ? { event_id_header: sub.event_id_header } : {}),
    ...(sub.envelope === 'payload' ? { envelope: sub.envelope } : {}),
  }))
  const globalRules: Record<string, unknown>[] = collected.globalRules.map((r) => ({ ...r.rule }))
  return { endpoints, ...(globalRules.length > 0 ? { global_rules: globalRules } : {}), subscriptions }
}

export function toCaseFile(collected: Collected, redactor: Redactor, exportedAt: number): CaseFile {
  const requests: CaseRequest[] = collected.requests.map((r) => ({
    id: r.id,
    endpoint: r.endpointId === null ? null : (collected.slugs.get(r.endpointId) ?? null),
    received_at: new Date(r.receivedAt).toISOString(),
    method: r.method,
    path: r.path,
    query: redactor.query(r.query),
    headers: redactor.headers(r.headers),
    body: toCaseBody(r.body),
    verify: r.verify ? { valid: r.verify.valid, reason: r.verify.reason } : null,
    ...schemaOf(collected, r.id),
    duplicate_number: r.duplicateNumber,
    outcome: requestOutcome(r),
    response: { status: r.response.status, headers: redactor.headers(r.response.headers), body: r.response.body ? toCaseBody(r.response.body) : null, ms: r.response.ms },
  }))
  const deliveries: CaseDelivery[] = collected.deliveries.map(({ delivery, event, body, attempts }) => ({
    id: delivery.id,
    event_id: event.id,
    ...(delivery.consumer_event_id === null ? {} : { consumer_event_id: delivery.consumer_event_id }),
    event_type: event.eventType,
    subscription: delivery.subscription_id,
    status: delivery.status,
    body: toCaseBody(body),
    attempts: attempts.map(
      (a): CaseAttempt => ({
        n: a.n,
        started_at: new Date(a.started_at).toISOString(),
        url: a.url === null ? null : redactor.url(a.url),
        request_headers: redactor.headers(pairs(a.request_headers_json)),
        outcome: a.outcome,
        status_code: a.status_code,
        duration_ms: a.duration_ms,
        decision: a.decision,
        response_headers: redactor.headers(pairs(a.response_headers_json)),
        response_body: a.response_body ? toCaseBody(a.response_body) : null,
      }),
    ),
  }))
  return { hookloop_case: CASE_FILE_VERSION, exported_at: new Date(exportedAt).toISOString(), redacted: redactor.active, setup: setupOf(collected, redactor), requests, deliveries }
}
