/**
 * Narrows a read to the rows whose `column` starts with `prefix` in any ASCII case: a range over a
 * NOCASE index on that column, added to `where` and `params`.
 */
export function whereStartsWith(column: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${column} COLLATE NOCASE >= ? AND ${column} COLLATE NOCASE < ?`)
  params.push(prefix, `${prefix}\u{10FFFF}`)
}

/**
 * Deliveries whose event id starts with `prefix`, by either name it goes by: Hookloop's own id or
 * the id its consumer knows it by (consumer_event_id: Stripe's evt_…, X-GitHub-Delivery …). Each
 * side is a range over its own NOCASE index, joined by id: an OR of the two would walk every row.
 */
export function whereEventIdStartsWith(prefix: string, where: string[], params: unknown[]): void {
  const own: string[] = []
  const consumer: string[] = []
  whereStartsWith('d.event_id', prefix, own, params)
  whereStartsWith('d.consumer_event_id', prefix, consumer, params)
  // The subqueries name their table d as well: they read only their own rows (nothing correlates).
  where.push(`d.id IN (SELECT d.id FROM deliveries d WHERE ${own.join(' AND ')} UNION ALL SELECT d.id FROM deliveries d WHERE ${consumer.join(' AND ')})`)
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
 * it carried. Each side reads its own index (the key's NOCASE range, a rowid range), joined by id.
 */
export function whereRequestFound(text: string, where: string[], params: unknown[]): void {
  const keyed: string[] = []
  whereStartsWith('r.dedupe_key', text, keyed, params)
  params.push(BODY_SEARCH_WINDOW, text)
  where.push(
    `r.id IN (SELECT r.id FROM requests r WHERE ${keyed.join(' AND ')}
       UNION ALL SELECT r.id FROM requests r WHERE r.id > (SELECT COALESCE(MAX(id), 0) FROM requests) - ?
         AND r.dedupe_key IS NULL AND instr(lower(CAST(r.body AS TEXT)), lower(?)) > 0)`,
  )
}
