// What the held-request tools share: the data folder's held requests (store/held-requests.ts), and
// an ask to the process that holds one, waited on until that process acted or refused.
import type { HoldDecision } from '../../../shared/receiver'
import type { HeldRequestStore } from '../store'
import { ToolError, type McpContext } from './context'

/** How long a tool waits for the holding process to act on its ask (it reads asks every 100 ms). */
const ACT_WAIT_MS = 3_000

export const heldStore = (ctx: McpContext, tool: string): HeldRequestStore => ctx.source.local(tool).heldRequests()

/** Asks the holding process for the decision and says what became of it. */
export async function askHolder(ctx: McpContext, tool: string, requestId: number, decision: HoldDecision): Promise<{ requestId: number; done: string }> {
  const store = heldStore(ctx, tool)
  if (!store.list().some((h) => h.requestId === requestId)) {
    throw new ToolError(`request #${requestId} is not held in ${ctx.source.where} (list_held lists the requests held now)`)
  }
  store.ask(requestId, decision)
  ctx.options.log(`${tool}: request ${requestId}: ${decision.action}`)
  for (let waited = 0; waited < ACT_WAIT_MS; waited += 50) {
    const state = store.state(requestId)
    if (state.refused !== null) throw new ToolError(`the process holding request #${requestId} refused: ${state.refused}`)
    if (!state.held) return { requestId, done: `${decision.action === 'release' ? (decision.edit ? 'edited and released' : 'released') : decision.action === 'answer' ? `answered ${decision.answer.status}` : 'dropped'}; show_request ${requestId} shows what it was answered` }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { requestId, done: 'asked; the process holding it has not acted yet (it reads asks every 100 ms while it holds a request): list_held shows whether it is still held' }
}
