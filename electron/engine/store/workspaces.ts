// Workspaces and memberships (migration 27), on either store engine through SqlEngine. A
// workspace holds endpoints, subscriptions and what hangs off them; a membership is an account's
// role in one workspace, the only place a person's role is read from. Every store has `default`.
import type { Role } from '../../../shared/contract'
import type { SqlEngine } from './sql-engine'

/** The workspace every store has: everything made without accounts, and all there was before workspaces. */
export const DEFAULT_WORKSPACE = 'default'

export interface WorkspaceRow {
  id: string
  name: string
  createdAt: number
}

/** One of an account's workspaces, with its role there. */
export interface MembershipRow {
  workspaceId: string
  workspaceName: string
  role: Role
}

/** A member of one workspace. */
export interface MemberRow {
  accountId: string
  email: string
  name: string
  role: Role
  disabled: boolean
  createdAt: number
}

/** What a command or a route names by id, each belonging to one workspace. */
export type OwnedKind = 'endpoint' | 'endpointRef' | 'rule' | 'subscription' | 'request' | 'delivery'

// The workspace each kind belongs to: its own column, or its endpoint's or subscription's. A rule
// for every endpoint is its own column's (schema 29); a request at no endpoint's path is `default`'s;
// a request whose endpoint was deleted belongs to nobody (NULL), so no workspace with accounts sees it.
const OWNER_SQL: Record<OwnedKind, string> = {
  endpoint: 'SELECT workspace_id AS w FROM endpoints WHERE id = ?',
  // An endpoint named by its id or its slug (`endpoint.trigger`).
  endpointRef: 'SELECT workspace_id AS w FROM endpoints WHERE id = ? OR slug = ?',
  rule: 'SELECT CASE WHEN r.endpoint_id IS NULL THEN r.workspace_id ELSE e.workspace_id END AS w FROM rules r LEFT JOIN endpoints e ON e.id = r.endpoint_id WHERE r.id = ?',
  subscription: 'SELECT workspace_id AS w FROM subscriptions WHERE id = ?',
  request: `SELECT CASE WHEN q.endpoint_id IS NULL THEN '${DEFAULT_WORKSPACE}' ELSE e.workspace_id END AS w FROM requests q LEFT JOIN endpoints e ON e.id = q.endpoint_id WHERE q.id = ?`,
  delivery: 'SELECT s.workspace_id AS w FROM deliveries d LEFT JOIN subscriptions s ON s.id = d.subscription_id WHERE d.id = ?',
}

/** A delivery is in a workspace when its subscription is (alias `d`, one parameter: the workspace). */
export const DELIVERIES_IN_WORKSPACE = 'd.subscription_id IN (SELECT id FROM subscriptions WHERE workspace_id = ?)'

/** A request is in a workspace when its endpoint is; one at no endpoint's path is `default`'s (alias `r`). */
export function whereRequestInWorkspace(workspace: string, where: string[], params: unknown[]): void {
  where.push(`(r.endpoint_id IN (SELECT id FROM endpoints WHERE workspace_id = ?)${workspace === DEFAULT_WORKSPACE ? ' OR r.endpoint_id IS NULL' : ''})`)
  params.push(workspace)
}

/** The request counters' rows (count-definitions.ts, keyed by endpoint; '' = no endpoint, `default`'s) of a workspace. */
export function whereCountersInWorkspace(workspace: string, where: string[], params: unknown[]): void {
  where.push(`(endpoint_key IN (SELECT id FROM endpoints WHERE workspace_id = ?)${workspace === DEFAULT_WORKSPACE ? " OR endpoint_key = ''" : ''})`)
  params.push(workspace)
}

/** The workspace of every endpoint, subscription and rule for every endpoint: what a pushed list is filtered by. */
export interface DefinitionOwners {
  endpoints: Map<string, string>
  subscriptions: Map<string, string>
  /** The rules for every endpoint (an endpoint's rule is its endpoint's). */
  everyEndpointRules: Map<string, string>
}

export interface WorkspaceStore {
  /** The workspace the row belongs to; undefined when there is no such row (or it belongs to none). */
  ownerOf(kind: OwnedKind, id: string | number): Promise<string | undefined>
  definitionOwners(): Promise<DefinitionOwners>
  /** How many captured requests the workspace holds, and when its oldest arrived (null: none). */
  requestsIn(workspace: string): Promise<{ requests: number; oldestAt: number | null }>
  /** Every workspace, by name. */
  list(): Promise<WorkspaceRow[]>
  byId(id: string): Promise<WorkspaceRow | undefined>
  byName(name: string): Promise<WorkspaceRow | undefined>
  /** Inserts the workspace; false when its name (or id) is taken. */
  insert(workspace: WorkspaceRow): Promise<boolean>
  /** Inserts the workspace with the account as its admin, in one transaction; false (nothing written) when its name is taken. */
  createWithAdmin(workspace: WorkspaceRow, accountId: string): Promise<boolean>

