// The audit of a running Hookloop (docs/team.md, "Audit"): what the control server's dispatch
// records after each command that changes something (its least role is above viewer, in
// COMMAND_ROLES: a new command is audited without an edit here), the account events that are not
// commands (a member joining, the first admin, a sign-out), and `audit.list`. The store redacts
// every detail as it writes it (store/audit.ts).
import { COMMAND_ROLES, LOCAL_ACTOR, READS_ABOVE_VIEWER, type AuditVia, type CommandName } from '../../../shared/contract'
import { createAuditStore, type NewAuditEntry, type SqlEngine } from '../store'
import type { AccountView, SignInRefusedReason } from '../accounts'
import type { Caller, CommandHandlers } from './control-server'

/** An account event that is not a command (account-routes.ts, the first admin made at start), or a sign-in refused. */
export type AccountEvent = AccountChange | SignInRefusal

/** How a person proved who they are at a sign-in: their Hookloop password, or the team's identity provider (oidc-routes.ts). */
export type SignInMethod = 'password' | 'oidc'

export interface AccountChange {
  kind: 'account.join' | 'account.firstAdmin' | 'account.signIn' | 'account.signOut'
  /** Its role and workspace: the one joined, or the session's. */
  account: Pick<AccountView, 'id' | 'email' | 'role' | 'workspaceId'>
  via: AuditVia
  /** At a sign-in, and a join through the identity provider: how the person proved who they are. */
  method?: SignInMethod
  /** The identity provider's name. */
  provider?: string
  /** At a sign-in: the client's address the request came from (the rate limit's). */
  address?: string
}

/** A sign-in refused: the address tried (never the password), why, how and from where. */
export interface SignInRefusal {
  kind: 'account.signInRefused'
  /** The email given; null when refused before one was known (an identity provider's callback past the rate limit). */
  email: string | null
  reason: SignInRefusedReason | 'rate_limited'
  method: SignInMethod
  provider?: string
  address: string
}

export interface Audit {
  /** After a command succeeded: recorded when it changes something (not a viewer's read). */
  command(name: CommandName, req: unknown, res: unknown, caller: Caller): Promise<void>
  account(event: AccountEvent): Promise<void>
  handlers: Pick<CommandHandlers, 'audit.list'>
}

export interface AuditOptions {
  engine: () => SqlEngine
  /** The wall clock: the audit's times are never simulated. */
  now?: () => number
}

/** Whether a command is a change the audit records: any whose least role is above viewer, but an admin's read. */
export const isAuditedCommand = (name: CommandName): boolean => COMMAND_ROLES[name] !== 'viewer' && !READS_ABOVE_VIEWER.has(name)

const TARGET_FIELDS: readonly [field: string, kind: string][] = [
  ['endpointId', 'endpoint'],
  ['subscriptionId', 'subscription'],
  ['requestId', 'request'],
  ['deliveryId', 'delivery'],
]

/** What a command names: its `id` (of the kind its name starts with), or the id of what it made. */
export function auditTarget(name: string, req: unknown, res: unknown): { kind: string; id: string } | null {
  const kind = name.split('.')[0] ?? name
  const field = (value: unknown, key: string): string | undefined => {
    if (!value || typeof value !== 'object') return undefined
    const inner = (value as Record<string, unknown>)[key]
    return typeof inner === 'string' || typeof inner === 'number' ? String(inner) : undefined
  }
  const id = field(req, 'id')
  if (id !== undefined) return { kind, id }
  // Made by this command: the answer names it.
  const made = field(res, 'id')
  if (made !== undefined && name.endsWith('.create')) return { kind, id: made }
  if (made !== undefined && name === 'rule.addPreset') return { kind: 'rule', id: made }
  for (const [key, named] of TARGET_FIELDS) {
    const value = field(req, key)
    if (value !== undefined) return { kind: named, id: value }
  }
  const delivery = field(res, 'deliveryId')
  if (delivery !== undefined) return { kind: 'delivery', id: delivery }
  return null
}

/** One line in words: the command, what it names, and what matters of it (a revision, a role). */
export function auditSummary(name: string, req: unknown, target: { kind: string; id: string } | null): string {
  const r = (req && typeof req === 'object' ? req : {}) as Record<string, unknown>
  const parts = [name]
  // The name a person gave comes before the id: it is what they recognise.
  if (typeof r.name === 'string') parts.push(`"${r.name.slice(0, 80)}"`)
  if (target) parts.push(`${target.kind} ${target.id}`)
  if (typeof r.revision === 'number') parts.push(`from revision ${r.revision}`)
  if (typeof r.role === 'string') parts.push(`role ${r.role}`)
  if (typeof r.preset === 'string') parts.push(`preset ${r.preset}`)
  if (typeof r.enabled === 'boolean') parts.push(r.enabled ? 'enabled' : 'disabled')
  if (typeof r.paused === 'boolean') parts.push(r.paused ? 'paused' : 'resumed')
  if (typeof r.disabled === 'boolean') parts.push(r.disabled ? 'disabled' : 'enabled')
  if (typeof r.mode === 'string') parts.push(`mode ${r.mode}`)
  return parts.join(' · ')
}

