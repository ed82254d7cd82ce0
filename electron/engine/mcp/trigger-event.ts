// trigger_event: one catalog event delivered as its provider delivers it (headers, envelope,
// signature, retry policy), as `hookloop trigger` does (engine/trigger.ts: a store of its own,
// so nothing is written to the data folder). Aimed at an endpoint, it is signed with the
// endpoint's secret and goes to the endpoint's local URL, where the running app or listen
// captures it.
import { z } from 'zod'
import { EVENT_CATALOG, parseOverride, OverrideError } from '../../../shared/event-catalog'
import { isPolicyPresetId, POLICY_PRESET_IDS, resolvePolicy, sendFaultSchema, SEND_FAULT_TYPES, type SendFaultInput } from '../../../shared/sender'
import { PROVIDER_IDS, PROVIDERS } from '../../../shared/providers'
import type { Endpoint } from '../../../shared/receiver'
import { CatalogError } from '../providers'
import { trigger } from '../trigger'
import { defineTool, ToolError, type McpContext } from './context'
import { iso } from './answer-text'
import { portAnswers } from './port-answers'

/** The endpoint with its signing secrets: only a store opened here has them (a server gives out hints). */
async function endpointWithSecrets(ctx: McpContext, idOrSlug: string): Promise<Endpoint> {
  const { reads } = ctx.source.local('trigger_event to an endpoint')
  const { id, slug } = await ctx.endpoint(idOrSlug)
  const endpoint = await reads.endpoint(id)
  if (!endpoint) throw new ToolError(`the endpoint ${slug} was deleted meanwhile`)
  return endpoint
}

export const triggerEvent = defineTool({
  name: 'trigger_event',
  title: 'Trigger a provider event',
  description: `Deliver one catalog event exactly as a provider would (its headers, envelope, signature and retry policy; the whole schedule on a virtual clock by default) to a URL, or to an endpoint of the data folder by slug (its local URL: the Hookloop app or \`hookloop listen\` must be running on this data folder to receive it; signed with the endpoint's secret). Returns every attempt. Providers: ${PROVIDER_IDS.join(', ')}. Needs --allow-changes.`,
  changes: true,
  input: {
    provider: z.enum(PROVIDER_IDS).describe('provider pack'),
    eventType: z.string().min(1).describe("an event type of the provider's catalog, e.g. payment_intent.succeeded"),
    url: z.url({ protocol: /^https?$/ }).optional().describe('where to deliver (give url or endpoint)'),
    endpoint: z.string().min(1).optional().describe('an endpoint id or slug of the data folder (give url or endpoint)'),
    secret: z.string().min(1).optional().describe("signing secret (default: the endpoint's, else a fresh one)"),
    set: z.array(z.string()).optional().describe('body overrides PATH=VALUE, e.g. data.object.amount=500'),
    policy: z.string().optional().describe(`retry policy preset (default: the provider's): ${POLICY_PRESET_IDS.join(', ')}`),
    clock: z.enum(['virtual', 'real']).default('virtual'),
    faults: z.array(z.union([z.enum(SEND_FAULT_TYPES), sendFaultSchema])).optional().describe(`sending-side faults: ${SEND_FAULT_TYPES.join(', ')}`),
  },
  async run(ctx, args) {
    if ((args.url === undefined) === (args.endpoint === undefined)) throw new ToolError('give either url or endpoint (a slug of list_endpoints), not both and not neither')
    // Aimed at an endpoint, it is signed with the endpoint's own secret: the store's to read.
    const endpoint = args.endpoint === undefined ? undefined : await endpointWithSecrets(ctx, args.endpoint)
    const url = endpoint ? await ctx.endpointUrl(endpoint.slug) : (args.url as string)
    if (!EVENT_CATALOG[args.provider].some((e) => e.type === args.eventType)) {
      throw new ToolError(`${PROVIDERS[args.provider].label} has no catalog event "${args.eventType}" (some it has: ${EVENT_CATALOG[args.provider].slice(0, 8).map((e) => e.type).join(', ')})`)
    }
    if (args.policy !== undefined && !isPolicyPresetId(args.policy)) throw new ToolError(`policy "${args.policy}" is not a preset (${POLICY_PRESET_IDS.join(', ')})`)
    let overrides
    try {
      overrides = (args.set ?? []).map(parseOverride)
    } catch (error) {
      if (error instanceof OverrideError) throw new ToolError(`set: ${error.message}`)
      throw error
    }
    if (endpoint && !(await portAnswers(url))) {
      throw new ToolError(
        `nothing answers at ${url}: start the Hookloop app or \`hookloop listen --data ${ctx.source.where}\` on this data folder (and give \`hookloop mcp\` its receiver with --receiver-url when it is not ${await ctx.source.receiverUrl()}), or trigger to a url instead`,
      )
    }
    const secrets = args.secret ? [args.secret] : endpoint?.secrets.length ? endpoint.secrets.slice(0, 1) : undefined
    let result
    try {
      result = await trigger({
        provider: args.provider,
        eventType: args.eventType,
        url,
        ...(secrets ? { secrets } : {}),
        overrides,
        ...(args.policy ? { policy: resolvePolicy(args.policy) } : {}),
        clock: { mode: args.clock },
        faults: (args.faults ?? []).map((f) => (typeof f === 'string' ? { type: f } : f) as SendFaultInput),
      })
    } catch (error) {
      if (error instanceof CatalogError || error instanceof OverrideError) throw new ToolError(error.message)
      throw error
    }
    ctx.options.log(`trigger_event: ${args.provider} ${args.eventType} → ${url}: ${result.status} after ${result.attempts.length} attempt(s)`)
    return {
      ok: result.status === 'succeeded',
      provider: args.provider,
      eventType: args.eventType,
      url,
      eventId: result.event_id,
      providerEventId: result.provider_event_id,
      status: result.status,
      clockMs: result.clock_ms,
      body: result.body,
      // A fresh secret is not given back: the receiver that checks it would need it, and answers carry none.
      signedWith: args.secret ? 'the secret given' : endpoint?.secrets.length ? `the endpoint ${endpoint.slug}'s first secret` : 'a fresh secret',
      attempts: result.attempts.map((a) => ({ ...a, startedAt: iso(a.startedAt), nextAttemptAt: iso(a.nextAttemptAt) })),
    }
  },
})
