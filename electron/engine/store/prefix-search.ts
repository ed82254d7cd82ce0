/**
 * Narrows a read to the rows whose `column` starts with `prefix` in any ASCII case: a range over a
 * NOCASE index on that column, added to `where` and `params`.
 */
export function whereStartsWith(column: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${column} COLLATE NOCASE >= ? AND ${column} COLLATE NOCASE < ?`)
  params.push(prefix, `${prefix}\u{10FFFF}`)
}

/** ASCII letters lower-cased, as SQLite's lower() and NOCASE fold them (nothing else). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

/**
 * The same search over deliveries' event ids (alias `d`), on two indexes. Hookloop's own event ids
 * are lower-case UUIDs, and a lower-case id starts with the text in any ASCII case exactly when it
 * starts with the text lower-cased: a range of deliveries_by_event, the index every delivery has
 * anyway. Only ids with an ASCII capital are in the NOCASE index (deliveries_by_event_with_capitals,
 * schema 12), so publishing an event with a lower-case id writes one index on event_id, not two.
 */
export function whereDeliveryEventIdStartsWith(alias: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${alias}.id IN (SELECT id FROM deliveries WHERE event_id >= ? AND event_id < ? AND event_id = lower(event_id)
    UNION ALL SELECT id FROM deliveries WHERE event_id <> lower(event_id) AND event_id COLLATE NOCASE >= ? AND event_id COLLATE NOCASE < ?)`)
  const lower = asciiLower(prefix)
  params.push(lower, `${lower}\u{10FFFF}`, prefix, `${prefix}\u{10FFFF}`)
}
