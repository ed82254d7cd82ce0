// The breakpoint commands: the list (with the requests held now and each provider's wait), adding
// and removing a breakpoint, and a person's decision for a held request. The receiver validates;
// its refusals name the field.
import { DefinitionError, explainBreakpoint, type Breakpoint, type HoldDecision } from '../../../shared/receiver'
import { providerWaits } from '../../../shared/providers'
import type { BreakpointCommandName, BreakpointListView, BreakpointView } from '../../../shared/contract'
import type { Receiver } from '../receiver'
import type { CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'

export interface BreakpointContext {
  current: HandlerContext['current']
  /** The list changed: push it to every UI. */
  changed(breakpoints: BreakpointView[]): void
}

export const breakpointView = (b: Breakpoint): BreakpointView => ({ ...b, explain: explainBreakpoint(b) })

/** The breakpoints, the requests held now, and each provider's wait: what a UI starts from. */
export function breakpointList(receiver: Pick<Receiver, 'breakpoints'>): BreakpointListView {
  return { breakpoints: receiver.breakpoints.list().map(breakpointView), held: receiver.breakpoints.held(), waits: providerWaits() }
}

export function createBreakpointHandlers(ctx: BreakpointContext): Pick<CommandHandlers, BreakpointCommandName> {
  const breakpoints = () => ctx.current().engine.receiver.breakpoints
  const refused = (command: string, error: unknown): unknown => (error instanceof DefinitionError ? new HostError(error.path === 'requestId' ? 'not_found' : 'bad_request', `${command}: ${error.message}`) : error)
  const decide = (command: string, requestId: number, decision: HoldDecision) => {
    try {
      breakpoints().decide(requestId, decision)
      return { ok: true as const }
    } catch (error) {
      throw refused(command, error)
    }
  }
  const list = () => breakpoints().list().map(breakpointView)
  return {
    'breakpoint.list': () => breakpointList(ctx.current().engine.receiver),
    'breakpoint.put': (req, caller) => {
      try {
        const made = breakpointView(breakpoints().put(req.breakpoint, caller.workspace))
        ctx.changed(list())
        return made
      } catch (error) {
        throw refused('breakpoint.put', error)
      }
    },
    'breakpoint.remove': (req) => {
      if (!breakpoints().remove(req.id)) throw new HostError('not_found', `breakpoint ${req.id} does not exist`)
      ctx.changed(list())
      return { ok: true }
    },
    'held.release': (req) => decide('held.release', req.requestId, { action: 'release', ...(req.edit ? { edit: req.edit } : {}) }),
    'held.answer': (req) => decide('held.answer', req.requestId, { action: 'answer', answer: req.answer }),
    'held.drop': (req) => decide('held.drop', req.requestId, { action: 'drop' }),
  }
}
