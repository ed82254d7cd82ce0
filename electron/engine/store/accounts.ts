// The accounts of a served Hookloop, their sessions and their one-time links (migration 21), on
// either store engine through SqlEngine. Only hashes of secrets reach these tables; the accounts
// part (engine/accounts/) makes the secrets and the hashes.
import type { Role } from '../../../shared/contract'
import type { SqlEngine } from './sql-engine'
import { DEFAULT_WORKSPACE } from './workspaces'

export interface AccountRow {
  id: string
  email: string
  name: string
  passwordHash: string
  createdAt: number
  disabled: boolean
}

export interface NewAccount {
  id: string
  email: string
  name: string
  passwordHash: string
  /**
   * Its role in the workspace it joins (its membership there). accounts.role keeps it too, as the
   * column was before workspaces (migration 27); nothing reads it from then on.
   */
  role: Role
  createdAt: number
  /** The workspace it joins (a membership with its role); default `default`. */
  workspaceId?: string
}

export interface SessionRow {
  tokenHash: string
  accountId: string
  /** The workspace the session is looking at. */
  workspaceId: string
  createdAt: number
  expiresAt: number
  lastSeenAt: number
}

export type LinkKind = 'setup' | 'invite'

export interface LinkRow {
  tokenHash: string
  kind: LinkKind
  /** The role it gives, in its workspace. */
  role: Role
  /** The workspace an invite is to (the setup link's is `default`). */
  workspaceId: string
  createdBy: string | null
  createdAt: number
  expiresAt: number
}

interface RawAccount {
  id: string
  email: string
  name: string
  password_hash: string
  created_at: number | string
  disabled: number | string
}

// No role: a person's role is their membership's, per workspace (store/workspaces.ts).
const ACCOUNT_COLUMNS = 'id, email, name, password_hash, created_at, disabled'

// PostgreSQL's BIGINT comes back as a string from pg: one conversion, here.
const fromRaw = (raw: RawAccount): AccountRow => ({
  id: raw.id,
  email: raw.email,
  name: raw.name,
  passwordHash: raw.password_hash,
  createdAt: Number(raw.created_at),
  disabled: Number(raw.disabled) !== 0,
})

/** The key an address is unique by: the same person whatever case they type it in. */
export const emailKey = (email: string): string => email.trim().toLowerCase()

/** Sessions asked about per statement by liveSessions: a fixed count, so the statement's text is one. */
export const LIVE_SESSIONS_BATCH = 100
// A session is live while its account is a member of the workspace it looks at: one removed from
// it is signed out of it (its next page picks another of the account's workspaces).
const LIVE_SESSIONS_SQL = `SELECT s.token_hash, s.workspace_id FROM account_sessions s JOIN accounts a ON a.id = s.account_id
  JOIN memberships m ON m.account_id = s.account_id AND m.workspace_id = s.workspace_id
  WHERE s.expires_at > ? AND a.disabled = 0 AND s.token_hash IN (${Array.from({ length: LIVE_SESSIONS_BATCH }, () => '?').join(', ')})`

export interface AccountStore {
  count(): Promise<number>
  /** Inserts the account; with `onlyIfNone`, only while there is no account yet (the first admin). False when refused. */
  insert(account: NewAccount, onlyIfNone?: boolean): Promise<boolean>
  byEmail(email: string): Promise<AccountRow | undefined>
  byId(id: string): Promise<AccountRow | undefined>
  list(): Promise<AccountRow[]>
  setDisabled(id: string, disabled: boolean): Promise<boolean>

