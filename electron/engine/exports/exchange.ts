// One HTTP exchange, whichever side it comes from: a request we captured (and our answer), or an
// attempt our sender made (and the answer it got). HAR and cURL exports are written from these.
// An attempt our own receiver captured (a loop delivery) is one exchange seen from both sides: it
// is written once, as the captured request carrying its attempt's ids, so a file holds each
// exchange once and reads back as the requests that arrived.
import type { HarHookloopFields } from '../../../shared/contract'
import type { RequestRecord } from '../../../shared/receiver'
import { headerValue } from './body'
import { schemaOf, type Collected } from './collect'

export interface Exchange {
  startedAt: number
  method: string
  url: string
  httpVersion: string
  headers: [string, string][]
  body: Buffer
  /** null when no response arrived (timeout, reset, dropped …). */
  response: { status: number; headers: [string, string][]; body: Buffer } | null
  timeMs: number
  hookloop: HarHookloopFields
}

/** What we answered, as the sender would name it. */
export function requestOutcome(request: RequestRecord): string {
  const fault = request.fault?.outcome
  if (fault && fault !== 'replied' && fault !== 'refused' && fault !== 'store_failed') return fault
  return request.response.status === null ? 'no_response' : `http_${request.response.status}`
}

function requestUrl(request: RequestRecord): string {
  // The Host the sender used (the tunnel's public host, or loopback) names where it was sent.
  const host = headerValue(request.headers, 'host') ?? 'localhost'
  return `http://${host}${request.path}${request.query ? `?${request.query}` : ''}`
}

function parsePairs(json: string | null): [string, string][] {
  if (!json) return []
  const value = JSON.parse(json) as unknown
  if (Array.isArray(value)) return value as [string, string][]
  return Object.entries(value as Record<string, string>)
}

/** The simulation fields of an exchange whose time is a simulation's (docs/time.md): marked, with the wall time beside. */
function simulated(simulationId: string | null | undefined, wallAt: number | null | undefined): Pick<HarHookloopFields, 'simulation_id' | 'wall_at'> {
  if (!simulationId) return {}
  return { simulation_id: simulationId, ...(wallAt == null ? {} : { wall_at: new Date(wallAt).toISOString() }) }
}

export function toExchanges(collected: Collected): Exchange[] {
  const out: Exchange[] = []
  /** Attempt id → what the sender knew of it, for the captured requests those attempts made (on its delivery's clock). */
  const attemptsById = new Map<number, { delivery: number; event: string; consumerEventId: string | null; n: number; outcome: string; simulationId: string | null }>()
  for (const { delivery, event, attempts, simulationId } of collected.deliveries) {
    for (const a of attempts) attemptsById.set(a.id, { delivery: delivery.id, event: event.id, consumerEventId: delivery.consumer_event_id, n: a.n, outcome: a.outcome, simulationId: simulationId ?? null })
  }
  /** Attempts written as their captured request: not written again on their own. */
  const captured = new Set<number>()
  for (const request of collected.requests) {
    const status = request.response.status
    const outcome = requestOutcome(request)
    const attempt = request.attemptId === null ? undefined : attemptsById.get(request.attemptId)
    if (attempt && request.attemptId !== null) captured.add(request.attemptId)
    out.push({
      startedAt: request.receivedAt,
      method: request.method,
      url: requestUrl(request),
      httpVersion: `HTTP/${request.httpVersion}`,
      headers: request.headers,
      body: Buffer.from(request.body),
      response: status === null || outcome !== `http_${status}` ? null : { status, headers: request.response.headers, body: Buffer.from(request.response.body ?? new Uint8Array(0)) },
      timeMs: request.response.ms ?? 0,
      hookloop: {
        source: 'request',
        id: request.id,
        endpoint: request.endpointId === null ? null : (collected.slugs.get(request.endpointId) ?? null),
        outcome,
        verify: request.verify ? { valid: request.verify.valid, reason: request.verify.reason } : null,
        ...schemaOf(collected, request.id),
        duplicate_number: request.duplicateNumber,
        ...(request.dedupeKey === null ? {} : { dedupe_key: request.dedupeKey }),
        ...(attempt && request.attemptId !== null
          ? {
              delivery_id: attempt.delivery,
              event_id: attempt.event,
              ...(attempt.consumerEventId === null ? {} : { consumer_event_id: attempt.consumerEventId }),
              attempt: attempt.n,
              attempt_id: request.attemptId,
              attempt_outcome: attempt.outcome,
            }
          : {}),
        ...simulated(attempt?.simulationId, request.storedAt),
      },
    })
  }
  for (const { delivery, event, body, attempts, simulationId } of collected.deliveries) {
    for (const attempt of attempts) {
      if (captured.has(attempt.id)) continue
      out.push({
        startedAt: attempt.started_at,
        method: 'POST',
        url: attempt.url ?? 'http://unsent.invalid/',
        httpVersion: 'HTTP/1.1',
        headers: parsePairs(attempt.request_headers_json),
        body,
        response: attempt.status_code === null ? null : { status: attempt.status_code, headers: parsePairs(attempt.response_headers_json), body: attempt.response_body ?? Buffer.alloc(0) },
        timeMs: attempt.duration_ms ?? 0,
        hookloop: {
          source: 'attempt',
          id: attempt.id,
          delivery_id: delivery.id,
          event_id: event.id,
          ...(delivery.consumer_event_id === null ? {} : { consumer_event_id: delivery.consumer_event_id }),
          attempt: attempt.n,
          outcome: attempt.outcome,
          ...simulated(simulationId, attempt.started_wall_at),
        },
      })
    }
  }
  return out.sort((a, b) => a.startedAt - b.startedAt)
}
