// The accounts of a served Hookloop: the first admin (from the command line, or through the
// one-time setup link), signing in and out, the session behind a cookie and the workspace it looks
// at, and the members of a workspace: invited, added, given a role there, removed. The secrets it returns (a session's value, a link's) exist only in its answer;
// the store keeps their hashes (secrets.ts) and a password's Argon2id hash (passwords.ts).
import { WORKSPACE_NAME_MAX, type Role } from '../../../shared/contract'
import { createAccountStore, createWorkspaceStore, DEFAULT_WORKSPACE, type AccountRow, type AccountStore, type MembershipRow, type SqlEngine, type WorkspaceRow, type WorkspaceStore } from '../store'
import { hashPassword, passwordMatches, passwordProblem } from './passwords'
import { newAccountId, newSecret, newWorkspaceId, secretHash } from './secrets'

/** A session lasts this long after it was last used (sliding). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
/** The setup link and an invite are good for this long. */
export const LINK_TTL_MS = 24 * 60 * 60 * 1000

/** Who is signed in, as the UI and the command checks see them: never the password's hash. */
export interface AccountView {
  id: string
  email: string
  name: string
  /** The account's role in `workspaceId` (a membership's): roles are per workspace. */
  role: Role
  /** The workspace this view is of: the one a session looks at, or the one whose members are listed. */
  workspaceId: string
  createdAt: number
  disabled: boolean
}

export class AccountError extends Error {
  constructor(
    readonly code: 'bad_password' | 'bad_email' | 'bad_name' | 'taken' | 'bad_link' | 'not_found' | 'last_admin' | 'member',
    message: string,
  ) {
    super(message)
  }
}

/**
 * Why a sign-in was refused, as the audit records it (`rate_limited` is the account routes').
 * `no_workspace`: the account is a member of no workspace any more.
 */
export type SignInRefusedReason = 'unknown' | 'wrong_password' | 'disabled' | 'no_workspace'

export interface NewPerson {
  email: string
  name?: string
  password: string
}

export interface Accounts {
  count(): Promise<number>
  /** The first admin; refused once any account exists. */
  createFirstAdmin(person: NewPerson): Promise<AccountView>
  /** A new one-time setup link's secret (the one before it stops working). */
  newSetupLink(): Promise<string>
  /** A new one-time invite's secret: a new account with this role in this workspace. */
  invite(role: Role, by: string, workspaceId: string): Promise<string>
  /** The role a link would give, while it is good (the page that asks for the details). */
  linkRole(secret: string): Promise<Role | null>
  /** Uses a setup link or an invite: the account it makes. */
  redeem(secret: string, person: NewPerson): Promise<AccountView>
  /**
   * A new session's secret for the account, or why not: no account has the address, the password
   * is wrong, or the account is disabled (said only when the password was right). The person is
   * told none of these apart; the audit is.
   */
  signIn(email: string, password: string): Promise<{ secret: string; account: AccountView } | { refused: SignInRefusedReason }>
  /**
   * A new session for someone an identity provider vouches for by a verified address (oidc.ts):
   * the member with that address; or with `newRole`, a new member with that role and no password
   * (they sign in through the provider). Refused: no such member (and none may be made), or a disabled one.
   */
  signInVouched(person: { email: string; name: string }, newRole: Role | null): Promise<{ secret: string; account: AccountView; joined: boolean } | { refused: 'unknown' | 'disabled' }>
  /**
   * The signed-in account behind a session's secret, in the workspace the session looks at (a
   * disabled one is signed out). A session whose account is no longer a member there moves to
   * another of the account's workspaces; with none left, it signs nobody in.
   */
  sessionOf(secret: string | undefined): Promise<AccountView | null>
  /** Points a session at another of its account's workspaces: not_found when it is not a member there. */
  switchWorkspace(secret: string, workspaceId: string): Promise<AccountView>
  /** The account's workspaces and its role in each. */
  workspacesOf(accountId: string): Promise<MembershipRow[]>
  /**
   * A new workspace named so (trimmed), the account its admin, made in one transaction: the
   * `workspace.create` command's and `hookloop workspace create`'s. A bad name is refused
   * (`bad_name`, workspaceNameProblem), and so is one another workspace has (`taken`).
   */
  createWorkspace(name: string, adminId: string): Promise<WorkspaceRow>
  /**
   * Of these sessions' secrets, the ones that still sign someone in (not ended, not expired, the
   * account not disabled, still a member where the session looks), each with the workspace it
   * looks at: one read for all of a process's sockets, however many (no last-seen write).
   */
  liveSessions(secrets: readonly string[]): Promise<Map<string, string>>
  signOut(secret: string): Promise<void>
  /** The workspace's members, with their role there. */
  list(workspaceId: string): Promise<AccountView[]>
  /** Makes an existing account (by its address) a member of the workspace: not_found when there is none, `member` when it is one already. */
  addMember(email: string, role: Role, workspaceId: string): Promise<AccountView>
  /** A member's role in the workspace. */
  setRole(id: string, role: Role, workspaceId: string): Promise<AccountView>
  /** Ends a membership (never the workspace's last admin's); the account and its other workspaces stay. */
  removeMember(id: string, workspaceId: string): Promise<AccountView>
  /** Disables or enables a member of the workspace, everywhere (an account is one person). */
  setDisabled(id: string, disabled: boolean, workspaceId: string): Promise<AccountView>
  /** Called after a session ends or an account changes (sign-out, a role, disabled): whoever holds sessions checks them again. */
  onChange(listener: () => void): () => void
}

