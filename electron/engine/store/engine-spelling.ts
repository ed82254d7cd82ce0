// The few pieces of SQL that SQLite and PostgreSQL spell differently and that no rule of
// postgres-dialect.ts can carry over without knowing what the text means (docs/ARCHITECTURE.md,
// "Two store engines"). Each is one description with both spellings beside each other, so a
// statement built from them is still written once.
import { EVENT_TYPE_HEADERS } from '../../../shared/providers'
import type { StoreKind } from './sql-engine'

/**
 * Null-safe equality (`a IS b`: NULL is NULL): SQLite's `IS`, PostgreSQL's `IS NOT DISTINCT FROM`.
 * PostgreSQL finds no row by index through IS NOT DISTINCT FROM (it filters every row): a read that
 * should probe an index spells it with valueIs or sameAsProbe instead.
 */
export const sameAs = (kind: StoreKind): string => (kind === 'sqlite' ? 'IS' : 'IS NOT DISTINCT FROM')

/**
 * `key` the same dedupe key as `other` (a column, or `?` given twice), spelt so that it walks
 * requests_by_dedupe_key. On a data folder that index keeps the key COLLATE NOCASE (schema 32), so
 * that one index serves both the dedupe probe and the search of event ids in any case, instead of
 * two indexes in random order each capture writes: a plain `=` cannot use it, so the key is matched
 * case-blind (the index), then exactly (a key's case is its own: `evt_A` is not `evt_a`).
 * PostgreSQL keeps its key index in the key's own order: `=`.
 */
export const sameDedupeKey = (kind: StoreKind, key: string, other: string): string =>
  kind === 'sqlite' ? `${key} COLLATE NOCASE = ${other} AND ${key} = ${other}` : `${key} = ${other}`

/** The parameters of sameDedupeKey(kind, key, '?'): the key once on PostgreSQL, twice on a data folder. */
export const dedupeKeyParams = (kind: StoreKind, key: string): string[] => (kind === 'sqlite' ? [key, key] : [key])

/**
 * `column` null-safely equal to a value known when the statement is made: `IS NULL` for null, else
 * `= ?` with the value its parameter. The same on both engines, and an index condition on both.
 */
export const valueIs = (column: string, value: string | null): { sql: string; params: unknown[] } =>
  value === null ? { sql: `${column} IS NULL`, params: [] } : { sql: `${column} = ?`, params: [value] }

/**
 * `probe(condition)` with `condition` saying `column` null-safely equal to `other`, a column of
 * another row (a correlated subquery's outer row): SQLite's `column IS other`; on PostgreSQL the
 * probe twice, with `column IS NULL` and with `column = other`, one picked by `other` row by row,
 * so each is an index probe.
 */
export function sameAsProbe(kind: StoreKind, column: string, other: string, probe: (condition: string) => string): string {
  if (kind === 'sqlite') return probe(`${column} IS ${other}`)
  return `(CASE WHEN ${other} IS NULL THEN ${probe(`${column} IS NULL`)} ELSE ${probe(`${column} = ${other}`)} END)`
}

/**
 * A set of values passed as one parameter, a JSON array (`JSON.stringify(ids)`), for `x IN (…)`:
 * one statement text whatever the number of values. SQLite reads it with json_each; PostgreSQL with
 * json_array_elements_text, whose values are text: ids are cast back to BIGINT, and text compares
 * byte by byte as the store's text columns do (COLLATE "C").
 */
export function jsonList(kind: StoreKind, type: 'id' | 'text'): string {
  if (kind === 'sqlite') return 'SELECT value FROM json_each(?)'
  return type === 'id' ? 'SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(? AS JSON))' : 'SELECT value COLLATE "C" FROM json_array_elements_text(CAST(? AS JSON))'
}

/**
 * Bytes that PostgreSQL's convert_from(…, 'UTF8') accepts (RFC 3629 UTF-8 without NUL), as a
 * pattern over their hex: convert_from fails the whole statement on any other byte, where SQLite's
 * CAST(body AS TEXT) reads on. A body that is not UTF-8 has no text on PostgreSQL (no event type,
 * not found by a search of its text).
 */
const UTF8_HEX =
  '^(?:0[1-9a-f]|[1-7][0-9a-f]|c[2-9a-f][89ab][0-9a-f]|d[0-9a-f][89ab][0-9a-f]|e0[ab][0-9a-f][89ab][0-9a-f]|e[1-9a-cef](?:[89ab][0-9a-f]){2}|ed[89][0-9a-f][89ab][0-9a-f]|f0[9ab][0-9a-f](?:[89ab][0-9a-f]){2}|f[1-3](?:[89ab][0-9a-f]){3}|f48[0-9a-f](?:[89ab][0-9a-f]){2})*$'

