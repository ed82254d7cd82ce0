import { describe, expect, it } from 'vitest'
import { postgresText } from '../../../electron/engine/store/postgres-dialect'

describe('postgresText: the one SQL as PostgreSQL takes it', () => {
  it('numbers each ? in order', () => {
    expect(postgresText('SELECT * FROM requests WHERE id > ? AND endpoint_id = ? LIMIT ?')).toBe('SELECT * FROM requests WHERE id > $1 AND endpoint_id = $2 LIMIT $3')
  })

  it('leaves a ? inside a string, a quoted name or a comment alone', () => {
    expect(postgresText(`SELECT '?', 'it''s ?', "a?b" FROM t WHERE x = ? -- why?\nAND y = ? /* or? */`)).toBe(
      `SELECT '?', 'it''s ?', "a?b" FROM t WHERE x = $1 -- why?\nAND y = $2 /* or? */`,
    )
  })

  it('leaves a dollar-quoted body alone', () => {
    expect(postgresText('CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 WHERE ? AS fooBar $$ LANGUAGE sql; SELECT ?')).toBe(
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 WHERE ? AS fooBar $$ LANGUAGE sql; SELECT $1',
    )
  })

  it("drops SQLite's plan hints", () => {
    expect(postgresText('SELECT id FROM requests r INDEXED BY requests_by_stored_at WHERE r.id > ? ORDER BY id')).toBe('SELECT id FROM requests r WHERE r.id > $1 ORDER BY id')
    expect(postgresText('SELECT id FROM requests NOT INDEXED WHERE id = ?')).toBe('SELECT id FROM requests WHERE id = $1')
  })

  it('folds both sides of a NOCASE comparison with lower(), and a bare NOCASE column', () => {
    expect(postgresText('WHERE r.dedupe_key COLLATE NOCASE >= ? AND r.dedupe_key COLLATE NOCASE < ?')).toBe('WHERE lower(r.dedupe_key) >= lower(CAST($1 AS TEXT) COLLATE "C") AND lower(r.dedupe_key) < lower(CAST($2 AS TEXT) COLLATE "C")')
    expect(postgresText('ORDER BY name COLLATE NOCASE')).toBe('ORDER BY lower(name)')
  })

  it('quotes result names in camelCase so they keep their case, and only those', () => {
    expect(postgresText(`SELECT r.endpoint_id AS endpointId, r.id AS id, 'x AS notMe' AS label FROM requests AS r`)).toBe(
      `SELECT r.endpoint_id AS "endpointId", r.id AS id, 'x AS notMe' AS label FROM requests AS r`,
    )
  })

  it("carries SQLite's null-safe IS ? over, and leaves IS NULL alone", () => {
    expect(postgresText('WHERE endpoint_id IS ? AND claimed_by IS NOT ? AND x IS NULL AND y IS NOT NULL')).toBe(
      'WHERE endpoint_id IS NOT DISTINCT FROM $1 AND claimed_by IS DISTINCT FROM $2 AND x IS NULL AND y IS NOT NULL',
    )
  })
})
