// The tools' source on a served Hookloop (`hookloop mcp --server URL`, `hookloop serve --accounts`):
// its commands on the control socket, admitted by an API token. The server reads its own store and
// answers in the same views, so a read tool says what it says on the server's data folder; a change
// goes through the server's command, and the server decides by the token's role (a viewer's is
// refused with the role it needs). The server hands out no signing secret: what needs one (a
// signature's explanation, a trigger to an endpoint) the server runs itself.
import type { CommandName, CommandRequest, CommandResponse, RuleView, Snapshot } from '../../../shared/contract'
import { ToolError, type McpRule, type McpSource } from './context'
import { heldDone } from './held-asks'

/** The control socket's commands as the CLI's `--server` client sends them (electron/cli/server-arg.ts). */
export interface ServerCommands {
  /** The server's origin, never the token. */
  readonly where: string
  call<C extends CommandName>(name: C, req: CommandRequest<C>): Promise<CommandResponse<C>>
  close(): void
}

const ruleOf = (r: RuleView): McpRule => {
  const name = (r.definition as { name?: unknown } | null)?.name
  return { id: r.id, endpointId: r.endpointId, name: typeof name === 'string' ? name : null, enabled: r.enabled, explain: r.explain }
}

export function createServerSource(server: ServerCommands): McpSource {
  const { where } = server
  /** A refusal (a role below the command's, a row it does not have) as the server said it. */
  const refusal = (error: unknown) => new ToolError(`${where}: ${error instanceof Error ? error.message : String(error)}`)
  const call = async <C extends CommandName>(name: C, req: CommandRequest<C>): Promise<CommandResponse<C>> => {
    try {
      return await server.call(name, req)
    } catch (error) {
      throw refusal(error)
    }
  }
  /** A row's detail, or null when the server has no such row (as a store reads none). */
  const detail = async <C extends 'request.get' | 'delivery.get' | 'request.explainSignature'>(name: C, id: number): Promise<CommandResponse<C> | null> => {
    try {
      return await server.call(name, { id } as CommandRequest<C>)
    } catch (error) {
      if ((error as { code?: unknown }).code === 'not_found') return null
      throw refusal(error)
    }
  }
  // Reads asked together (list_endpoints: the receiver, the endpoints and the rules) share one
  // snapshot in flight; the next asks again, so nothing is kept stale.
  let inFlight: Promise<Snapshot> | null = null
  const snapshot = (): Promise<Snapshot> => (inFlight ??= call('snapshot', {}).finally(() => (inFlight = null)))
  return {
    where,
    receiverUrl: async () => (await snapshot()).receiverUrl,
    endpoints: async () => (await snapshot()).endpoints,
    rules: async () => (await snapshot()).rules.map(ruleOf),
    timelinePage: (filter, offset, limit) => call('timeline.page', { filter, offset, limit }),
    requestDetail: (id) => detail('request.get', id),
    deliveryDetail: (id) => detail('delivery.get', id),
    secrets: async () => [],
    async addRule(endpoint, { preset, parameters, name }) {
      const numbers: Record<string, number> = {}
      for (const [key, value] of Object.entries(parameters ?? {})) {
        if (typeof value !== 'number') throw new ToolError(`${where} takes a preset's parameters as numbers; ${key} is ${JSON.stringify(value)}`)
        numbers[key] = value
      }
      let rule = await call('rule.addPreset', { endpointId: endpoint.id, preset, ...(parameters ? { parameters: numbers } : {}) })
      // A preset is added unnamed, as the app adds it; the name is the rule's own field.
      if (name) rule = await call('rule.update', { id: rule.id, definition: { ...(rule.definition as Record<string, unknown>), name }, revision: rule.revision })
      return ruleOf(rule)
    },
    async removeRule(id) {
      const rule = (await snapshot()).rules.find((r) => r.id === id)
      if (!rule) return null
      await call('rule.delete', { id })
      return ruleOf(rule)
    },
    heldRequests: async () => (await call('breakpoint.list', {})).held,
    async decideHeld(requestId, decision) {
      if (decision.action === 'release') await call('held.release', { requestId, ...(decision.edit ? { edit: decision.edit } : {}) })
      else if (decision.action === 'answer') await call('held.answer', { requestId, answer: decision.answer })
      else await call('held.drop', { requestId })
      return heldDone(requestId, decision)
    },
    // Both need a signing secret, which the server gives to no token: it runs them and answers.
    explainSignature: (requestId) => detail('request.explainSignature', requestId),
    triggerToEndpoint: (req) => call('endpoint.trigger', req),
    close: async () => server.close(),
  }
}
