// A captured request as a test reads it: what arrived, how the receiver judged it (signature
// and schema verdicts, duplicate number) and what it did (the fault applied, the status answered).
import type { RequestRecord, ResponseOutcome, SchemaVerdict, Step } from '../../shared/receiver'
import type { VerifyResult } from '../../shared/signatures'

/** valid / invalid: the endpoint's scheme checked the signature; unverified: the endpoint has no scheme. */
export type Verdict = 'valid' | 'invalid' | 'unverified'

export interface ReceivedRequest {
  /** The request's id in the receiver's store. */
  id: number
  /** The endpoint's slug; null for a path no endpoint answers (recorded as unmatched). */
  endpoint: string | null
  method: string
  /** The path as sent, without the query. */
  path: string
  query: string
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>
  /** The body as UTF-8 text (use json() for a JSON body). */
  body: string
  /** The body parsed as JSON; throws naming the request when it is not JSON. */
  json(): unknown
  /** The event id the endpoint's dedupe key read (GitHub: X-GitHub-Delivery); null without a dedupe key. */
  eventId: string | null
  verdict: Verdict
  /** The signature check in full (reason, detail, which secret matched); null when unverified. */
  verify: VerifyResult | null
  /**
   * The body against the schema its provider publishes (docs/receiver.md, "Schema verdict"):
   * valid, invalid (`problems`: pointer, expected, got, the schema's words) or no-schema (`reason`);
   * null when the endpoint verifies no provider's scheme (and, in requests(), until it is judged:
   * nextRequest() waits for it). `toMatchProviderSchema()` reads it.
   */
  schema: SchemaVerdict | null
  /** Which arrival of its event id this is: 1 the first, 2 the second …; null without an event id. */
  arrival: number | null
  /** 2, 3 … for a duplicate (a later arrival of an event id inside the window), null otherwise. */
  duplicate: number | null
  /** The id of the event id's first arrival, for a duplicate. */
  duplicateOf: number | null
  /** The rule step that answered (a reply status, a reset, a delay …); null for the default answer. */
  fault: Step | null
  /** The status answered; null when the connection was closed or reset instead. */
  status: number | null
  outcome: ResponseOutcome | 'pending'
  /** Wall time of arrival, ms since the epoch. */
  receivedAt: number
}

function headerMap(pairs: readonly [string, string][]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of pairs) {
    const key = name.toLowerCase()
    out[key] = key in out ? `${out[key]}, ${value}` : value
  }
  return out
}

export function toReceivedRequest(record: RequestRecord, endpoint: string | null, outcome: ResponseOutcome | 'pending', schema: SchemaVerdict | null = null): ReceivedRequest {
  const body = Buffer.from(record.body).toString('utf8')
  const arrival = record.dedupeKey === null ? null : (record.duplicateNumber ?? 1)
  return {
    id: record.id,
    endpoint,
    method: record.method,
    path: record.path,
    query: record.query,
    headers: headerMap(record.headers),
    body,
    json() {
      try {
        return JSON.parse(body) as unknown
      } catch (error) {
        throw new Error(`request ${record.id} (${record.method} ${record.path}) has no JSON body: ${(error as Error).message}`)
      }
    },
    eventId: record.dedupeKey,
    verdict: record.verify === null ? 'unverified' : record.verify.valid ? 'valid' : 'invalid',
    verify: record.verify,
    schema,
    arrival,
    duplicate: record.duplicateOf === null ? null : (record.duplicateNumber ?? null),
    duplicateOf: record.duplicateOf,
    fault: record.fault?.step ?? null,
    status: record.response.status,
    outcome,
    receivedAt: record.receivedAt,
  }
}
