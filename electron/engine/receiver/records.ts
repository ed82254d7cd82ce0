// Store rows → RequestRecord (decoded JSON columns).
import type { RequestRecord } from '../../../shared/receiver-records'
import type { RequestRow } from '../store/requests'

export function toRequestRecord(row: RequestRow): RequestRecord {
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
