// A stored definition that no longer parses (a hand edit, a damaged file, a shape an older or newer
// build wrote) is one bad row, never a dead engine: the table's reads name it with a BadRowError,
// its lists set it aside and serve the rest, and `hookloop doctor` (row-doctor.ts) lists and
// repairs it. The words say which row, which field and what was expected, never a schema dump.

/** The tables whose rows are parsed when they are read: the definitions every front door loads, and the folder's saved settings. */
export const CHECKED_TABLES = ['endpoints', 'rules', 'subscriptions', 'settings'] as const
export type CheckedTable = (typeof CHECKED_TABLES)[number]

export interface BadRow {
  table: CheckedTable
  id: string
  /** What a person calls the row: an endpoint's slug, a subscription's name, a rule's endpoint. */
  label: string
  /** The column that does not parse. */
  field: string
  /** What the column should hold, in words. */
  expected: string
  /** What is wrong with it, in the parser's words (its first three problems). */
  problem: string
}

export class BadRowError extends Error {
  override readonly name = 'BadRowError'
  constructor(readonly bad: BadRow) {
    super(describeBadRow(bad))
  }
}

/** One line: `subscriptions row 7c1… ("orders"): policy_json is not a retry policy (max_attempts: expected number, received string)`. */
export function describeBadRow(bad: BadRow): string {
  return `${bad.table} row ${bad.id} (${JSON.stringify(bad.label)}): ${bad.field} is not ${bad.expected} (${bad.problem})`
}

/** A zod error (or any other) as its first few problems, each with its path inside the field. */
function problemsOf(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues
  if (!issues?.length) return error instanceof Error ? error.message : String(error)
  const words = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')
    return path ? `${path}: ${issue.message}` : issue.message
  })
  return words.join('; ') + (issues.length > 3 ? `; and ${issues.length - 3} more` : '')
}

/**
 * Reads one field of a row: `read()` parses it; whatever it throws becomes a BadRowError naming the
 * row and the field. `row` says which row (table, id, label).
 */
export function readField<T>(row: Pick<BadRow, 'table' | 'id' | 'label'>, field: string, expected: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (error instanceof BadRowError) throw error
    throw new BadRowError({ ...row, field, expected, problem: problemsOf(error) })
  }
}

/** JSON.parse, then a check of what came out; a failed check throws its words. */
export function parseJsonAs<T>(text: string, check: (value: unknown) => T): T {
  return check(JSON.parse(text) as unknown)
}

export function stringArray(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error('expected an array of strings')
  return value
}

export function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new Error('expected an object of strings')
  }
  return value as Record<string, string>
}

/** The rows that parse; a bad one is set aside (the doctor names it). Any other error still throws. */
export function withoutBadRows<R, T>(rows: R[], parse: (row: R) => T): T[] {
  return rows.flatMap((row) => {
    try {
      return [parse(row)]
    } catch (error) {
      if (error instanceof BadRowError) return []
      throw error
    }
  })
}

/** The rows withoutBadRows leaves out, each with its first field that does not parse. */
export function badRowsOf<R>(rows: R[], parse: (row: R) => unknown): BadRow[] {
  return rows.flatMap((row) => {
    try {
      parse(row)
      return []
    } catch (error) {
      if (error instanceof BadRowError) return [error.bad]
      throw error
    }
  })
}