const viewOf = (row: AccountRow, role: Role, workspaceId: string): AccountView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role,
  workspaceId,
  createdAt: row.createdAt,
  disabled: row.disabled,
})

// A plain check: an address has one @ with something on each side and no spaces. The mail it
// names is never sent to; it is the name a person signs in by.
const EMAIL = /^[^\s@]+@[^\s@]+$/
// NUL and the other control characters: \s misses most of them, and PostgreSQL refuses a NUL in text.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/** What is wrong with an email given at sign-in or for a new account, naming the field; null when nothing. */
export function emailProblem(email: string): string | null {
  if (CONTROL_CHARACTER.test(email)) return 'the email has a control character (NUL, a tab, a newline …): type it again'
  const trimmed = email.trim()
  if (!EMAIL.test(trimmed) || trimmed.length > 320) return `the email "${trimmed.slice(0, 320)}" is not an email address`
  return null
}

/** What is wrong with a new workspace's name (1 to 64 characters once trimmed, no control character); null when nothing. */
export function workspaceNameProblem(name: string): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'a workspace needs a name'
  if (trimmed.length > WORKSPACE_NAME_MAX) return `the name is longer than ${WORKSPACE_NAME_MAX} characters`
  if (CONTROL_CHARACTER.test(name)) return 'the name has a control character (NUL, a tab, a newline …): type it again'
  return null
}

// A hash to verify when the address is unknown, so a wrong address takes as long as a wrong password.
let decoy: Promise<string> | null = null

