// The accounts of a served Hookloop: the first admin (from the command line, or through the
// one-time setup link), signing in and out, the session behind a cookie, and the members an
// admin invites. The secrets it returns (a session's value, a link's) exist only in its answer;
// the store keeps their hashes (secrets.ts) and a password's Argon2id hash (passwords.ts).
import type { Role } from '../../../shared/contract'
import { createAccountStore, DEFAULT_WORKSPACE, type AccountRow, type AccountStore, type SqlEngine } from '../store'
import { hashPassword, passwordMatches, passwordProblem } from './passwords'
import { newAccountId, newSecret, secretHash } from './secrets'

/** A session lasts this long after it was last used (sliding). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
/** The setup link and an invite are good for this long. */
export const LINK_TTL_MS = 24 * 60 * 60 * 1000

/** Who is signed in, as the UI and the command checks see them: never the password's hash. */
export interface AccountView {
  id: string
  email: string
  name: string
  role: Role
  createdAt: number
  disabled: boolean
}

export class AccountError extends Error {
  constructor(
    readonly code: 'bad_password' | 'bad_email' | 'bad_name' | 'taken' | 'bad_link' | 'not_found' | 'last_admin',
    message: string,
  ) {
    super(message)
  }
}

/** Why a sign-in was refused, as the audit records it (`rate_limited` is the account routes'). */
export type SignInRefusedReason = 'unknown' | 'wrong_password' | 'disabled'

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
  /** A new one-time invite's secret for this role. */
  invite(role: Role, by: string): Promise<string>
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
  /** The signed-in account behind a session's secret (a disabled one is signed out). */
  sessionOf(secret: string | undefined): Promise<AccountView | null>
  /**
   * Of these sessions' secrets, the ones that still sign someone in (not ended, not expired, the
   * account not disabled): one read for all of a process's sockets, however many (no last-seen write).
   */
  liveSessions(secrets: readonly string[]): Promise<Set<string>>
  signOut(secret: string): Promise<void>
  list(): Promise<AccountView[]>
  setRole(id: string, role: Role): Promise<AccountView>
  setDisabled(id: string, disabled: boolean): Promise<AccountView>
  /** Called after a session ends or an account changes (sign-out, a role, disabled): whoever holds sessions checks them again. */
  onChange(listener: () => void): () => void
}

const viewOf = (row: AccountRow): AccountView => ({ id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.createdAt, disabled: row.disabled })

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

// A hash to verify when the address is unknown, so a wrong address takes as long as a wrong password.
let decoy: Promise<string> | null = null

