// Forward mode's commands: set an endpoint's forward targets ("Forward to your app") and resend a
// captured request to a target. The receiver validates (http(s) only, no loop back to itself);
// its refusals name the contract's field (forwardTo, to), not the file format's (forward_to).
import { endpointDefinition, type Endpoint, DefinitionError } from '../../../shared/receiver'
import type { CommandHandlers } from './control-server'
import type { HandlerContext } from './handlers'
import { HostError } from './host-error'
import { legView } from './forward-views'
import { endpointViews } from './views'

/** A receiver refusal about forward targets, as the command's own field: forward_to[1] → forwardTo.1. */
export function forwardToRefusal(command: string, error: unknown): unknown {
  if (!(error instanceof DefinitionError) || !error.path.startsWith('forward_to')) return error
  const field = error.path.replace(/^forward_to(?:\[(\d+)\])?/, (_, i: string | undefined) => (i === undefined ? 'forwardTo' : `forwardTo.${i}`))
  return new HostError('bad_request', `${command}: ${field}: ${error.problem}`)
}

/** The endpoint as the receiver's input (its written definition), with new forward targets. */
const endpointInput = (e: Endpoint, forwardTo: readonly string[]) => ({ ...endpointDefinition(e), forward_to: forwardTo.length > 0 ? [...forwardTo] : null })

export function createForwardHandlers(ctx: HandlerContext) {
  const uploadedBody = (upload: string): Buffer => {
    const body = ctx.uploads.take(upload)
    if (!body) throw new HostError('bad_request', `request.resend: bodyUpload: no uploaded body "${upload}" is waiting (an upload is used once and kept 10 minutes): upload the file again`)
    return body
  }
  return {
    'endpoint.setForwardTo': async (req) => {
      const binding = ctx.current()
      const { endpoints } = binding.engine.receiver
      const endpoint = endpoints.get(req.id)
      if (!endpoint) throw new HostError('not_found', `endpoint ${req.id} does not exist`)
      try {
        await endpoints.update(req.id, endpointInput(endpoint, req.forwardTo))
      } catch (error) {
        throw forwardToRefusal('endpoint.setForwardTo', error)
      }
      ctx.changed('endpoints')
      const view = (await endpointViews(binding)).find((e) => e.id === req.id)
      if (!view) throw new HostError('not_found', `endpoint ${req.id} does not exist`)
      return view
    },
    'request.resend': async (req) => {
      const { receiver } = ctx.current().engine
      receiver.requests.flush()
      const request = receiver.requests.get(req.id)
      if (!request) throw new HostError('not_found', `request #${req.id} does not exist`)
      const to = req.to ?? (request.endpointId ? receiver.endpoints.get(request.endpointId)?.forwardTo?.[0] : undefined)
      if (!to) throw new HostError('bad_request', `request.resend: to: this request's endpoint has no forward target; type the URL to send it to`)
      const body = req.bodyUpload !== undefined ? uploadedBody(req.bodyUpload) : req.body !== undefined ? Buffer.from(req.body, 'utf8') : undefined
      try {
        const leg = await receiver.resend(req.id, {
          to,
          mode: req.mode,
          ...(req.headers ? { headers: req.headers.map((h): [string, string] => [h.name, h.value]) } : {}),
          ...(body !== undefined ? { body } : {}),
        })
        return legView(leg)
      } catch (error) {
        if (error instanceof DefinitionError) throw new HostError('bad_request', `request.resend: ${error.message}`)
        throw error
      }
    },
  } satisfies Partial<CommandHandlers>
}