  insertSession(session: SessionRow): Promise<void>
  /**
   * The session's account while the session has not expired at `now`, with the account's role in
   * the session's workspace (null when it is no longer a member there).
   */
  sessionAccount(tokenHash: string, now: number): Promise<{ session: SessionRow; account: AccountRow; role: Role | null } | undefined>
  /** Points the session at another workspace; false when there is no such session. */
  setSessionWorkspace(tokenHash: string, workspaceId: string): Promise<boolean>
  /**
   * Of these sessions, the ones still live at `now`: not expired, not ended, their account not
   * disabled and still a member of the workspace the session looks at, with that workspace. One
   * statement per LIVE_SESSIONS_BATCH of them (a process checks all its sockets at once).
   */
  liveSessions(tokenHashes: readonly string[], now: number): Promise<Map<string, string>>
  touchSession(tokenHash: string, now: number, expiresAt: number): Promise<void>
  deleteSession(tokenHash: string): Promise<boolean>
  deleteSessionsOf(accountId: string): Promise<number>
  deleteExpiredSessions(now: number): Promise<number>

  insertLink(link: LinkRow): Promise<void>
  /** Removes every link of a kind (a new setup link replaces the one before). */
  deleteLinks(kind: LinkKind): Promise<number>
  /** The link while it has not expired, removed as it is read: each one is used once. */
  takeLink(tokenHash: string, now: number): Promise<LinkRow | undefined>
  /** The link while it has not expired, left in place (the page that asks for the new account's details). */
  peekLink(tokenHash: string, now: number): Promise<LinkRow | undefined>
}