export function createAccounts(options: { engine: () => SqlEngine; now?: () => number }): Accounts {
  const now = options.now ?? Date.now
  const store = (): AccountStore => createAccountStore(options.engine())
  const listeners = new Set<() => void>()
  const announce = () => listeners.forEach((listener) => listener())

  async function newAccount(person: NewPerson, role: Role): Promise<{ row: Parameters<AccountStore['insert']>[0]; view: AccountView }> {
    const badEmail = emailProblem(person.email)
    if (badEmail) throw new AccountError('bad_email', badEmail)
    if (CONTROL_CHARACTER.test(person.name ?? '')) throw new AccountError('bad_name', 'the name has a control character (NUL, a tab, a newline …): type it again')
    const email = person.email.trim()
    const problem = passwordProblem(person.password)
    if (problem) throw new AccountError('bad_password', problem)
    const name = (person.name ?? '').trim() || email
    const row = { id: newAccountId(), email, name, passwordHash: await hashPassword(person.password), role, createdAt: now() }
    return { row, view: { id: row.id, email, name, role, createdAt: row.createdAt, disabled: false } }
  }

  async function insert(person: NewPerson, role: Role, onlyIfNone: boolean): Promise<AccountView> {
    const { row, view } = await newAccount(person, role)
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

  async function newLink(kind: 'setup' | 'invite', role: Role, by: string | null): Promise<string> {
    const secret = newSecret()
    const at = now()
    await store().insertLink({ tokenHash: secretHash(secret), kind, role, workspaceId: DEFAULT_WORKSPACE, createdBy: by, createdAt: at, expiresAt: at + LINK_TTL_MS })
    return secret
  }

  async function changed(id: string, change: (s: AccountStore) => Promise<boolean>): Promise<AccountView> {
    const accounts = store()
    if (!(await change(accounts))) throw new AccountError('not_found', `no account ${id}`)
    const row = await accounts.byId(id)
    if (!row) throw new AccountError('not_found', `no account ${id}`)
    return viewOf(row)
  }

  // An admin cannot take away the last admin's role or account: nobody could change roles again.
  async function keepsAnAdmin(id: string): Promise<void> {
    const admins = (await store().list()).filter((a) => a.role === 'admin' && !a.disabled)
    if (admins.length === 1 && admins[0]?.id === id) throw new AccountError('last_admin', 'this is the last admin: make another admin first')
  }

  async function openSession(row: AccountRow): Promise<{ secret: string; account: AccountView }> {
    const secret = newSecret()
    const at = now()
    await store().insertSession({ tokenHash: secretHash(secret), accountId: row.id, workspaceId: DEFAULT_WORKSPACE, createdAt: at, expiresAt: at + SESSION_IDLE_MS, lastSeenAt: at })
    // Sessions that expired unused are removed as new ones begin: the table holds live ones.
    await store().deleteExpiredSessions(at)
    return { secret, account: viewOf(row) }
  }

  // A member who joins through the identity provider has a password hash like everyone, of a
  // secret thrown away at once: no password signs them in, only the provider.
  async function insertVouched(person: { email: string; name: string }, role: Role): Promise<AccountRow | undefined> {
    const email = person.email.trim()
    if (emailProblem(email)) return undefined
    const name = CONTROL_CHARACTER.test(person.name) ? '' : person.name.trim()
    const row = { id: newAccountId(), email, name: name || email, passwordHash: await hashPassword(newSecret()), role, createdAt: now() }
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
    createFirstAdmin: (person) => insert(person, 'admin', true),
    async newSetupLink() {
      await store().deleteLinks('setup')
      return newLink('setup', 'admin', null)
    },
    invite: (role, by) => newLink('invite', role, by),
    async linkRole(secret) {
      const link = await store().peekLink(secretHash(secret), now())
      return link ? link.role : null
    },
    async redeem(secret, person) {
      // The details are checked before the link is used, so a typo does not spend it.
      await newAccount(person, 'viewer')
      if (await store().byEmail(person.email)) throw new AccountError('taken', `an account for ${person.email.trim()} exists`)
      const link = await store().takeLink(secretHash(secret), now())
      if (!link) throw new AccountError('bad_link', 'this link is not valid: it was used, replaced or has expired')
      return insert(person, link.role, link.kind === 'setup')
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
      return { ...(await openSession(row)), joined: !member }
    },
    async sessionOf(secret) {
      if (!secret) return null
      const at = now()
      const found = await store().sessionAccount(secretHash(secret), at)
      if (!found || found.account.disabled) return null
      // Seen again: it lasts another idle period (written at most once a minute).
      if (at - found.session.lastSeenAt > 60_000) await store().touchSession(found.session.tokenHash, at, at + SESSION_IDLE_MS)
      return viewOf(found.account)
    },
    async liveSessions(secrets) {
      if (secrets.length === 0) return new Set()
      const hashes = new Map(secrets.map((secret) => [secretHash(secret), secret]))
      const live = await store().liveSessions([...hashes.keys()], now())
      return new Set([...live].map((hash) => hashes.get(hash) ?? ''))
    },
    async signOut(secret) {
      await store().deleteSession(secretHash(secret))
      announce()
    },
    async list() {
      return (await store().list()).map(viewOf)
    },
    async setRole(id, role) {
      if (role !== 'admin') await keepsAnAdmin(id)
      const view = await changed(id, (s) => s.setRole(id, role))
      announce()
      return view
    },
    async setDisabled(id, disabled) {
      if (disabled) await keepsAnAdmin(id)
      const view = await changed(id, (s) => s.setDisabled(id, disabled))
      // A disabled account is signed out everywhere at once.
      if (disabled) await store().deleteSessionsOf(id)
      announce()
      return view
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

