import { describe, expect, it } from 'vitest'
import { numberedParameters } from '../../../electron/engine/store/sql-engine'

describe('numberedParameters', () => {
  it('numbers each ? in order', () => {
    expect(numberedParameters('SELECT * FROM requests WHERE id > ? AND endpoint_id = ? LIMIT ?')).toBe('SELECT * FROM requests WHERE id > $1 AND endpoint_id = $2 LIMIT $3')
  })

  it('leaves a ? inside a string, a quoted name or a comment alone', () => {
    expect(numberedParameters(`SELECT '?', 'it''s ?', "a?b" FROM t WHERE x = ? -- why?\nAND y = ? /* or? */`)).toBe(
      `SELECT '?', 'it''s ?', "a?b" FROM t WHERE x = $1 -- why?\nAND y = $2 /* or? */`,
    )
  })

  it('leaves a dollar-quoted body alone', () => {
    expect(numberedParameters('CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 WHERE ? $$ LANGUAGE sql; SELECT ?')).toBe(
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 WHERE ? $$ LANGUAGE sql; SELECT $1',
    )
  })
})
