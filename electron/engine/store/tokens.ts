// The API tokens of a served Hookloop (migration 22), on either store engine through SqlEngine:
// what a machine (CI, a script, an agent) signs in with. Only the SHA-256 of a token's secret
// reaches this table, beside a few of its first characters for people to tell tokens apart; the
// accounts part (engine/accounts/tokens.ts) makes the secrets, the hashes, and checks them.
import type { Role } from '../../../shared/contract'
import type { SqlEngine } from './sql-engine'

export interface TokenRow {
  id: string
  name: string
  /** Its role in its workspace. */
  role: Role
  /** The one workspace it acts in. */
  workspaceId: string
  secretHash: string
  /** The secret's first characters (`hlk_AbC123`): not enough to guess the rest. */
  prefix: string
  /** The admin who made it; null when it was made on the server's machine (`hookloop token create`). */
  createdBy: string | null
  /** That admin's email, read with the row (null as createdBy is). */
  createdByEmail: string | null
  createdAt: number
  lastUsedAt: number | null
  revokedAt: number | null
}

export type NewToken = Omit<TokenRow, 'createdByEmail' | 'lastUsedAt' | 'revokedAt'>

interface RawToken {
  id: string
  name: string
  role: Role
  workspace_id: string
  secret_hash: string
  prefix: string
  created_by: string | null
  created_by_email: string | null
  created_at: number | string
  last_used_at: number | string | null
  revoked_at: number | string | null
}

// PostgreSQL's BIGINT comes back as a string from pg: one conversion, here.
const timeOf = (value: number | string | null): number | null => (value === null ? null : Number(value))
const fromRaw = (raw: RawToken): TokenRow => ({
  id: raw.id,
  name: raw.name,
  role: raw.role,
  workspaceId: raw.workspace_id,
  secretHash: raw.secret_hash,
  prefix: raw.prefix,
  createdBy: raw.created_by,
  createdByEmail: raw.created_by_email,
  createdAt: Number(raw.created_at),
  lastUsedAt: timeOf(raw.last_used_at),
  revokedAt: timeOf(raw.revoked_at),
})

const SELECT = `SELECT t.id, t.name, t.role, t.workspace_id, t.secret_hash, t.prefix, t.created_by, a.email AS created_by_email, t.created_at, t.last_used_at, t.revoked_at
  FROM api_tokens t LEFT JOIN accounts a ON a.id = t.created_by`

export interface TokenStore {
  insert(token: NewToken): Promise<void>
  /** Every token (of one workspace, when given), revoked ones too, newest first. */
  list(workspaceId?: string): Promise<TokenRow[]>
  byId(id: string): Promise<TokenRow | undefined>
  /** The token whose secret hashes to this, revoked or not (the caller decides). */
  byHash(secretHash: string): Promise<TokenRow | undefined>
  /** Marks the token revoked at `at`; false when there is no such token or it was revoked already. */
  revoke(id: string, at: number): Promise<boolean>
  /**
   * Records a use at `at`, unless one was recorded less than `everyMs` before it (by this process
   * or another): the table is written at most once a period per token. True when written.
   */
  touch(id: string, at: number, everyMs: number): Promise<boolean>
}

export function createTokenStore(engine: SqlEngine): TokenStore {
  return {
    async insert(t) {
      await engine.run(
        'INSERT INTO api_tokens (id, name, role, workspace_id, secret_hash, prefix, created_by, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)',
        [t.id, t.name, t.role, t.workspaceId, t.secretHash, t.prefix, t.createdBy, t.createdAt],
      )
    },
    async list(workspaceId) {
      if (workspaceId === undefined) return (await engine.all<RawToken>(`${SELECT} ORDER BY t.created_at DESC, t.id`)).map(fromRaw)
      return (await engine.all<RawToken>(`${SELECT} WHERE t.workspace_id = ? ORDER BY t.created_at DESC, t.id`, [workspaceId])).map(fromRaw)
    },
    async byId(id) {
      const raw = await engine.get<RawToken>(`${SELECT} WHERE t.id = ?`, [id])
      return raw && fromRaw(raw)
    },
    async byHash(secretHash) {
      const raw = await engine.get<RawToken>(`${SELECT} WHERE t.secret_hash = ?`, [secretHash])
      return raw && fromRaw(raw)
    },
    async revoke(id, at) {
      return (await engine.run('UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id])).changes === 1
    },
    async touch(id, at, everyMs) {
      const result = await engine.run('UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)', [at, id, at - everyMs])
      return result.changes === 1
    },
  }
}