/** A BLOB column read as text: BYTEA does not cast to its characters on PostgreSQL (it gives \x and hex). */
export function blobText(kind: StoreKind, column: string): string {
  if (kind === 'sqlite') return `CAST(${column} AS TEXT)`
  return `(CASE WHEN encode(${column}, 'hex') ~ '${UTF8_HEX}' THEN convert_from(${column}, 'UTF8') END)`
}

/**
 * The event type a JSON body names (`event_type`, `type` or `event`, the first present), or NULL
 * for a body that is not JSON: SQLite's json_valid / json_extract, PostgreSQL's IS JSON / ->>.
 */
export function bodyEventType(kind: StoreKind, column: string): string {
  const text = blobText(kind, column)
  if (kind === 'sqlite') {
    return `CASE WHEN json_valid(${text}) THEN COALESCE(json_extract(${text}, '$.event_type'), json_extract(${text}, '$.type'), json_extract(${text}, '$.event')) END`
  }
  // The body's text made once (OFFSET 0 keeps the planner from copying it into each use): its
  // UTF-8 check and conversion cost more than the JSON read, and were made up to four times.
  const json = `CAST(t AS JSON)`
  return `(SELECT CASE WHEN t IS JSON OBJECT THEN COALESCE(${json} ->> 'event_type', ${json} ->> 'type', ${json} ->> 'event') END FROM (SELECT ${text} AS t OFFSET 0) body_text)`
}

/**
 * The event type a request's headers name (EVENT_TYPE_HEADERS, the first of that list present with
 * a value), or NULL: `column` holds `[[name, value], …]`, names as they arrived. Names are
 * constants of the provider packs, spelled into the text. A row whose headers are not a JSON array
 * (a bad row) names none rather than failing the page.
 */
export function headerEventType(kind: StoreKind, column: string): string {
  const names = EVENT_TYPE_HEADERS.map((name) => {
    if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`not a header name: ${name}`)
    return `'${name}'`
  })
  const rank = `CASE lower(name) ${names.map((name, i) => `WHEN ${name} THEN ${i}`).join(' ')} END`
  // Most requests carry none of these headers: a search of the column's text for their names
  // (ASCII case ignored) says so without reading its JSON, which cost more than the rest of a
  // timeline row's read. Hookloop writes header names as they arrived, never with a letter
  // escaped, so a name the JSON holds is in its text.
  if (kind === 'sqlite') {
    const named = names.map((name) => `instr(lower(${column}), ${name}) > 0`).join(' OR ')
    const pairs = `SELECT json_extract(h.value, '$[0]') AS name, trim(json_extract(h.value, '$[1]')) AS value FROM json_each(${column}) h`
    return `CASE WHEN (${named}) AND json_valid(${column}) AND json_type(${column}) = 'array' THEN (SELECT value FROM (${pairs}) WHERE lower(name) IN (${names.join(', ')}) AND value <> '' ORDER BY ${rank} LIMIT 1) END`
  }
  // The column's text folded once (OFFSET 0 keeps the planner from folding it for each name).
  const named = `(SELECT ${names.map((name) => `strpos(folded, ${name}) > 0`).join(' OR ')} FROM (SELECT lower(${column} COLLATE "C") AS folded OFFSET 0) header_text)`
  const pairs = `SELECT h ->> 0 AS name, trim(h ->> 1) AS value FROM json_array_elements(CAST(${column} AS JSON)) h`
  return `CASE WHEN ${named} AND ${column} IS JSON ARRAY THEN (SELECT value FROM (${pairs}) p WHERE lower(name COLLATE "C") IN (${names.join(', ')}) AND value <> '' ORDER BY ${rank} LIMIT 1) END`
}

/** A request's event type: a header that names one (headerEventType), else its body's (bodyEventType). */
export function requestEventType(kind: StoreKind, headersColumn: string, bodyColumn: string): string {
  return `COALESCE(${headerEventType(kind, headersColumn)}, ${bodyEventType(kind, bodyColumn)})`
}

/** Whether the BLOB `column`, read as text, holds the text parameter `?`, ASCII case ignored (as SQLite's lower() folds). */
export function blobHolds(kind: StoreKind, column: string): string {
  if (kind === 'sqlite') return `instr(lower(${blobText(kind, column)}), lower(?)) > 0`
  // COLLATE "C": lower() folds ASCII letters only, as SQLite's does (the server's locale would fold É to é).
  return `strpos(lower(${blobText(kind, column)} COLLATE "C"), lower(CAST(? AS TEXT) COLLATE "C")) > 0`
}
