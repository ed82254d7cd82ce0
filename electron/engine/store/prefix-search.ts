/**
 * Narrows a read to the rows whose `column` starts with `prefix` in any ASCII case: a range over a
 * NOCASE index on that column, added to `where` and `params`.
 */
export function whereStartsWith(column: string, prefix: string, where: string[], params: unknown[]): void {
  where.push(`${column} COLLATE NOCASE >= ? AND ${column} COLLATE NOCASE < ?`)
  params.push(prefix, `${prefix}\u{10FFFF}`)
}
