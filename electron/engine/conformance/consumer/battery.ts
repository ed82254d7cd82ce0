// The requests of the consumer check. Each is what Hookloop's sender would send, built by the
// sender's own header code (buildHeaders: content type, event id header, sign()) with the same
// signing faults a scenario can ask for; only the missing-signature probe removes a header after.
import { randomUUID } from 'node:crypto'
import { SCHEMES, type CustomHmacOptions, type SchemeId } from '../../../../shared/signatures'
import type { SendFault } from '../../../../shared/sender'
import { sign, freshId } from '../../signatures'
import { buildHeaders, defaultEventIdHeader } from '../../sender'

export const PROBE_KINDS = ['valid', 'duplicate', 'wrong_signature', 'missing_signature', 'stale_timestamp', 'malformed_body', 'latency'] as const
export type ProbeKind = (typeof PROBE_KINDS)[number]

export interface BatteryInput {
  url: string; scheme: SchemeId; secret: string; custom?: CustomHmacOptions
  eventType: string
  /** A JSON document to send instead of the generated event (its `id`, when it has one, is replaced per request). */
  payload?: unknown
}

export interface ProbeRequest {
  kind: ProbeKind
  eventId: string
  headers: Record<string, string>
  body: Buffer
}

/** Whether the scheme signs a timestamp, so a stale one can be tried. */
export function signsTimestamp(scheme: SchemeId, custom?: CustomHmacOptions): boolean {
  if (scheme === 'custom') return (custom?.signedTemplate ?? '{body}').includes('{timestamp}')
  return SCHEMES[scheme].toleranceSeconds !== null
}

/** How far in the past the stale probe's timestamp is: well beyond the scheme's tolerance. */
export function staleBySeconds(scheme: SchemeId, custom?: CustomHmacOptions): number {
  const tolerance = scheme === 'custom' ? (custom?.toleranceSeconds ?? 300) : (SCHEMES[scheme].toleranceSeconds ?? 300)
  return Math.max(3600, tolerance * 2)
}

function signatureHeader(scheme: SchemeId, custom?: CustomHmacOptions): string | null {
  return scheme === 'custom' ? (custom?.header.toLowerCase() ?? null) : SCHEMES[scheme].signatureHeader
}

/**
 * The event's JSON at signing time `at` (ms). Linear carries its timestamp in the body
 * (`webhookTimestamp`, ms), so for Linear the body holds the time that the stale probe moves back.
 */
export function eventBody(input: BatteryInput, eventId: string, at: number): Buffer {
  const payload = input.payload
  const bodyTime = input.scheme === 'linear' ? { webhookTimestamp: at } : {}
  if (payload !== undefined) {
    const isObject = typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    if (!isObject) return Buffer.from(JSON.stringify(payload))
    return Buffer.from(JSON.stringify({ ...payload, ...('id' in payload ? { id: eventId } : {}), ...bodyTime }))
  }
  return Buffer.from(JSON.stringify({ id: eventId, type: input.eventType, created_at: new Date(at).toISOString(), ...bodyTime, data: { source: 'hookloop check' } }))
}

/** Cut inside the object: a JSON parser must refuse it, yet it is signed correctly. */
function malformedBody(eventId: string, eventType: string): Buffer {
  return Buffer.from(`{"id":${JSON.stringify(eventId)},"type":${JSON.stringify(eventType)},"data":{"source":"hookloop check"`)
}

export function newEventId(scheme: SchemeId): string {
  // Scheme-style ids where the scheme has one (msg_… for Standard Webhooks); else a UUID.
  return scheme === 'custom' ? randomUUID() : freshId(scheme)
}

/**
 * One request of the battery at clock time `now` (ms). The duplicate probe passes the valid
 * probe's event id and body; a sign() problem (a secret in the wrong format) throws here, before
 * anything is sent.
 */
export function buildProbe(kind: ProbeKind, input: BatteryInput, now: number, same?: { eventId: string; body: Buffer }): ProbeRequest {
  const eventId = same?.eventId ?? newEventId(input.scheme)
  const staleBy = staleBySeconds(input.scheme, input.custom)
  const signedAt = kind === 'stale_timestamp' ? now - staleBy * 1000 : now
  const body = kind === 'malformed_body' ? malformedBody(eventId, input.eventType) : (same?.body ?? eventBody(input, eventId, signedAt))
  const faults: SendFault[] = kind === 'wrong_signature' ? [{ type: 'wrong-secret' }] : kind === 'stale_timestamp' ? [{ type: 'stale-timestamp', by_s: staleBy }] : []
  const custom = input.custom
  const { headers, body: signedBody } = buildHeaders({
    scheme: input.scheme,
    secret: input.secret,
    retiredSecret: undefined,
    eventId,
    eventIdHeader: custom?.idHeader ?? defaultEventIdHeader(input.scheme),
    extraHeaders: {},
    body,
    url: input.url,
    now,
    faults,
    sign: (scheme, signInput) => sign(scheme, custom ? { ...signInput, custom } : signInput),
  })
  headers['user-agent'] = 'Hookloop-Check/0.1'
  if (kind === 'missing_signature') {
    const name = signatureHeader(input.scheme, custom)
    if (name !== null) delete headers[name]
    // GitHub also sends the legacy SHA-1 signature; missing means none at all.
    if (input.scheme === 'github') delete headers['x-hub-signature']
  }
  // A scheme that signs inside the body (Mailgun) sends the signed body; missing, the body as built.
  return { kind, eventId, headers, body: kind === 'missing_signature' ? body : (signedBody ?? body) }
}
