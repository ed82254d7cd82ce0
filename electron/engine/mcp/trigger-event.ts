// trigger_event: one catalog event delivered as its provider delivers it (headers, envelope,
// signature, retry policy), as `hookloop trigger` does (engine/trigger.ts: a store of its own,
// so nothing is written to the data folder). Aimed at an endpoint, it is signed with the
// endpoint's secret and goes to the endpoint's local URL, where the running app or listen
// captures it; on a served Hookloop the server does that (`endpoint.trigger`), since it hands
// out no secret.
import { z } from 'zod'
import { POLICY_PRESET_IDS, sendFaultSchema, SEND_FAULT_TYPES } from '../../../shared/sender'
import { PROVIDER_IDS } from '../../../shared/providers'
import { triggerCatalogEvent, TriggerInputError } from '../trigger'
import { defineTool, ToolError } from './context'

export const triggerEvent = defineTool({
  name: 'trigger_event',
  title: 'Trigger a provider event',
  description: `Deliver one catalog event exactly as a provider would (its headers, envelope, signature and retry policy; the whole schedule on a virtual clock by default) to a URL, or to an endpoint by slug (its URL at the receiver: the Hookloop app or \`hookloop listen\` must be running on the data folder to receive it, or the served Hookloop delivers it; signed with the endpoint's secret). Returns every attempt. Providers: ${PROVIDER_IDS.join(', ')}. Needs --allow-changes.`,
  changes: true,
  input: {
    provider: z.enum(PROVIDER_IDS).describe('provider pack'),
    eventType: z.string().min(1).describe("an event type of the provider's catalog, e.g. payment_intent.succeeded"),
    url: z.url({ protocol: /^https?$/ }).optional().describe('where to deliver (give url or endpoint)'),
    endpoint: z.string().min(1).optional().describe('an endpoint id or slug (give url or endpoint)'),
    secret: z.string().min(1).optional().describe("signing secret (default: the endpoint's, else a fresh one)"),
    set: z.array(z.string()).optional().describe('body overrides PATH=VALUE, e.g. data.object.amount=500'),
    policy: z.string().optional().describe(`retry policy preset (default: the provider's): ${POLICY_PRESET_IDS.join(', ')}`),
    clock: z.enum(['virtual', 'real']).default('virtual'),
    faults: z.array(z.union([z.enum(SEND_FAULT_TYPES), sendFaultSchema])).optional().describe(`sending-side faults: ${SEND_FAULT_TYPES.join(', ')}`),
  },
  async run(ctx, args) {
    if ((args.url === undefined) === (args.endpoint === undefined)) throw new ToolError('give either url or endpoint (a slug of list_endpoints), not both and not neither')
    const { url, endpoint, ...event } = args
    let answer
    try {
      // Aimed at an endpoint, it is signed with the endpoint's own secret: the source's to use.
      answer = endpoint === undefined ? await triggerCatalogEvent({ ...event, url: url as string }) : await ctx.source.triggerToEndpoint({ ...event, endpoint: (await ctx.endpoint(endpoint)).id })
    } catch (error) {
      if (error instanceof TriggerInputError) throw new ToolError(error.message)
      throw error
    }
    ctx.options.log(`trigger_event: ${args.provider} ${args.eventType} → ${answer.url}: ${answer.status} after ${answer.attempts.length} attempt(s)`)
    return answer
  },
})
