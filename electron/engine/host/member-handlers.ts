// The members and workspaces commands (shared/contract/member-commands.ts, workspace-commands.ts).
// An admin lists the accounts of the workspace they act in, invites one to it (a one-time link, in
// this answer only), adds an existing account, changes a role there, ends a membership, disables an
// account, makes a new workspace; anyone lists their workspaces and moves their session to another. Without accounts they
// answer `unavailable`: the run's token is the only way in, and nobody is a member.
import type { Caller, CommandHandlers } from './control-server'
import { AccountError, LINK_TTL_MS, type Accounts } from '../accounts'
import { createWorkspaceStore, type SqlEngine } from '../store'
import { HostError } from './host-error'

export interface MemberContext {
  accounts: Accounts | null
  /** The store the workspaces' names are read from. */
  engine: () => SqlEngine
  /** The address a link starts with: the public URL, or the control server's origin. */
  base: () => string
  now?: () => number
}

type MemberHandlers = Pick<
  CommandHandlers,
  'member.list' | 'member.invite' | 'member.add' | 'member.setRole' | 'member.remove' | 'member.setDisabled' | 'workspace.list' | 'workspace.switch' | 'workspace.create'
>

export function createMemberHandlers(ctx: MemberContext): MemberHandlers {
  const now = ctx.now ?? Date.now
  const accounts = (): Accounts => {
    if (!ctx.accounts) throw new HostError('unavailable', 'this Hookloop has no accounts: start it with `hookloop serve --accounts`')
    return ctx.accounts
  }
  // With accounts every caller acts in a workspace (control-server.ts's callerOf).
  const workspaceOf = (caller: Caller): string => {
    accounts()
    if (caller.workspace === undefined) throw new HostError('unavailable', 'this Hookloop has no accounts: start it with `hookloop serve --accounts`')
    return caller.workspace
  }
  // The account part's refusals, said as the contract's errors.
  const said = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof AccountError)) throw error
      throw new HostError(error.code === 'not_found' ? 'not_found' : 'conflict', error.message)
    }
  }
  return {
    'member.list': async (_req, caller) => ({ members: await accounts().list(workspaceOf(caller)) }),
    'member.invite': async ({ role }, caller) => {
      const secret = await accounts().invite(role, caller.account?.id ?? '', workspaceOf(caller))
      return { link: `${ctx.base()}/join?link=${secret}`, role, expiresAt: now() + LINK_TTL_MS }
    },
    'member.add': ({ email, role }, caller) => said(() => accounts().addMember(email, role, workspaceOf(caller))),
    'member.setRole': ({ id, role }, caller) => said(() => accounts().setRole(id, role, workspaceOf(caller))),
    'member.remove': ({ id }, caller) => said(() => accounts().removeMember(id, workspaceOf(caller))),
    'member.setDisabled': ({ id, disabled }, caller) => said(() => accounts().setDisabled(id, disabled, workspaceOf(caller))),
    'workspace.list': async (_req, caller) => {
      const current = workspaceOf(caller)
      if (caller.token) {
        // A token's one workspace.
        const workspace = await createWorkspaceStore(ctx.engine()).byId(current)
        return { workspaces: workspace ? [{ id: workspace.id, name: workspace.name, role: caller.token.role }] : [], current }
      }
      const mine = await accounts().workspacesOf(caller.account?.id ?? '')
      return { workspaces: mine.map((m) => ({ id: m.workspaceId, name: m.workspaceName, role: m.role })), current }
    },
    'workspace.switch': async ({ id }, caller) => {
      workspaceOf(caller)
      if (!caller.session) throw new HostError('forbidden', 'a token acts in the one workspace it was made in: make a token there instead')
      const session = caller.session
      const view = await said(() => accounts().switchWorkspace(session, id))
      const name = (await createWorkspaceStore(ctx.engine()).byId(id))?.name ?? id
      return { id, name, role: view.role }
    },
    'workspace.create': async ({ name }, caller) => {
      workspaceOf(caller)
      if (!caller.session || !caller.account) throw new HostError('forbidden', 'a token acts in the one workspace it was made in: a person makes a workspace, signed in')
      const admin = caller.account.id
      try {
        const made = await accounts().createWorkspace(name, admin)
        return { id: made.id, name: made.name, role: 'admin' as const }
      } catch (error) {
        if (error instanceof AccountError && error.code === 'bad_name') throw new HostError('bad_request', `workspace.create: ${error.message}`)
        if (error instanceof AccountError && error.code === 'taken') throw new HostError('conflict', error.message)
        throw error
      }
    },
  }
}