export function createAccounts(options: { engine: () => SqlEngine; now?: () => number }): Accounts {
  const now = options.now ?? Date.now
  const store = (): AccountStore => createAccountStore(options.engine())
  const workspaces = (): WorkspaceStore => createWorkspaceStore(options.engine())
  const listeners = new Set<() => void>()
  const announce = () => listeners.forEach((listener) => listener())

  async function newAccount(person: NewPerson, role: Role, workspaceId: string): Promise<{ row: Parameters<AccountStore['insert']>[0]; view: AccountView }> {
    const badEmail = emailProblem(person.email)
    if (badEmail) throw new AccountError('bad_email', badEmail)
    if (CONTROL_CHARACTER.test(person.name ?? '')) throw new AccountError('bad_name', 'the name has a control character (NUL, a tab, a newline …): type it again')
    const email = person.email.trim()
    const problem = passwordProblem(person.password)
    if (problem) throw new AccountError('bad_password', problem)
    const name = (person.name ?? '').trim() || email
    const row = { id: newAccountId(), email, name, passwordHash: await hashPassword(person.password), role, createdAt: now(), workspaceId }
    return { row, view: { id: row.id, email, name, role, workspaceId, createdAt: row.createdAt, disabled: false } }
  }

  async function insert(person: NewPerson, role: Role, workspaceId: string, onlyIfNone: boolean): Promise<AccountView> {
    const { row, view } = await newAccount(person, role, workspaceId)
    const accounts = store()
    if (await accounts.byEmail(row.email)) throw new AccountError('taken', `an account for ${row.email} exists`)
    let inserted: boolean
    try {
      inserted = await accounts.insert(row, onlyIfNone)
    } catch (error) {
      // The unique address, taken between the look and the insert.
      if (await accounts.byEmail(row.email)) throw new AccountError('taken', `an account for ${row.email} exists`)
      throw error
    }
    if (!inserted) throw new AccountError('bad_link', 'the first admin exists already: sign in, or ask an admin for an invite')
    return view
  }

  async function newLink(kind: 'setup' | 'invite', role: Role, by: string | null, workspaceId: string): Promise<string> {
    const secret = newSecret()
    const at = now()
    await store().insertLink({ tokenHash: secretHash(secret), kind, role, workspaceId, createdBy: by, createdAt: at, expiresAt: at + LINK_TTL_MS })
    return secret
  }

  /** The account as a member of the workspace: not_found when it is not one (as when there is no such account). */
  async function memberOf(id: string, workspaceId: string): Promise<AccountView> {
    const row = await store().byId(id)
    const role = row && (await workspaces().roleIn(id, workspaceId))
    if (!row || !role) throw new AccountError('not_found', `no account ${id}`)
    return viewOf(row, role, workspaceId)
  }

  // An admin cannot take away a workspace's last admin (their role there, their membership, their
  // account): nobody could change its members again.
  async function keepsAnAdmin(id: string, workspaceId: string): Promise<void> {
    const admins = (await workspaces().members(workspaceId)).filter((m) => m.role === 'admin' && !m.disabled)
    if (admins.length === 1 && admins[0]?.accountId === id) throw new AccountError('last_admin', 'this is the last admin of this workspace: make another admin first')
  }

  /** The workspace a new session looks at: `default` for its members, else the first of the account's by name. */
  async function firstWorkspace(accountId: string): Promise<MembershipRow | undefined> {
    const mine = await workspaces().membershipsOf(accountId)
    return mine.find((m) => m.workspaceId === DEFAULT_WORKSPACE) ?? mine[0]
  }

  async function openSession(row: AccountRow): Promise<{ secret: string; account: AccountView } | { refused: 'no_workspace' }> {
    const workspace = await firstWorkspace(row.id)
    if (!workspace) return { refused: 'no_workspace' }
    const secret = newSecret()
    const at = now()
    await store().insertSession({ tokenHash: secretHash(secret), accountId: row.id, workspaceId: workspace.workspaceId, createdAt: at, expiresAt: at + SESSION_IDLE_MS, lastSeenAt: at })
    // Sessions that expired unused are removed as new ones begin: the table holds live ones.
    await store().deleteExpiredSessions(at)
    return { secret, account: viewOf(row, workspace.role, workspace.workspaceId) }
  }

  // A member who joins through the identity provider has a password hash like everyone, of a
  // secret thrown away at once: no password signs them in, only the provider.
  async function insertVouched(person: { email: string; name: string }, role: Role): Promise<AccountRow | undefined> {
    const email = person.email.trim()
    if (emailProblem(email)) return undefined
    const name = CONTROL_CHARACTER.test(person.name) ? '' : person.name.trim()
    const row = { id: newAccountId(), email, name: name || email, passwordHash: await hashPassword(newSecret()), role, createdAt: now(), workspaceId: DEFAULT_WORKSPACE }
    try {
      await store().insert(row, false)
    } catch (error) {
      // Two first sign-ins at once: the unique address lets one insert through, both sign in as it.
      const made = await store().byEmail(email)
      if (made) return made
      throw error
    }
    return store().byEmail(email)
  }

  return {
    count: () => store().count(),
    createFirstAdmin: (person) => insert(person, 'admin', DEFAULT_WORKSPACE, true),
    async newSetupLink() {
      await store().deleteLinks('setup')
      return newLink('setup', 'admin', null, DEFAULT_WORKSPACE)
    },
    invite: (role, by, workspaceId) => newLink('invite', role, by, workspaceId),
    async linkRole(secret) {
      const link = await store().peekLink(secretHash(secret), now())
      return link ? link.role : null
    },
    async redeem(secret, person) {
      // The details are checked before the link is used, so a typo does not spend it.
      await newAccount(person, 'viewer', DEFAULT_WORKSPACE)
      if (await store().byEmail(person.email)) throw new AccountError('taken', `an account for ${person.email.trim()} exists`)
      const link = await store().takeLink(secretHash(secret), now())
      if (!link) throw new AccountError('bad_link', 'this link is not valid: it was used, replaced or has expired')
      return insert(person, link.role, link.workspaceId, link.kind === 'setup')
    },
    async signIn(email, password) {
      // No account has such an address (none is made with one); PostgreSQL would refuse a NUL in the look-up.
      const row = CONTROL_CHARACTER.test(email) ? undefined : await store().byEmail(email)
      if (!row) {
        decoy ??= hashPassword(newSecret())
        await passwordMatches(await decoy, password)
        return { refused: 'unknown' }
      }
      if (!(await passwordMatches(row.passwordHash, password))) return { refused: 'wrong_password' }
      if (row.disabled) return { refused: 'disabled' }
      return openSession(row)
    },
    async signInVouched(person, newRole) {
      // A provider's claim is not trusted to be text PostgreSQL stores: such an address names nobody.
      if (emailProblem(person.email)) return { refused: 'unknown' }
      const member = await store().byEmail(person.email.trim())
      const row = member ?? (newRole ? await insertVouched(person, newRole) : undefined)
      if (!row) return { refused: 'unknown' }
      if (row.disabled) return { refused: 'disabled' }
      const opened = await openSession(row)
      // A member of no workspace is nobody the provider can sign in here.
      if ('refused' in opened) return { refused: 'unknown' }
      return { ...opened, joined: !member }
    },
    async sessionOf(secret) {
      if (!secret) return null
      const at = now()
      const found = await store().sessionAccount(secretHash(secret), at)
      if (!found || found.account.disabled) return null
      // Seen again: it lasts another idle period (written at most once a minute).
      if (at - found.session.lastSeenAt > 60_000) await store().touchSession(found.session.tokenHash, at, at + SESSION_IDLE_MS)
      if (found.role) return viewOf(found.account, found.role, found.session.workspaceId)
      // No longer a member where the session looks: another of the account's workspaces, or nobody.
      const other = await firstWorkspace(found.account.id)
      if (!other) return null
      await store().setSessionWorkspace(found.session.tokenHash, other.workspaceId)
      return viewOf(found.account, other.role, other.workspaceId)
    },
    async switchWorkspace(secret, workspaceId) {
      const hash = secretHash(secret)
      const found = await store().sessionAccount(hash, now())
      if (!found || found.account.disabled) throw new AccountError('not_found', 'this session has ended: sign in again')
      const role = await workspaces().roleIn(found.account.id, workspaceId)
      // Another's workspace reads as one that does not exist.
      if (!role) throw new AccountError('not_found', `no workspace ${workspaceId}`)
      // The session's sockets looking at the old workspace are closed by their server's next
      // sweep (control-server.ts), the one that asked once its answer is sent.
      await store().setSessionWorkspace(hash, workspaceId)
      return viewOf(found.account, role, workspaceId)
    },
    workspacesOf: (accountId) => workspaces().membershipsOf(accountId),
    async createWorkspace(name, adminId) {
      const problem = workspaceNameProblem(name)
      if (problem) throw new AccountError('bad_name', problem)
      const workspace = { id: newWorkspaceId(), name: name.trim(), createdAt: now() }
      if (!(await workspaces().createWithAdmin(workspace, adminId))) throw new AccountError('taken', `a workspace named ${JSON.stringify(workspace.name)} exists already: pick another name`)
      return workspace
    },
    async liveSessions(secrets) {
      if (secrets.length === 0) return new Map()
      const hashes = new Map(secrets.map((secret) => [secretHash(secret), secret]))
      const live = await store().liveSessions([...hashes.keys()], now())
      return new Map([...live].map(([hash, workspaceId]) => [hashes.get(hash) ?? '', workspaceId]))
    },
    async signOut(secret) {
      await store().deleteSession(secretHash(secret))
      announce()
    },
    async list(workspaceId) {
      return (await workspaces().members(workspaceId)).map((m) => ({
        id: m.accountId,
        email: m.email,
        name: m.name,
        role: m.role,
        workspaceId,
        createdAt: m.createdAt,
        disabled: m.disabled,
      }))
    },
    async addMember(email, role, workspaceId) {
      const row = CONTROL_CHARACTER.test(email) ? undefined : await store().byEmail(email)
      if (!row) throw new AccountError('not_found', `no account for ${email.trim().slice(0, 320)}: invite them instead`)
      if (await workspaces().roleIn(row.id, workspaceId)) throw new AccountError('member', `${row.email} is a member already: change their role instead`)
      await workspaces().setMembership(row.id, workspaceId, role, now())
      announce()
      return viewOf(row, role, workspaceId)
    },
    async setRole(id, role, workspaceId) {
      await memberOf(id, workspaceId)
      if (role !== 'admin') await keepsAnAdmin(id, workspaceId)
      await workspaces().setMembership(id, workspaceId, role, now())
      announce()
      return memberOf(id, workspaceId)
    },
    async removeMember(id, workspaceId) {
      const view = await memberOf(id, workspaceId)
      await keepsAnAdmin(id, workspaceId)
      await workspaces().removeMembership(id, workspaceId)
      // Its sessions looking at this workspace sign nobody in there from now on (liveSessions).
      announce()
      return view
    },
    async setDisabled(id, disabled, workspaceId) {
      await memberOf(id, workspaceId)
      if (disabled) for (const mine of await workspaces().membershipsOf(id)) if (mine.role === 'admin') await keepsAnAdmin(id, mine.workspaceId)
      await store().setDisabled(id, disabled)
      // A disabled account is signed out everywhere at once.
      if (disabled) await store().deleteSessionsOf(id)
      announce()
      return memberOf(id, workspaceId)
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