  /** The account's workspaces and its role in each, by name. */
  membershipsOf(accountId: string): Promise<MembershipRow[]>
  /** The account's role in the workspace; undefined when it is not a member. */
  roleIn(accountId: string, workspaceId: string): Promise<Role | undefined>
  /** The workspace's members (disabled accounts too), oldest account first. */
  members(workspaceId: string): Promise<MemberRow[]>
  /** Makes the account a member with this role, or changes its role there. */
  setMembership(accountId: string, workspaceId: string, role: Role, at: number): Promise<void>
  /** Ends the account's membership; false when it had none. */
  removeMembership(accountId: string, workspaceId: string): Promise<boolean>
}

type Raw = Record<string, unknown>
const workspaceOf = (raw: Raw): WorkspaceRow => ({ id: String(raw.id), name: String(raw.name), createdAt: Number(raw.created_at) })

async function insertWorkspace(engine: SqlEngine, w: WorkspaceRow): Promise<boolean> {
  // Two admins naming a workspace alike at once: one row, whichever engine.
  const result = await engine.run('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [w.id, w.name, w.createdAt])
  return result.changes === 1
}

export function createWorkspaceStore(engine: SqlEngine): WorkspaceStore {
  return {
    async ownerOf(kind, id) {
      const row = await engine.get<{ w: string | null }>(OWNER_SQL[kind], kind === 'endpointRef' ? [id, id] : [id])
      return row?.w ?? undefined
    },
    async definitionOwners() {
      const [endpoints, subscriptions, rules] = await Promise.all([
        engine.all<{ id: string; workspace_id: string }>('SELECT id, workspace_id FROM endpoints'),
        engine.all<{ id: string; workspace_id: string }>('SELECT id, workspace_id FROM subscriptions'),
        engine.all<{ id: string; workspace_id: string }>('SELECT id, workspace_id FROM rules WHERE endpoint_id IS NULL'),
      ])
      const byId = (rows: { id: string; workspace_id: string }[]) => new Map(rows.map((r) => [r.id, r.workspace_id]))
      return { endpoints: byId(endpoints), subscriptions: byId(subscriptions), everyEndpointRules: byId(rules) }
    },
    async requestsIn(workspace) {
      const where: string[] = []
      const params: unknown[] = []
      whereRequestInWorkspace(workspace, where, params)
      const row = await engine.get<{ n: number | string; oldest: number | string | null }>(`SELECT count(*) AS n, min(r.received_at) AS oldest FROM requests r WHERE ${where.join(' AND ')}`, params)
      return { requests: Number(row?.n ?? 0), oldestAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest) }
    },
    async list() {
      return (await engine.all('SELECT id, name, created_at FROM workspaces ORDER BY name')).map(workspaceOf)
    },
    async byId(id) {
      const raw = await engine.get('SELECT id, name, created_at FROM workspaces WHERE id = ?', [id])
      return raw && workspaceOf(raw)
    },
    async byName(name) {
      const raw = await engine.get('SELECT id, name, created_at FROM workspaces WHERE name = ?', [name])
      return raw && workspaceOf(raw)
    },
    insert: (w) => insertWorkspace(engine, w),
    createWithAdmin: (w, accountId) =>
      // Never a workspace nobody can act in.
      engine.transaction(async (tx) => {
        if (!(await insertWorkspace(tx, w))) return false
        await createWorkspaceStore(tx).setMembership(accountId, w.id, 'admin', w.createdAt)
        return true
      }),

    async membershipsOf(accountId) {
      const rows = await engine.all(
        'SELECT m.workspace_id, w.name, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id WHERE m.account_id = ? ORDER BY w.name',
        [accountId],
      )
      return rows.map((raw) => ({ workspaceId: String(raw.workspace_id), workspaceName: String(raw.name), role: raw.role as Role }))
    },
    async roleIn(accountId, workspaceId) {
      const raw = await engine.get<{ role: Role }>('SELECT role FROM memberships WHERE account_id = ? AND workspace_id = ?', [accountId, workspaceId])
      return raw?.role
    },
    async members(workspaceId) {
      const rows = await engine.all(
        `SELECT a.id, a.email, a.name, m.role, a.disabled, a.created_at FROM memberships m JOIN accounts a ON a.id = m.account_id
         WHERE m.workspace_id = ? ORDER BY a.created_at, a.email_key`,
        [workspaceId],
      )
      return rows.map((raw) => ({
        accountId: String(raw.id),
        email: String(raw.email),
        name: String(raw.name),
        role: raw.role as Role,
        disabled: Number(raw.disabled) !== 0,
        createdAt: Number(raw.created_at),
      }))
    },
    async setMembership(accountId, workspaceId, role, at) {
      await engine.run(
        `INSERT INTO memberships (account_id, workspace_id, role, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (account_id, workspace_id) DO UPDATE SET role = excluded.role`,
        [accountId, workspaceId, role, at],
      )
    },
    async removeMembership(accountId, workspaceId) {
      return (await engine.run('DELETE FROM memberships WHERE account_id = ? AND workspace_id = ?', [accountId, workspaceId])).changes === 1
    },
  }
}
