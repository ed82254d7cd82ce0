// Who may run each command when a served Hookloop has accounts (docs/team.md, "Accounts"): the
// least role each one needs, in one place. A viewer reads; an editor changes what Hookloop does
// (endpoints, rules, subscriptions, sends, resends, scenarios, simulations, the clock, the
// tunnel, breakpoints); an admin also changes what it keeps (retention, Clear history), its
// secrets, its members and its API tokens. Roles are per workspace: a member's role is the one
// they hold in the workspace they act in. `Record<CommandName, Role>`: a new command does not compile until it is given one.
import type { CommandName } from './messages'

/** The WebSocket close code of a socket whose session ended (sign-out, a disabled account). */
export const SIGNED_OUT_CLOSE_CODE = 4401

export const ROLES = ['viewer', 'editor', 'admin'] as const
export type Role = (typeof ROLES)[number]

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value)
}

/** Whether `held` is `needed` or above it. */
export function roleAtLeast(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed)
}

export const COMMAND_ROLES: Record<CommandName, Role> = {
  snapshot: 'viewer',
  'timeline.page': 'viewer',
  'delivery.get': 'viewer',
  'request.get': 'viewer',
  'breakpoint.list': 'viewer',
  // The verdict and its explanation, no secret: a read.
  'request.explainSignature': 'viewer',
  'history.size': 'viewer',
  // The lists `hookloop requests` and `hookloop deliveries --server` read.
  'request.list': 'viewer',
  'delivery.list': 'viewer',
  // Exports read what is kept; a check and Try the loop send to the address given: an editor's.
  'export.selection': 'viewer',
  'delivery.retryNow': 'editor',
  'delivery.replay': 'editor',
  'request.resend': 'editor',
  'endpoint.create': 'editor',
  'endpoint.setForwardTo': 'editor',
  'endpoint.setDedupe': 'editor',
  'endpoint.delete': 'editor',
  'rule.addPreset': 'editor',
  'rule.update': 'editor',
  'rule.setEnabled': 'editor',
  'rule.move': 'editor',
  'rule.delete': 'editor',
  'subscription.create': 'editor',
  'subscription.setPaused': 'editor',
  'event.send': 'editor',
  // Sends to the endpoint, signed with its secret on the server.
  'endpoint.trigger': 'editor',
  'clock.set': 'editor',
  'loop.try': 'editor',
  'record.start': 'editor',
  'record.stop': 'editor',
  'scenario.run': 'editor',
  'scenario.cancel': 'editor',
  'tunnel.start': 'editor',
  'tunnel.stop': 'editor',
  'check.consumer': 'editor',
  'check.sender': 'editor',
  'import.replay': 'editor',
  'import.toScenario': 'editor',
  'breakpoint.put': 'editor',
  'breakpoint.remove': 'editor',
  'held.release': 'editor',
  'held.answer': 'editor',
  'held.drop': 'editor',
  // A new signing secret is a credential: the admin's.
  'subscription.rotateSecret': 'admin',
  'history.clear': 'admin',
  'history.setRetention': 'admin',
  // The members: who they are, invites, roles, disabling.
  'member.list': 'admin',
  'member.invite': 'admin',
  'member.add': 'admin',
  'member.setRole': 'admin',
  'member.remove': 'admin',
  'member.setDisabled': 'admin',
  // Machines' API tokens: each one a credential with a role.
  'token.list': 'admin',
  'token.create': 'admin',
  'token.revoke': 'admin',
  // Who changed what: the admin's, and never recorded itself (a read).
  'audit.list': 'admin',
  // The caller's own workspaces, and moving its session to another of them: anyone's.
  'workspace.list': 'viewer',
  'workspace.switch': 'viewer',
  // A new workspace: an admin's (of the workspace they act in), who becomes its admin.
  'workspace.create': 'admin',
}

/**
 * The commands above viewer that change nothing: an admin's reads. The audit records every other
 * command above viewer (engine/host/audit-record.ts), so a new command is recorded unless it is
 * named here.
 */
export const READS_ABOVE_VIEWER: ReadonlySet<CommandName> = new Set<CommandName>(['member.list', 'token.list', 'audit.list'])
