// The history commands: the store's size with its retention, saving the retention, and Clear
// history (everything, or one endpoint's captures). After a clear every UI re-reads its timeline.
import type { CommandHandlers } from './control-server'
import type { HistoryCommandName } from '../../../shared/contract'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'

export interface HistoryContext {
  current: HandlerContext['current']
  /** The timeline lost rows: tell every UI to read it again. */
  timelineReset(): void
}

export function createHistoryHandlers(ctx: HistoryContext): Pick<CommandHandlers, HistoryCommandName> {
  const retention = () => ctx.current().engine.retention
  return {
    'history.size': () => retention().size(),
    'history.setRetention': async (req) => {
      try {
        const { applied: _applied, ...saved } = await retention().set({ days: req.days, maxMb: req.maxMb })
        return saved
      } catch (error) {
        if (error instanceof RangeError) throw new HostError('bad_request', error.message)
        throw error
      }
    },
    'history.clear': async (req) => {
      const { engine } = ctx.current()
      if (req.endpointId !== undefined && !engine.receiver.endpoints.get(req.endpointId)) throw new HostError('not_found', `endpoint ${req.endpointId} does not exist`)
      const result = await retention().prune(req.endpointId === undefined ? { all: true } : { endpointId: req.endpointId })
      ctx.timelineReset()
      return result
    },
  }
}