/** Who made a change: the signed-in account, the API token by its name, or `local` (no accounts: the app, a served Hookloop with its run token). */
export function actorOf(caller: Caller): Pick<NewAuditEntry, 'actorId' | 'actor' | 'via'> {
  if (caller.token) return { actorId: null, actor: `token ${caller.token.name}`, via: 'token' }
  if (caller.account) return { actorId: caller.account.id, actor: caller.account.email, via: caller.via ?? 'session' }
  return { actorId: null, actor: LOCAL_ACTOR, via: caller.via ?? 'app' }
}

const ACCOUNT_SUMMARIES: Record<AccountChange['kind'], (a: AccountChange['account'], through: string | undefined) => string> = {
  'account.join': (a, through) => `${a.email} joined as ${a.role} through ${through ?? 'an invite'}`,
  'account.firstAdmin': (a) => `${a.email} made the first admin`,
  'account.signIn': (a, through) => `${a.email} signed in through ${through ?? 'a password'}`,
  'account.signOut': (a) => `${a.email} signed out`,
}

const REFUSAL_WORDS: Record<SignInRefusal['reason'], string> = {
  unknown: 'no such account',
  wrong_password: 'wrong password',
  disabled: 'the account is disabled',
  rate_limited: 'too many attempts',
  no_workspace: 'the account is a member of no workspace',
}

/** The longest attempted email or client address kept: what a person typed is not trusted to be short. */
const TRIED_MAX = 320

function refusalEntry(event: SignInRefusal, at: number): NewAuditEntry {
  const email = event.email === null ? null : event.email.slice(0, TRIED_MAX)
  const address = event.address.slice(0, TRIED_MAX)
  const through = event.method === 'oidc' ? (event.provider ?? 'the identity provider') : 'a password'
  return {
    at,
    actorId: null,
    actor: email ?? 'unknown',
    via: 'session',
    command: event.kind,
    target: null,
    summary: `a sign-in${email === null ? '' : ` as ${email}`} through ${through} was refused: ${REFUSAL_WORDS[event.reason]} (from ${address})`,
    detail: { email, reason: event.reason, method: event.method, ...(event.provider === undefined ? {} : { provider: event.provider }), address },
  }
}

export function createAudit(options: AuditOptions): Audit {
  const now = options.now ?? Date.now
  const store = () => createAuditStore(options.engine())
  return {
    async command(name, req, res, caller) {
      if (!isAuditedCommand(name)) return
      const target = auditTarget(name, req, res)
      // The request is what changed; the answer is kept only for what it made (an id), never in
      // full: a rotated secret's hint, an invite's link are in answers.
      await store().record({ at: now(), ...actorOf(caller), ...(caller.workspace === undefined ? {} : { workspaceId: caller.workspace }), command: name, target, summary: auditSummary(name, req, target), detail: req ?? {} })
    },
    async account(event) {
      if (event.kind === 'account.signInRefused') {
        await store().record(refusalEntry(event, now()))
        return
      }
      const { account } = event
      await store().record({
        at: now(),
        workspaceId: account.workspaceId,
        actorId: account.id,
        actor: account.email,
        via: event.via,
        command: event.kind,
        target: { kind: 'member', id: account.id },
        summary: ACCOUNT_SUMMARIES[event.kind](account, event.provider),
        detail: {
          role: account.role,
          ...(event.method ? { method: event.method } : {}),
          ...(event.provider === undefined ? {} : { provider: event.provider }),
          ...(event.address === undefined ? {} : { address: event.address.slice(0, TRIED_MAX) }),
        },
      })
    },
    handlers: {
      // The caller's workspace's entries only (without accounts, every entry: all are `default`'s).
      'audit.list': async ({ actor, command, since, offset, limit }, caller) =>
        store().list({ ...(caller.workspace === undefined ? {} : { workspaceId: caller.workspace }), ...(actor === undefined ? {} : { actor }), ...(command === undefined ? {} : { command }), ...(since === undefined ? {} : { since }) }, offset, limit),
    },
  }
}
