// Captured requests → what the sender saw (outcome, duration) and the groups per event.
import type { ObservedArrival } from '../../../../shared/conformance'
import { classifyOutcome, type AttemptOutcome, type Policy } from '../../../../shared/sender'
import type { RequestRecord } from '../../../../shared/receiver'

/** The sender's view of our answer. null for a request still being answered. */
export function senderOutcome(request: RequestRecord, policy: Pick<Policy, 'timeout_ms'>): { outcome: AttemptOutcome; duration_ms: number } | null {
  const ms = request.response.ms ?? 0
  const fault = request.fault?.outcome
  // An answer slower than the sender's timeout was never seen by the sender: it timed out first.
  if (fault === 'timed_out' || fault === 'client_gone' || ms > policy.timeout_ms) return { outcome: 'timeout', duration_ms: policy.timeout_ms }
  switch (fault) {
    case 'pending':
      return null
    case 'reset':
      return { outcome: 'reset', duration_ms: ms }
    case 'closed':
    case 'malformed':
      return { outcome: 'connection_error', duration_ms: ms }
    case undefined:
    case 'replied':
    case 'refused':
    case 'store_failed':
      return request.response.status === null ? { outcome: 'connection_error', duration_ms: ms } : { outcome: `http_${request.response.status}`, duration_ms: ms }
    default: {
      const never: never = fault
      throw new Error(`unknown response outcome ${String(never)}`)
    }
  }
}

function header(request: RequestRecord, name: string): string | null {
  const pair = request.response.headers.find(([n]) => n.toLowerCase() === name)
  return pair ? pair[1] : null
}

export function toArrivals(requests: readonly RequestRecord[], policy: Policy): ObservedArrival[] {
  const out: ObservedArrival[] = []
  for (const request of requests) {
    const seen = senderOutcome(request, policy)
    if (!seen) continue
    const status = request.response.status
    out.push({
      n: out.length + 1,
      request_id: request.id,
      at: request.receivedAt,
      outcome: seen.outcome,
      decision: classifyOutcome(policy, seen.outcome),
      duration_ms: seen.duration_ms,
      location: status !== null && status >= 300 && status < 400 ? header(request, 'location') : null,
      retry_after: header(request, 'retry-after'),
    })
  }
  return out
}

export interface RequestGroup {
  key: string
  key_source: 'dedupe_key' | 'event_id' | 'request'
  requests: RequestRecord[]
}

/** The event id a body names (Hookloop's envelope, and the common `id` field), if any. */
function eventIdOf(body: Uint8Array): string | null {
  if (body.length === 0 || body.length > 1_000_000) return null
  try {
    const value = JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>
    for (const field of ['event_id', 'id']) if (typeof value[field] === 'string' || typeof value[field] === 'number') return String(value[field])
  } catch {
    // not JSON: grouped by itself
  }
  return null
}

/** Per event: the endpoint's dedupe key when it has one, else the body's event id, else alone. In arrival order. */
export function groupByEvent(requests: readonly RequestRecord[]): RequestGroup[] {
  const sorted = [...requests].sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id)
  const groups = new Map<string, RequestGroup>()
  for (const request of sorted) {
    const eventId = request.dedupeKey === null ? eventIdOf(request.body) : null
    const source: RequestGroup['key_source'] = request.dedupeKey !== null ? 'dedupe_key' : eventId !== null ? 'event_id' : 'request'
    const key = request.dedupeKey ?? eventId ?? `request ${request.id}`
    const id = `${source}:${key}`
    const group = groups.get(id) ?? { key, key_source: source, requests: [] }
    group.requests.push(request)
    groups.set(id, group)
  }
  return [...groups.values()]
}
