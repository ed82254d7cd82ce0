import { blobHolds } from './engine-spelling'
import type { StoreKind } from './sql-engine'

/**
 * Narrows a read to the rows whose `column` starts with `prefix` in any ASCII case: a range over a
 * NOCASE index on that column, added to `where` and `params`.
 */
export function whereStartsWith(column: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${column} COLLATE NOCASE >= ? AND ${column} COLLATE NOCASE < ?`)
  params.push(prefix, `${prefix}\u{10FFFF}`)
}

/**
 * Requests (alias `r`) whose dedupe key (the event id their sender gave) starts with `prefix` in any
 * ASCII case. On a data folder the keys' case-blind index is requests_by_dedupe_key (schema 32:
 * one index for the dedupe probe and this search), whose first column is the endpoint, so the range
 * is read endpoint by endpoint over the endpoints that hold requests (request_counts keeps a row for
 * each, '' for requests at none); on PostgreSQL a range of requests_by_key_nocase (lower(dedupe_key)).
 */
export function whereRequestKeyStartsWith(kind: StoreKind, prefix: string, where: string[], params: unknown[]): void {
  if (kind !== 'sqlite') return whereStartsWith('r.dedupe_key', prefix, where, params)
  where.push(`r.id IN (SELECT k.id FROM request_counts c JOIN requests k INDEXED BY requests_by_dedupe_key
      ON k.endpoint_id IS NULLIF(c.endpoint_key, '') AND k.dedupe_key COLLATE NOCASE >= ? AND k.dedupe_key COLLATE NOCASE < ?)`)
  params.push(prefix, `${prefix}\u{10FFFF}`)
}

/** ASCII letters lower-cased, as SQLite's lower() and NOCASE fold them (nothing else). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

/**
 * Deliveries (alias `alias`) whose event id starts with `prefix` in any ASCII case, by either name
 * the event goes by: Hookloop's own id or the id its consumer knows it by (consumer_event_id:
 * Stripe's evt_…, X-GitHub-Delivery …). Three ranges, each on its own index, joined by id (an OR
 * would walk every row):
 * - Hookloop's own event ids are lower-case UUIDs, and a lower-case id starts with the text in any
 *   ASCII case exactly when it starts with the text lower-cased: a range of deliveries_by_event,
 *   the index every delivery has anyway;
 * - only ids with an ASCII capital are in the NOCASE index (deliveries_by_event_with_capitals,
 *   schema 12), so publishing an event with a lower-case id writes one index on event_id, not two;
 * - a consumer's id on deliveries_by_consumer_id_nocase (schema 13), which holds only the
 *   deliveries that have one.
 */
export function whereDeliveryEventIdStartsWith(alias: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${alias}.id IN (SELECT id FROM deliveries WHERE event_id >= ? AND event_id < ? AND event_id = lower(event_id)
    UNION ALL SELECT id FROM deliveries WHERE event_id <> lower(event_id) AND event_id COLLATE NOCASE >= ? AND event_id COLLATE NOCASE < ?
    UNION ALL SELECT id FROM deliveries WHERE consumer_event_id COLLATE NOCASE >= ? AND consumer_event_id COLLATE NOCASE < ?)`)
  const lower = asciiLower(prefix)
  params.push(lower, `${lower}\u{10FFFF}`, prefix, `${prefix}\u{10FFFF}`, prefix, `${prefix}\u{10FFFF}`)
}

/**
 * How far back a search reads the bodies of requests without a dedupe key: the newest this many
 * requests. A body has no index, so the bound keeps a search as cheap on a store of millions as on
 * a fresh one; older keyless requests are found by endpoint and time instead.
 */
export const BODY_SEARCH_WINDOW = 5000

/**
 * Captured requests a search finds: those whose dedupe key (the event id their sender gave) starts
 * with `text`, in any ASCII case, and among the newest BODY_SEARCH_WINDOW requests, those without a
 * key whose body holds `text` (ASCII case ignored): a row with no event id is still found by what
 * it carried. Each side reads its own index (the key's case-blind range, a rowid range), joined by id.
 */
export function whereRequestFound(text: string, where: string[], params: unknown[], kind: StoreKind = 'sqlite'): void {
  const keyed: string[] = []
  whereRequestKeyStartsWith(kind, text, keyed, params)
  params.push(BODY_SEARCH_WINDOW, text)
  where.push(
    `r.id IN (SELECT r.id FROM requests r WHERE ${keyed.join(' AND ')}
       UNION ALL SELECT r.id FROM requests r WHERE r.id > (SELECT COALESCE(MAX(id), 0) FROM requests) - ?
         AND r.dedupe_key IS NULL AND ${blobHolds(kind, 'r.body')})`,
  )
}
