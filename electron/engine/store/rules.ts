// Named statements over the `rules` table. A rule is stored as its validated definition (JSON);
// position orders the rules of one endpoint (global rules, endpoint_id NULL, have their own order).
// The statements run on either store engine through SqlEngine, awaited.
import type { Database } from 'better-sqlite3'
import { parseRule, type Rule } from '../../../shared/receiver'
import { badRowsOf, parseJsonAs, readField, withoutBadRows, type BadRow } from './bad-row'
import { prepareWrite } from './changes'
import { tellingOthers } from './engine-writes'
import type { SqlEngine } from './sql-engine'

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
  /** Adds a rule, at `position` (0-based) among its endpoint's rules when given, else where it says; one transaction. */
  insert(rule: Omit<StoredRule, 'revision'>, position?: number): Promise<void>
  /**
   * Replaces the definition (and the enabled flag inside it), if the rule is still at `revision`
   * when one is given: false when it is not (or is gone). The revision counts up. The check is
   * in the UPDATE itself, so an edit made meanwhile by another process (or connection) wins.
   */
  update(id: string, rule: Rule, revision?: number): Promise<boolean>
  setEnabled(id: string, enabled: boolean): Promise<boolean>
  delete(id: string): Promise<boolean>
  get(id: string): Promise<StoredRule | undefined>
  /** Every rule that parses, in endpoint then position order. */
  list(): Promise<StoredRule[]>
  listFor(endpointId: string | null): Promise<StoredRule[]>
  /** Moves a rule to position (0-based) among its endpoint's rules and renumbers them. */
  move(id: string, position: number): Promise<boolean>
  deleteFor(endpointId: string | null): Promise<number>
}

/** The row doctor's side of the table (row-doctor.ts), on the data folder's own connection. */
export interface RuleRowRepairs {
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

const RULES_FOR_SQL = `SELECT ${RULE_COLUMNS} FROM rules WHERE endpoint_id IS ? ORDER BY position, created_at, id`
const DELETE_SQL = 'DELETE FROM rules WHERE id = ?'

/** The rules' statements on either store engine, awaited. */
export function createRuleStore(given: SqlEngine): RuleStore {
  const engine = tellingOthers(given, ['rules'])
  const listOn = async (on: SqlEngine, endpointId: string | null) => withoutBadRows(await on.all<RuleDbRow>(RULES_FOR_SQL, [endpointId]), ruleFromRow)
  // Inside the caller's transaction: the endpoint's rules read and renumbered as one.
  async function moveOn(tx: SqlEngine, id: string, position: number): Promise<boolean> {
    const row = await tx.get<RuleDbRow>(RULE_BY_ID_SQL, [id])
    if (!row) return false
    const others = (await listOn(tx, row.endpoint_id)).filter((r) => r.id !== id)
    const at = Math.max(0, Math.min(position, others.length))
    const ordered = [...others.slice(0, at).map((r) => r.id), id, ...others.slice(at).map((r) => r.id)]
    for (const [index, ruleId] of ordered.entries()) await tx.run('UPDATE rules SET position = ? WHERE id = ?', [index, ruleId])
    return true
  }

  return {
    insert: (r, position) =>
      engine.transaction(async (tx) => {
        const definition = JSON.stringify({ ...r.rule, id: r.id, enabled: r.enabled })
        await tx.run('INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at) VALUES (?, ?, ?, ?, ?, ?)', [r.id, r.endpointId, r.position, r.enabled ? 1 : 0, definition, r.createdAt])
        if (position !== undefined) await moveOn(tx, r.id, position)
      }),
    // COALESCE: no revision given matches whatever the rule is at (one parameter, typed by the column on PostgreSQL).
    update: async (id, rule, revision) =>
      (await engine.run('UPDATE rules SET definition_json = ?, enabled = ?, revision = revision + 1 WHERE id = ? AND revision = COALESCE(?, revision)', [JSON.stringify({ ...rule, id }), rule.enabled ? 1 : 0, id, revision ?? null])).changes > 0,
    setEnabled: async (id, enabled) =>
      (await engine.run('UPDATE rules SET enabled = ?, revision = revision + 1 WHERE id = ? AND enabled <> ?', [enabled ? 1 : 0, id, enabled ? 1 : 0])).changes > 0 || (await engine.get(RULE_BY_ID_SQL, [id])) !== undefined,
    delete: async (id) => (await engine.run(DELETE_SQL, [id])).changes > 0,
    get: async (id) => {
      const row = await engine.get<RuleDbRow>(RULE_BY_ID_SQL, [id])
      return row && ruleFromRow(row)
    },
    list: async () => withoutBadRows(await engine.all<RuleDbRow>(RULES_SQL), ruleFromRow),
    listFor: (endpointId) => listOn(engine, endpointId),
    move: (id, position) => engine.transaction((tx) => moveOn(tx, id, position)),
    deleteFor: async (endpointId) => (await engine.run('DELETE FROM rules WHERE endpoint_id IS ?', [endpointId])).changes,
  }
}

/** The rule rows set aside, on either store engine, awaited (the host's banner). */
export async function ruleRowsSetAside(engine: SqlEngine): Promise<BadRow[]> {
  return badRowsOf(await engine.all<RuleDbRow>(RULES_SQL), ruleFromRow)
}

/**
 * The row doctor's reads and repairs, synchronous on a data folder's Database: `hookloop doctor`
 * and the host's banner (its warnings are read synchronously) call them; the rest of the engine
 * reads and writes rules through createRuleStore.
 */
export function createRuleRowRepairs(db: Database): RuleRowRepairs {
  const remove = prepareWrite(db, 'rules', DELETE_SQL)
  const selectAll = db.prepare(RULES_SQL)
  return {
    setAside: () => badRowsOf(selectAll.all() as RuleDbRow[], ruleFromRow),
    repair(bad) {
      if (remove.run(bad.id).changes === 0) throw new Error(`rules: no row ${bad.id} to remove`)
      return 'removed the rule (a rule has no default to reset to; add it again from the Endpoints page or a scenario)'
    },
  }
}
