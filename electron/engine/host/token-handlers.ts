// The API tokens commands (shared/contract/token-commands.ts): an admin lists the tokens of the
// workspace they act in, makes one there with a role (its secret in this answer only), revokes one
// of them (another workspace's token is not_found, as one that does not exist). Without accounts they answer
// `unavailable`: the run's token is the only way in.
import type { CommandHandlers } from './control-server'
import { TokenError, type Tokens } from '../accounts'
import { DEFAULT_WORKSPACE } from '../store'
import { HostError } from './host-error'

type TokenHandlers = Pick<CommandHandlers, 'token.list' | 'token.create' | 'token.revoke'>

export function createTokenHandlers(ctx: { tokens: Tokens | null }): TokenHandlers {
  const tokens = (): Tokens => {
    if (!ctx.tokens) throw new HostError('unavailable', 'this Hookloop has no accounts, so no API tokens: start it with `hookloop serve --accounts`')
    return ctx.tokens
  }
  const said = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof TokenError)) throw error
      throw new HostError(error.code === 'not_found' ? 'not_found' : 'bad_request', error.message)
    }
  }
  return {
    'token.list': async (_req, caller) => ({ tokens: await tokens().list(caller.workspace ?? DEFAULT_WORKSPACE) }),
    // The admin who asks is its maker; a token making one (an admin's) leaves it unnamed.
    'token.create': ({ name, role }, caller) => said(() => tokens().create({ name, role, workspaceId: caller.workspace ?? DEFAULT_WORKSPACE, by: caller.account?.id ?? null })),
    'token.revoke': ({ id }, caller) => said(() => tokens().revoke(id, caller.workspace ?? DEFAULT_WORKSPACE)),
  }
}