export function createAccountStore(engine: SqlEngine): AccountStore {
  const linkOf = (raw: Record<string, unknown>): LinkRow => ({
    tokenHash: String(raw.token_hash),
    kind: raw.kind as LinkKind,
    role: raw.role as Role,
    workspaceId: String(raw.workspace_id),
    createdBy: raw.created_by === null ? null : String(raw.created_by),
    createdAt: Number(raw.created_at),
    expiresAt: Number(raw.expires_at),
  })
  const insertSql = `INSERT INTO accounts (id, email, email_key, name, password_hash, role, created_at, disabled) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`
  const insertParams = (a: NewAccount) => [a.id, a.email.trim(), emailKey(a.email), a.name, a.passwordHash, a.role, a.createdAt]
  // A new account is a member of the workspace it joins, in the same transaction.
  const membershipSql = 'INSERT INTO memberships (account_id, workspace_id, role, created_at) VALUES (?, ?, ?, ?)'
  const membershipParams = (a: NewAccount) => [a.id, a.workspaceId ?? DEFAULT_WORKSPACE, a.role, a.createdAt]
  const LINK_COLUMNS = 'token_hash, kind, role, workspace_id, created_by, created_at, expires_at'
  return {
    async count() {
      const row = await engine.get<{ n: number | string }>('SELECT count(*) AS n FROM accounts')
      return Number(row?.n ?? 0)
    },
    async insert(account, onlyIfNone = false) {
      return engine.transaction(async (tx) => {
        if (!onlyIfNone) await tx.run(insertSql, insertParams(account))
        else {
          // Two people redeeming the setup link at once: one admin. The insert reads the table it
          // writes, in one statement, so neither engine lets both through.
          const result = await tx.run(
            `INSERT INTO accounts (id, email, email_key, name, password_hash, role, created_at, disabled) SELECT ?, ?, ?, ?, ?, ?, CAST(? AS BIGINT), 0 WHERE NOT EXISTS (SELECT 1 FROM accounts)`,
            insertParams(account),
          )
          if (result.changes !== 1) return false
        }
        await tx.run(membershipSql, membershipParams(account))
        return true
      })
    },
    async byEmail(email) {
      const raw = await engine.get<RawAccount>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email_key = ?`, [emailKey(email)])
      return raw && fromRaw(raw)
    },
    async byId(id) {
      const raw = await engine.get<RawAccount>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, [id])
      return raw && fromRaw(raw)
    },
    async list() {
      return (await engine.all<RawAccount>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY created_at, email_key`)).map(fromRaw)
    },
    async setDisabled(id, disabled) {
      return (await engine.run('UPDATE accounts SET disabled = ? WHERE id = ?', [disabled ? 1 : 0, id])).changes === 1
    },

    async insertSession(s) {
      await engine.run('INSERT INTO account_sessions (token_hash, account_id, workspace_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)', [
        s.tokenHash,
        s.accountId,
        s.workspaceId,
        s.createdAt,
        s.expiresAt,
        s.lastSeenAt,
      ])
    },
    async sessionAccount(tokenHash, now) {
      const raw = await engine.get<RawAccount & { workspace_id: string; member_role: Role | null; s_created_at: number | string; expires_at: number | string; last_seen_at: number | string }>(
        `SELECT a.id, a.email, a.name, a.password_hash, a.created_at, a.disabled, s.workspace_id, m.role AS member_role,
           s.created_at AS s_created_at, s.expires_at, s.last_seen_at
         FROM account_sessions s JOIN accounts a ON a.id = s.account_id
           LEFT JOIN memberships m ON m.account_id = s.account_id AND m.workspace_id = s.workspace_id
         WHERE s.token_hash = ? AND s.expires_at > ?`,
        [tokenHash, now],
      )
      if (!raw) return undefined
      return {
        account: fromRaw(raw),
        role: raw.member_role,
        session: { tokenHash, accountId: raw.id, workspaceId: raw.workspace_id, createdAt: Number(raw.s_created_at), expiresAt: Number(raw.expires_at), lastSeenAt: Number(raw.last_seen_at) },
      }
    },
    async setSessionWorkspace(tokenHash, workspaceId) {
      return (await engine.run('UPDATE account_sessions SET workspace_id = ? WHERE token_hash = ?', [workspaceId, tokenHash])).changes === 1
    },
    async liveSessions(tokenHashes, now) {
      const live = new Map<string, string>()
      for (let at = 0; at < tokenHashes.length; at += LIVE_SESSIONS_BATCH) {
        // The batch padded with '' (no session's hash) to the statement's fixed count.
        const batch = Array.from({ length: LIVE_SESSIONS_BATCH }, (_, i) => tokenHashes[at + i] ?? '')
        for (const row of await engine.all<{ token_hash: string; workspace_id: string }>(LIVE_SESSIONS_SQL, [now, ...batch])) live.set(row.token_hash, row.workspace_id)
      }
      return live
    },
    async touchSession(tokenHash, now, expiresAt) {
      await engine.run('UPDATE account_sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ?', [now, expiresAt, tokenHash])
    },
    async deleteSession(tokenHash) {
      return (await engine.run('DELETE FROM account_sessions WHERE token_hash = ?', [tokenHash])).changes === 1
    },
    async deleteSessionsOf(accountId) {
      return (await engine.run('DELETE FROM account_sessions WHERE account_id = ?', [accountId])).changes
    },
    async deleteExpiredSessions(now) {
      return (await engine.run('DELETE FROM account_sessions WHERE expires_at <= ?', [now])).changes
    },

    async insertLink(l) {
      await engine.run(`INSERT INTO account_links (${LINK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [l.tokenHash, l.kind, l.role, l.workspaceId, l.createdBy, l.createdAt, l.expiresAt])
    },
    async deleteLinks(kind) {
      return (await engine.run('DELETE FROM account_links WHERE kind = ?', [kind])).changes
    },
    async takeLink(tokenHash, now) {
      return engine.transaction(async (tx) => {
        const raw = await tx.get(`SELECT ${LINK_COLUMNS} FROM account_links WHERE token_hash = ?`, [tokenHash])
        if (!raw) return undefined
        // Whoever deletes the row used the link; an expired one is removed unused.
        const deleted = await tx.run('DELETE FROM account_links WHERE token_hash = ?', [tokenHash])
        const link = linkOf(raw)
        return deleted.changes === 1 && link.expiresAt > now ? link : undefined
      })
    },
    async peekLink(tokenHash, now) {
      const raw = await engine.get(`SELECT ${LINK_COLUMNS} FROM account_links WHERE token_hash = ? AND expires_at > ?`, [tokenHash, now])
      return raw && linkOf(raw)
    },
  }
}
