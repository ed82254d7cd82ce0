// What the held-request tools share: a held request named by its id is asked of the source (a data
// folder's held requests, store/held-requests.ts, asked of the process that holds it; or a served
// Hookloop's held.* commands), and what became of it said the same way from either.
import type { HoldDecision } from '../../../shared/receiver'
import type { HeldRequestStore } from '../store'
import { ToolError, type McpContext } from './context'

/** How long a tool waits for the holding process to act on its ask (it reads asks every 100 ms). */
const ACT_WAIT_MS = 3_000

/** What a decision did, once the holder acted on it. */
export const heldDone = (requestId: number, decision: HoldDecision): string =>
  `${decision.action === 'release' ? (decision.edit ? 'edited and released' : 'released') : decision.action === 'answer' ? `answered ${decision.answer.status}` : 'dropped'}; show_request ${requestId} shows what it was answered`

/** Asks the process holding the request (a data folder's) for the decision and waits until it acted or refused. */
export async function askHolder(store: HeldRequestStore, requestId: number, decision: HoldDecision): Promise<string> {
  store.ask(requestId, decision)
  for (let waited = 0; waited < ACT_WAIT_MS; waited += 50) {
    const state = store.state(requestId)
    if (state.refused !== null) throw new ToolError(`the process holding request #${requestId} refused: ${state.refused}`)
    if (!state.held) return heldDone(requestId, decision)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return 'asked; the process holding it has not acted yet (it reads asks every 100 ms while it holds a request): list_held shows whether it is still held'
}

/** A held request's decision, taken through the source; what became of it. */
export async function decideHeld(ctx: McpContext, tool: string, requestId: number, decision: HoldDecision): Promise<{ requestId: number; done: string }> {
  if (!(await ctx.source.heldRequests()).some((h) => h.requestId === requestId)) {
    throw new ToolError(`request #${requestId} is not held in ${ctx.source.where} (list_held lists the requests held now)`)
  }
  const done = await ctx.source.decideHeld(requestId, decision)
  ctx.options.log(`${tool}: request ${requestId}: ${decision.action}`)
  return { requestId, done }
}
