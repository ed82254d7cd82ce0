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
