// The store's SQL is written once, in the SQL both engines share (docs/ARCHITECTURE.md, "Two
// store engines"). Where SQLite's spelling has no PostgreSQL twin, the text is carried over here,
// once per statement text, by rules that keep its meaning:
// - `?` parameters become `$1, $2 …`;
// - `INDEXED BY name` is SQLite's plan hint (which index to walk): PostgreSQL plans by itself,
//   so the hint is dropped;
// - `x COLLATE NOCASE` compares ASCII letters case-folded: `lower(x)` on PostgreSQL, whose text
//   columns are COLLATE "C" (schema 15), so lower() folds ASCII only, exactly like NOCASE, and the
//   compared parameter is folded too, as NOCASE folds both sides (in "C" as well: a parameter
//   would otherwise fold by the server's locale, É to é);
// - a result column named in camelCase (`AS endpointId`) keeps its case: PostgreSQL folds
//   unquoted names to lower case, so the name is quoted;
// - `x IS ?` (SQLite's equality that holds for two NULLs too) is `x IS NOT DISTINCT FROM ?`, and
//   `x IS NOT ?` is `x IS DISTINCT FROM ?`; `IS NULL` and `IS NOT NULL` are the same on both.
// Quoted strings, quoted names, comments and dollar-quoted bodies are never touched.

/** The statement text as PostgreSQL takes it. */
export function postgresText(sql: string): string {
  let n = 0
  return mapCode(sql, (code) =>
    code
      .replace(/\s+NOT\s+INDEXED\b|\s+INDEXED\s+BY\s+\w+/gi, '')
      .replace(/([\w.]+)\s+COLLATE\s+NOCASE(\s*(?:>=|<=|<>|!=|=|<|>)\s*\?)?/gi, (_all, column: string, compared: string | undefined) =>
        compared === undefined ? `lower(${column})` : `lower(${column})${compared.slice(0, -1)}lower(CAST(? AS TEXT) COLLATE "C")`,
      )
      .replace(/\bAS\s+([a-z_][a-z0-9_]*[A-Z][A-Za-z0-9_]*)\b/g, 'AS "$1"')
      .replace(/\bIS\s+NOT\s+\?/gi, 'IS DISTINCT FROM ?')
      .replace(/\bIS\s+\?/gi, 'IS NOT DISTINCT FROM ?')
      .replace(/\?/g, () => `$${++n}`),
  )
}

/** `sql` with `change` applied to each stretch of code between strings, quoted names, comments and dollar bodies. */
function mapCode(sql: string, change: (code: string) => string): string {
  let out = ''
  let code = ''
  let i = 0
  const literal = (end: number) => {
    out += change(code) + sql.slice(i, end)
    code = ''
    i = end
  }
  while (i < sql.length) {
    const c = sql[i] as string
    if (c === "'" || c === '"') literal(closingQuote(sql, i, c))
    else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      literal(end === -1 ? sql.length : end)
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      literal(end === -1 ? sql.length : end + 2)
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = (/^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64)) as RegExpExecArray)[0]
      const end = sql.indexOf(tag, i + tag.length)
      literal(end === -1 ? sql.length : end + tag.length)
    } else {
      code += c
      i++
    }
  }
  return out + change(code)
}

function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2
      else return i + 1
    } else i++
  }
  return sql.length
}
