// Named statements over the `rules` table. A rule is stored as its validated definition (JSON);
// position orders the rules of one endpoint (rules for every endpoint, endpoint_id NULL, have their
// own order in each workspace). Each rule belongs to a workspace (schema 29): an endpoint's rule to
// its endpoint's, written from the endpoint's row as it is inserted; a rule for every endpoint to
// the one it was made in, and it acts on that workspace's endpoints only.
// The statements run on either store engine through SqlEngine, awaited.
import type { Database } from 'better-sqlite3'
import { parseRule, type Rule } from '../../../shared/receiver'
import { badRowsOf, parseJsonAs, readField, withoutBadRows, type BadRow } from './bad-row'
import { prepareWrite } from './changes'
import { tellingOthers } from './engine-writes'
import type { SqlEngine } from './sql-engine'
import { DEFAULT_WORKSPACE } from './workspaces'

export interface StoredRule {
  id: string
  endpointId: string | null
  position: number
  enabled: boolean
  rule: Rule
  createdAt: number
  /** Counts up with each change of the definition (enabled included): an edit names the one it was made on. */
  revision: number
  /** Its workspace: an endpoint's rule its endpoint's; a rule for every endpoint the one whose endpoints it acts on. */
  workspaceId: string
}

/** A rule to insert: an endpoint's is its endpoint's workspace's, a rule for every endpoint `workspaceId`'s (default `default`). */
export type NewRule = Omit<StoredRule, 'revision' | 'workspaceId'> & { workspaceId?: string }

export interface RuleDbRow {
  id: string
  endpoint_id: string | null
  position: number
  enabled: number
  definition_json: string
  created_at: number
  revision: number
  workspace_id: string
  /** The endpoint's slug (joined), to name the rule when it does not parse. */
  endpoint_slug: string | null
}

export interface RuleStore {
  /** Adds a rule, at `position` (0-based) among its endpoint's rules when given, else where it says; one transaction. */
  insert(rule: NewRule, position?: number): Promise<void>
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
  /** An endpoint's rules, or (endpointId null) the workspace's rules for every endpoint, in position order. */
  listFor(endpointId: string | null, workspaceId?: string): Promise<StoredRule[]>
  /** Moves a rule to position (0-based) among its siblings (listFor) and renumbers them. */
  move(id: string, position: number): Promise<boolean>
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
  return { id: r.id, endpointId: r.endpoint_id, position: r.position, enabled: r.enabled === 1, rule, createdAt: r.created_at, revision: r.revision, workspaceId: r.workspace_id }
}

// An endpoint's siblings are its endpoint's; a rule for every endpoint's, its workspace's (two
// statements rather than `endpoint_id IS ?`, which PostgreSQL spells otherwise).
const RULES_OF_ENDPOINT_SQL = `SELECT ${RULE_COLUMNS} FROM rules WHERE endpoint_id = ? ORDER BY position, created_at, id`
const RULES_FOR_EVERY_ENDPOINT_SQL = `SELECT ${RULE_COLUMNS} FROM rules WHERE endpoint_id IS NULL AND workspace_id = ? ORDER BY position, created_at, id`
// The workspace of an endpoint's rule is read from its endpoint's row, so the two never differ.
const INSERT_SQL = `INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at, workspace_id)
  VALUES (?, ?, ?, ?, ?, ?, COALESCE((SELECT e.workspace_id FROM endpoints e WHERE e.id = ?), ?))`
const DELETE_SQL = 'DELETE FROM rules WHERE id = ?'

/** The rules' statements on either store engine, awaited. */
export function createRuleStore(given: SqlEngine): RuleStore {
  const engine = tellingOthers(given, ['rules'])
  const listOn = async (on: SqlEngine, endpointId: string | null, workspaceId: string) =>
    withoutBadRows(await (endpointId === null ? on.all<RuleDbRow>(RULES_FOR_EVERY_ENDPOINT_SQL, [workspaceId]) : on.all<RuleDbRow>(RULES_OF_ENDPOINT_SQL, [endpointId])), ruleFromRow)
  // Inside the caller's transaction: the endpoint's rules read and renumbered as one.
  async function moveOn(tx: SqlEngine, id: string, position: number): Promise<boolean> {
    const row = await tx.get<RuleDbRow>(RULE_BY_ID_SQL, [id])
    if (!row) return false
    const others = (await listOn(tx, row.endpoint_id, row.workspace_id)).filter((r) => r.id !== id)
    const at = Math.max(0, Math.min(position, others.length))
    const ordered = [...others.slice(0, at).map((r) => r.id), id, ...others.slice(at).map((r) => r.id)]
    for (const [index, ruleId] of ordered.entries()) await tx.run('UPDATE rules SET position = ? WHERE id = ?', [index, ruleId])
    return true
  }

  return {
    insert: (r, position) =>
      engine.transaction(async (tx) => {
        const definition = JSON.stringify({ ...r.rule, id: r.id, enabled: r.enabled })
        await tx.run(INSERT_SQL, [r.id, r.endpointId, r.position, r.enabled ? 1 : 0, definition, r.createdAt, r.endpointId, r.workspaceId ?? DEFAULT_WORKSPACE])
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
    listFor: (endpointId, workspaceId = DEFAULT_WORKSPACE) => listOn(engine, endpointId, workspaceId),
    move: (id, position) => engine.transaction((tx) => moveOn(tx, id, position)),
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
