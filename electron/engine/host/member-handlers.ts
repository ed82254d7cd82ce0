// The members commands (shared/contract/member-commands.ts): an admin lists the accounts, invites
// one (a one-time link, in this answer only), changes a role, disables an account. Without
// accounts they answer `unavailable`: the run's token is the only way in, and nobody is a member.
import type { CommandHandlers } from './control-server'
import { AccountError, LINK_TTL_MS, type Accounts } from '../accounts'
import { HostError } from './host-error'

export interface MemberContext {
  accounts: Accounts | null
  /** The address a link starts with: the public URL, or the control server's origin. */
  base: () => string
  now?: () => number
}

type MemberHandlers = Pick<CommandHandlers, 'member.list' | 'member.invite' | 'member.setRole' | 'member.setDisabled'>

export function createMemberHandlers(ctx: MemberContext): MemberHandlers {
  const now = ctx.now ?? Date.now
  const accounts = (): Accounts => {
    if (!ctx.accounts) throw new HostError('unavailable', 'this Hookloop has no accounts: start it with `hookloop serve --accounts`')
    return ctx.accounts
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
    'member.list': async () => ({ members: await accounts().list() }),
    'member.invite': async ({ role }, caller) => {
      const secret = await accounts().invite(role, caller.account?.id ?? '')
      return { link: `${ctx.base()}/join?link=${secret}`, role, expiresAt: now() + LINK_TTL_MS }
    },
    'member.setRole': ({ id, role }) => said(() => accounts().setRole(id, role)),
    'member.setDisabled': ({ id, disabled }) => said(() => accounts().setDisabled(id, disabled)),
  }
}
