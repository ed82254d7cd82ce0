// The commands `hookloop mcp --server` runs its explain_signature and trigger_event through: both
// need an endpoint's signing secret, which the server hands to no token, so the server runs the
// same code the tools run on a store opened by hand (signature-explain.ts, engine/trigger.ts) and
// answers what carries no secret.
import { endpointPath } from '../../../shared/receiver'
import type { ToolCommandName } from '../../../shared/contract'
import { createInspectorReads } from '../store'
import { triggerCatalogEvent, TriggerInputError } from '../trigger'
import type { CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'
import { explainSignature, SignatureExplainError } from './signature-explain'

export function createToolHandlers(ctx: Pick<HandlerContext, 'current'>): Pick<CommandHandlers, ToolCommandName> {
  /** The endpoint's URL at this engine's receiver, where its traffic arrives. */
  const endpointUrl = (slug: string) => `${ctx.current().engine.receiver.url.replace(/\/+$/, '')}${endpointPath(slug)}`
  const reads = () => createInspectorReads(ctx.current().engine.store.engine, ctx.current().engine.store.secrets)
  return {
    'request.explainSignature': async (req) => {
      const { details } = ctx.current()
      let explained
      try {
        explained = await explainSignature({ reads: reads(), endpointUrl, clockOf: async (id) => (await details.requestDetail(id))?.clock ?? { kind: 'wall' } }, req.id)
      } catch (error) {
        if (error instanceof SignatureExplainError) throw new HostError('bad_request', error.message)
        throw error
      }
      if (!explained) throw new HostError('not_found', `request #${req.id} does not exist`)
      return explained
    },
    'endpoint.trigger': async ({ endpoint: idOrSlug, ...event }) => {
      const { receiver } = ctx.current().engine
      const found = receiver.endpoints.get(idOrSlug) ?? receiver.endpoints.list().find((e) => e.slug === idOrSlug)
      if (!found) throw new HostError('not_found', `endpoint ${idOrSlug} does not exist`)
      try {
        return await triggerCatalogEvent({ ...event, url: endpointUrl(found.slug), endpoint: found })
      } catch (error) {
        if (error instanceof TriggerInputError) throw new HostError('bad_request', `endpoint.trigger: ${error.message}`)
        throw error
      }
    },
  }
}
