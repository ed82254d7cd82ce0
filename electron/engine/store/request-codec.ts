// A Capture (the receiver's domain record of one request) ⇄ its `requests` row. The only place
// that knows how a captured request is laid out in SQLite: JSON columns, 0/1 flags, the marks.
import type { Capture, DedupeKeyMark, RequestRecord } from '../../../shared/receiver'
import type { RequestOutcomeRow, RequestRow } from './requests'

const json = (value: unknown) => JSON.stringify(value)
// A frozen value (the receiver's own plain answers' headers, built once) cannot change: its JSON
// is made once, not once per request.
const frozenJson = new WeakMap<object, string>()
function jsonOnce(value: object | null | undefined): string {
  if (value === null || typeof value !== 'object') return value === undefined ? 'null' : json(value)
  if (!Object.isFrozen(value)) return json(value)
  let text = frozenJson.get(value)
  if (text === undefined) {
    text = json(value)
    frozenJson.set(value, text)
  }
  return text
}
const toBuffer = (bytes: Uint8Array | null): Buffer | null => (bytes === null ? null : Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))

type CaptureFault = NonNullable<Capture['fault']>
// faultJson writes these keys by hand: a key added to the fault fails to compile here instead of
// going missing from the column.
const _FAULT_KEYS = { outcome: true, step: true, steps: true, hold: true } satisfies Record<keyof CaptureFault, true>

/** The fault column: its plan's steps (frozen when they are an endpoint's default plan) made into JSON once. */
function faultJson(fault: CaptureFault): string {
  // The same text as JSON.stringify(fault), key for key.
  // A breakpoint's hold only where there was one: every other row's text is unchanged.
  const hold = fault.hold === undefined ? '' : `,"hold":${json(fault.hold)}`
  return `{"outcome":${json(fault.outcome)},"step":${jsonOnce(fault.step)},"steps":${jsonOnce(fault.steps)}${hold}}`
}

export function encodeCapture(capture: Capture): RequestRow {
  const mark = capture.dedupeKeyMark ?? null
  return {
    id: capture.id,
    endpoint_id: capture.endpointId,
    received_at: capture.receivedAt,
    method: capture.method,
    path: capture.path,
    query: capture.query,
    http_version: capture.httpVersion,
    headers_json: json(capture.headers),
    body: toBuffer(capture.body),
    body_size: capture.bodySize,
    body_truncated: capture.bodyTruncated ? 1 : 0,
    remote_address: capture.remoteAddress,
    verify_valid: capture.verify === null ? null : capture.verify.valid ? 1 : 0,
    verify_reason: capture.verify?.reason ?? null,
    verify_json: capture.verify === null ? null : json(capture.verify),
    dedupe_key: capture.dedupeKey,
    duplicate_of: capture.duplicateOf,
    duplicate_number: capture.duplicateNumber,
    rule_id: capture.ruleId,
    fault_json: capture.fault === null ? null : faultJson(capture.fault),
    response_status: capture.response.status,
    response_headers_json: capture.response.status === null && capture.response.headers.length === 0 ? null : jsonOnce(capture.response.headers),
    response_body: toBuffer(capture.response.body),
    response_ms: capture.response.ms,
    attempt_id: capture.attemptId,
    dedupe_key_mark: mark?.reason ?? null,
    dedupe_key_bytes: mark?.bytes ?? null,
    not_inspected: capture.notInspected ?? null,
    refused_reason: capture.refusedReason ?? null,
    stored_at: capture.storedAt ?? capture.receivedAt,
  }
}

/** The answer part of a capture, as the update written once the request is answered. */
export function encodeOutcome(capture: Capture): RequestOutcomeRow {
  return {
    id: capture.id,
    fault_json: capture.fault === null ? null : faultJson(capture.fault),
    response_status: capture.response.status,
    response_headers_json: capture.response.headers.length === 0 && capture.response.status === null ? null : jsonOnce(capture.response.headers),
    response_body: toBuffer(capture.response.body),
    response_ms: capture.response.ms ?? 0,
  }
}

function markOf(row: Pick<RequestRow, 'dedupe_key_mark' | 'dedupe_key_bytes'>): DedupeKeyMark | null {
  const reason = row.dedupe_key_mark
  if (reason !== 'too_long' && reason !== 'not_utf8') return null
  return { reason, bytes: row.dedupe_key_bytes ?? 0 }
}

/** Just the receiver's marks of a row (for readers that decode the rest themselves). */
export function decodeMarks(row: Pick<RequestRow, 'dedupe_key_mark' | 'dedupe_key_bytes' | 'not_inspected' | 'refused_reason'>): Pick<RequestRecord, 'dedupeKeyMark' | 'notInspected' | 'refusedReason'> {
  return { dedupeKeyMark: markOf(row), notInspected: row.not_inspected ?? null, refusedReason: row.refused_reason ?? null }
}

export function decodeCapture(row: RequestRow): RequestRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    receivedAt: row.received_at,
    method: row.method,
    path: row.path,
    query: row.query,
    httpVersion: row.http_version,
    headers: JSON.parse(row.headers_json) as [string, string][],
    body: row.body ?? new Uint8Array(0),
    bodySize: row.body_size,
    bodyTruncated: row.body_truncated === 1,
    remoteAddress: row.remote_address,
    verify: row.verify_json ? (JSON.parse(row.verify_json) as RequestRecord['verify']) : null,
    dedupeKey: row.dedupe_key,
    // Rows from before the marks existed have no such columns set: undefined reads as null.
    dedupeKeyMark: markOf(row),
    notInspected: row.not_inspected ?? null,
    refusedReason: row.refused_reason ?? null,
    storedAt: row.stored_at ?? row.received_at,
    duplicateOf: row.duplicate_of,
    duplicateNumber: row.duplicate_number,
    ruleId: row.rule_id,
    fault: row.fault_json ? (JSON.parse(row.fault_json) as RequestRecord['fault']) : null,
    response: {
      status: row.response_status,
      headers: row.response_headers_json ? (JSON.parse(row.response_headers_json) as [string, string][]) : [],
      body: row.response_body,
      ms: row.response_ms,
    },
    attemptId: row.attempt_id,
  }
}
