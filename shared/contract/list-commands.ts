// The lists a script reads (docs/cli.md, "Listing what is stored"): captured requests and
// deliveries under filters, newest first, each row led by the id other commands take. The same
// rows `hookloop requests` and `hookloop deliveries` print from a data folder or a team store
// (electron/engine/store/list-reads.ts) are answered by a served Hookloop to a machine with an API
// token (`--server URL`): a viewer's reads. Spread into messages.ts.
import { z } from 'zod'
import { DELIVERY_STATUSES, type DeliveryStatus } from '../sender'

/**
 * The words a request's status is filtered by, as the app shows them: its signature verdict
 * (valid, invalid, none = not verified: the badge's "✓ sig", "✗ …", "no sig"), a duplicate arrival
 * (the "dup" badge), or refused by the receiver itself (413, 503 …); and its body against its
 * provider's schema.
 */
export const REQUEST_STATUSES = ['valid', 'invalid', 'none', 'duplicate', 'refused', 'schema-valid', 'schema-invalid', 'schema-none'] as const
export type RequestStatus = (typeof REQUEST_STATUSES)[number]

/** The most rows one list returns. */
export const LIST_LIMIT_MAX = 100_000

const common = {
  /** Our endpoint, by slug or id. */
  endpoint: z.string().min(1).max(200).optional(),
  /** Event ids that start with this text, in any ASCII case. */
  eventIdPrefix: z.string().trim().min(1).max(200).optional(),
  /** Rows stored from this wall time on (ms since the epoch). */
  sinceWall: z.number().int().optional(),
  limit: z.number().int().min(1).max(LIST_LIMIT_MAX),
}

export const listSchemas = {
  'request.list': z.object({ ...common, statuses: z.array(z.enum(REQUEST_STATUSES)).max(REQUEST_STATUSES.length).optional() }).strict(),
  'delivery.list': z
    .object({
      ...common,
      /** A subscription, by name or id. */
      subscription: z.string().min(1).max(200).optional(),
      statuses: z.array(z.enum(DELIVERY_STATUSES)).max(DELIVERY_STATUSES.length).optional(),
    })
    .strict(),
} as const

export interface RequestListRow {
  id: number
  endpointId: string | null
  endpointSlug: string | null
  /** Wall time for received traffic; the attempt's clock for a request one of our attempts made (docs/time.md). */
  receivedAt: number
  /** Wall time it was stored (its first byte), whatever clock receivedAt is on: the list's order and `--since`. */
  storedAt: number
  /** The simulation whose attempt made it, and where that simulation's clock started: receivedAt is on that clock. Null: receivedAt is a wall time. */
  simulationId: string | null
  simulationStartedAt: number | null
  method: string
  path: string
  /** The dedupe key: the provider's event id, when the endpoint takes one. */
  eventId: string | null
  verdict: 'valid' | 'invalid' | 'none'
  verifyReason: string | null
  /** The receiver's arrival number for the event id at this endpoint (1 = first). */
  duplicateNumber: number | null
  refusedReason: string | null
  responseStatus: number | null
  bodySize: number
  /** The attempt that sent it, when one of our deliveries did (loop mode). */
  attemptId: number | null
  /** Its body against its provider's schema: null when not judged (no provider, or not yet). */
  schemaVerdict: 'valid' | 'invalid' | 'no-schema' | null
  /** Invalid: the first place the body misses its schema, and what the schema expects there. */
  schemaPointer: string | null
  schemaExpected: string | null
}

export interface DeliveryListRow {
  id: number
  /** Hookloop's own event id. */
  eventId: string
  /** The id the consumer knows the event by (a provider's evt_…, X-GitHub-Delivery …) when it is not eventId; null otherwise. */
  consumerEventId: string | null
  eventType: string
  subscriptionId: string
  subscriptionName: string | null
  status: DeliveryStatus
  attempts: number
  lastStatusCode: number | null
  /** On the delivery's clock (its simulation's, or wall). */
  createdAt: number
  createdWallAt: number | null
  simulationId: string | null
  /** Where the delivery's simulation's clock started (createdAt is on that clock); null on the wall clock. */
  simulationStartedAt: number | null
  /** The endpoint of ours it delivers to, or null for a URL. */
  endpointId: string | null
}

/** As `hookloop requests --json` and `hookloop deliveries --json` print them. */
export interface ListResponses {
  'request.list': { requests: RequestListRow[] }
  'delivery.list': { deliveries: DeliveryListRow[] }
}
