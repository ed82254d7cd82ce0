// Named statements over the `rules` table. A rule is stored as its validated definition (JSON);
// position orders the rules of one endpoint (global rules, endpoint_id NULL, have their own order).
import type { Database } from 'better-sqlite3'
import type { Rule } from '../../../shared/receiver'
import { prepareWrite } from './changes'

export interface StoredRule {
  id: string
  endpointId: string | null
  position: number
  enabled: boolean
  rule: Rule
  createdAt: number
}

interface RuleDbRow {
  id: string
  endpoint_id: string | null
  position: number
  enabled: number
  definition_json: string
  created_at: number
}

export interface RuleStore {
  insert(rule: StoredRule): void
  /** Replaces the definition (and the enabled flag inside it). */
  update(id: string, rule: Rule): boolean
  setEnabled(id: string, enabled: boolean): boolean
  delete(id: string): boolean
  get(id: string): StoredRule | undefined
  /** Every rule, in endpoint then position order. */
  list(): StoredRule[]
  listFor(endpointId: string | null): StoredRule[]
  /** Moves a rule to position (0-based) among its endpoint's rules and renumbers them. */
  move(id: string, position: number): boolean
  deleteFor(endpointId: string | null): number
}

function fromRow(r: RuleDbRow): StoredRule {
  const rule = JSON.parse(r.definition_json) as Rule
  rule.enabled = r.enabled === 1
  return { id: r.id, endpointId: r.endpoint_id, position: r.position, enabled: r.enabled === 1, rule, createdAt: r.created_at }
}

export function createRuleStore(db: Database): RuleStore {
  const write = (sql: string) => prepareWrite(db, 'rules', sql)
  const insert = write(
    'INSERT INTO rules (id, endpoint_id, position, enabled, definition_json, created_at) VALUES (@id, @endpoint_id, @position, @enabled, @definition_json, @created_at)',
  )
  const updateDefinition = write('UPDATE rules SET definition_json = ?, enabled = ? WHERE id = ?')
  const updateEnabled = write('UPDATE rules SET enabled = ? WHERE id = ?')
  const updatePosition = write('UPDATE rules SET position = ? WHERE id = ?')
  const remove = write('DELETE FROM rules WHERE id = ?')
  const removeFor = write('DELETE FROM rules WHERE endpoint_id IS ?')
  const selectById = db.prepare('SELECT * FROM rules WHERE id = ?')
  const selectAll = db.prepare('SELECT * FROM rules ORDER BY endpoint_id, position, created_at')
  const selectFor = db.prepare('SELECT * FROM rules WHERE endpoint_id IS ? ORDER BY position, created_at')

  const listFor = (endpointId: string | null) => (selectFor.all(endpointId) as RuleDbRow[]).map(fromRow)
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
    update: (id, rule) => updateDefinition.run(JSON.stringify({ ...rule, id }), rule.enabled ? 1 : 0, id).changes > 0,
    setEnabled: (id, enabled) => updateEnabled.run(enabled ? 1 : 0, id).changes > 0,
    delete: (id) => remove.run(id).changes > 0,
    get: (id) => {
      const row = selectById.get(id) as RuleDbRow | undefined
      return row && fromRow(row)
    },
    list: () => (selectAll.all() as RuleDbRow[]).map(fromRow),
    listFor,
    move: (id, position) => move(id, position),
    deleteFor: (endpointId) => removeFor.run(endpointId).changes,
  }
}
