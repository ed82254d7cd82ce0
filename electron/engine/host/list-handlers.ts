// The lists a script reads from a served Hookloop (shared/contract/list-commands.ts): the rows
// `hookloop requests` and `hookloop deliveries` print from a data folder, read by the same
// store/list-reads.ts on this server's store, for a machine with an API token (`--server URL`).
import { createListReads, type ListReads } from '../store'
import type { CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'

type ListHandlers = Pick<CommandHandlers, 'request.list' | 'delivery.list'>

// With accounts (a caller's workspace), the lists are that workspace's, and an endpoint or a
// subscription of another reads as one that does not exist.
async function endpointId(reads: ListReads, slugOrId: string | undefined, workspace: string | undefined): Promise<string | undefined> {
  if (slugOrId === undefined) return undefined
  const endpoint = await reads.endpointOf(slugOrId, workspace)
  if (!endpoint) throw new HostError('not_found', `no endpoint "${slugOrId}" (slug or id)`)
  return endpoint.id
}

export function createListHandlers(ctx: Pick<HandlerContext, 'current'>): ListHandlers {
  const reads = (): ListReads => createListReads(ctx.current().engine.store.engine)
  return {
    'request.list': async (req, caller) => {
      const list = reads()
      const id = await endpointId(list, req.endpoint, caller.workspace)
      return {
        requests: await list.requests({
          limit: req.limit,
          ...(caller.workspace === undefined ? {} : { workspace: caller.workspace }),
          ...(id === undefined ? {} : { endpointId: id }),
          ...(req.eventIdPrefix === undefined ? {} : { eventIdPrefix: req.eventIdPrefix }),
          ...(req.statuses === undefined ? {} : { statuses: req.statuses }),
          ...(req.sinceWall === undefined ? {} : { sinceWall: req.sinceWall }),
        }),
      }
    },
    'delivery.list': async (req, caller) => {
      const list = reads()
      const id = await endpointId(list, req.endpoint, caller.workspace)
      let subscriptionId: string | undefined
      if (req.subscription !== undefined) {
        const found = await list.subscriptionOf(req.subscription, caller.workspace)
        if (found === undefined) throw new HostError('not_found', `no subscription "${req.subscription}" (name or id)`)
        if (found === 'ambiguous') throw new HostError('bad_request', `more than one subscription is named "${req.subscription}"; give its id (hookloop deliveries shows it)`)
        subscriptionId = found.id
      }
      return {
        deliveries: await list.deliveries({
          limit: req.limit,
          ...(caller.workspace === undefined ? {} : { workspace: caller.workspace }),
          ...(id === undefined ? {} : { endpointId: id }),
          ...(subscriptionId === undefined ? {} : { subscriptionId }),
          ...(req.eventIdPrefix === undefined ? {} : { eventIdPrefix: req.eventIdPrefix }),
          ...(req.statuses === undefined ? {} : { statuses: req.statuses }),
          ...(req.sinceWall === undefined ? {} : { sinceWall: req.sinceWall }),
        }),
      }
    },
  }
}
