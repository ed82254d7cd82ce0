// Named statements over the `rules` table. A rule is stored as its validated definition (JSON);
// position orders the rules of one endpoint (global rules, endpoint_id NULL, have their own order).
import type { Database } from 'better-sqlite3'
import { parseRule, type Rule } from '../../../shared/receiver'
import { badRowsOf, parseJsonAs, readField, withoutBadRows, type BadRow } from './bad-row'
import { prepareWrite } from './changes'

export interface StoredRule {
  id: string
  endpointId: string | null
  position: number
  enabled: boolean
  rule: Rule
  createdAt: number
  /** Counts up with each change of the definition (enabled included): an edit names the one it was made on. */
  revision: number
}

export interface RuleDbRow {
  id: string
  endpoint_id: string | null
  position: number
  enabled: number
  definition_json: string
  created_at: number
  revision: number
  /** The endpoint's slug (joined), to name the rule when it does not parse. */
  endpoint_slug: string | null
}

export interface RuleStore {
  insert(rule: Omit<StoredRule, 'revision'>): void
  /**
   * Replaces the definition (and the enabled flag inside it), if the rule is still at `revision`
   * when one is given: false when it is not (or is gone). The revision counts up.
   */
  update(id: string, rule: Rule, revision?: number): boolean
  setEnabled(id: string, enabled: boolean): boolean
  delete(id: string): boolean
  get(id: string): StoredRule | undefined
  /** Every rule, in endpoint then position order. */
  list(): StoredRule[]
  listFor(endpointId: string | null): StoredRule[]
  /** Moves a rule to position (0-based) among its endpoint's rules and renumbers them. */
  move(id: string, position: number): boolean
  deleteFor(endpointId: string | null): number
  /** The rows list() sets aside: a definition that does not parse. */
  setAside(): BadRow[]
  /** A rule has no default to fall back on: the repair removes it, and says so. */
  repair(bad: BadRow): string
}

const RULE_COLUMNS = 'rules.*, (SELECT slug FROM endpoints WHERE endpoints.id = rules.endpoint_id) AS endpoint_slug'

/**
 * Every rule, in endpoint then position order (id last, so that the order is the same on either
 * engine whatever ties). An export reads them all at once and groups them by endpoint: one
 * statement, and no `endpoint_id IS ?`, which PostgreSQL spells otherwise.
 */
export const RULES_SQL = `SELECT ${RULE_COLUMNS} FROM rules ORDER BY endpoint_id, position, created_at, id`
/** One rule (the engine's get() and the inspector's read, store/detail-reads.ts). */
export const RULE_BY_ID_SQL = `SELECT ${RULE_COLUMNS} FROM rules WHERE id = ?`

// A definition is checked as it was when it was built (parseRule): one that no longer parses names
// itself (bad-row.ts) and the lists set it aside.
export function ruleFromRow(r: RuleDbRow): StoredRule {
  const label = r.endpoint_id === null ? 'every endpoint' : `/h/${r.endpoint_slug ?? r.endpoint_id}`
  const rule = readField({ table: 'rules', id: r.id, label }, 'definition_json', 'a rule (matchers and steps, or a sequence)', () => parseJsonAs(r.definition_json, (v) => parseRule(v)))
  rule.enabled = r.enabled === 1
  return { id: r.id, endpointId: r.endpoint_id, position: r.position, enabled: r.enabled === 1, rule, createdAt: r.created_at, revision: r.revision }
}

export function createRuleStore(db: Database): RuleStore {
  const write = (sql: string) => prepareWrite(db, 'rules', sql)
  const insert = write(
    'INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at) VALUES (@id, @endpoint_id, @position, @enabled, @definition_json, @created_at)',
  )
  const updateDefinition = write('UPDATE rules SET definition_json = ?, enabled = ?, revision = revision + 1 WHERE id = ? AND (? IS NULL OR revision = ?)')
  const updateEnabled = write('UPDATE rules SET enabled = ?, revision = revision + 1 WHERE id = ? AND enabled <> ?')
  const updatePosition = write('UPDATE rules SET position = ? WHERE id = ?')
  const remove = write('DELETE FROM rules WHERE id = ?')
  const removeFor = write('DELETE FROM rules WHERE endpoint_id IS ?')
  const selectById = db.prepare(RULE_BY_ID_SQL)
  const selectAll = db.prepare(RULES_SQL)
  const selectFor = db.prepare(`SELECT ${RULE_COLUMNS} FROM rules WHERE endpoint_id IS ? ORDER BY position, created_at`)

  const listFor = (endpointId: string | null) => withoutBadRows(selectFor.all(endpointId) as RuleDbRow[], ruleFromRow)
  const move = db.transaction((id: string, position: number): boolean => {
    const row = selectById.get(id) as RuleDbRow | undefined
    if (!row) return false
    const others = listFor(row.endpoint_id).filter((r) => r.id !== id)
    const at = Math.max(0, Math.min(position, others.length))
    const ordered = [...others.slice(0, at).map((r) => r.id), id, ...others.slice(at).map((r) => r.id)]
    ordered.forEach((ruleId, index) => updatePosition.run(index, ruleId))
    return true
  })

  return {
    insert: (r) =>
      void insert.run({
        id: r.id,
        endpoint_id: r.endpointId,
        position: r.position,
        enabled: r.enabled ? 1 : 0,
        definition_json: JSON.stringify({ ...r.rule, id: r.id, enabled: r.enabled }),
        created_at: r.createdAt,
      }),
    update: (id, rule, revision) => updateDefinition.run(JSON.stringify({ ...rule, id }), rule.enabled ? 1 : 0, id, revision ?? null, revision ?? null).changes > 0,
    setEnabled: (id, enabled) => updateEnabled.run(enabled ? 1 : 0, id, enabled ? 1 : 0).changes > 0 || selectById.get(id) !== undefined,
    delete: (id) => remove.run(id).changes > 0,
    get: (id) => {
      const row = selectById.get(id) as RuleDbRow | undefined
      return row && ruleFromRow(row)
    },
    list: () => withoutBadRows(selectAll.all() as RuleDbRow[], ruleFromRow),
    listFor,
    move: (id, position) => move(id, position),
    deleteFor: (endpointId) => removeFor.run(endpointId).changes,
    setAside: () => badRowsOf(selectAll.all() as RuleDbRow[], ruleFromRow),
    repair(bad) {
      if (remove.run(bad.id).changes === 0) throw new Error(`rules: no row ${bad.id} to remove`)
      return 'removed the rule (a rule has no default to reset to; add it again from the Endpoints page or a scenario)'
    },
  }
}
