// add_fault_rule: a rule preset (shared/receiver/rule-presets.ts) on an endpoint, as the app's "add a
// preset" does (host/handlers.ts rule.addPreset): the preset's defaults, then the parameters
// given, validated by the preset's own schema, written through the store's rule module. A running
// app or `hookloop listen` on the folder sees the new row (host/definitions-watch.ts) and applies it.
import { randomBytes, randomUUID } from 'node:crypto'
import { z } from 'zod'
import { explainRule, PRESET_IDS, RULE_PRESETS, expandPreset, DefinitionError } from '../../../shared/receiver'
import { defineTool, ToolError } from './context'

const presetList = PRESET_IDS.map((id) => {
  const { parameters = [] } = RULE_PRESETS.entries[id]
  return `${id}${parameters.length ? ` (${parameters.map((p) => `${p.name}, default ${String(p.default)}`).join('; ')})` : ''}`
}).join(', ')

export const addFaultRule = defineTool({
  name: 'add_fault_rule',
  title: 'Add a fault rule to an endpoint',
  description: `Add a fault rule preset to an endpoint (after its other rules); a running Hookloop app or \`hookloop listen\` on this data folder applies it to the next request. Presets: ${presetList}. Needs --allow-changes.`,
  changes: true,
  input: {
    endpoint: z.string().min(1).describe('endpoint id or slug'),
    preset: z.enum(PRESET_IDS).describe('rule preset id'),
    parameters: z.record(z.string(), z.unknown()).optional().describe('the preset\'s parameters, e.g. {"n": 2} for fail-first'),
    name: z.string().min(1).max(200).optional().describe('a name for the rule'),
  },
  async run(ctx, args) {
    const rules = ctx.ruleStore('add_fault_rule')
    const endpoint = await ctx.endpoint(args.endpoint)
    const { parameters = [], seeded, target } = RULE_PRESETS.entries[args.preset]
    const url = target ? endpoint.forwardTo?.[0] : undefined
    if (target && !url) throw new ToolError(`${args.preset} forwards to your app: give the endpoint ${endpoint.slug} a forward target first`)
    let rule
    try {
      rule = expandPreset({
        preset: args.preset,
        ...Object.fromEntries(parameters.map((p) => [p.name, p.default])),
        ...args.parameters,
        ...(seeded && args.parameters?.seed === undefined ? { seed: randomBytes(4).readUInt32BE() & 0x7fffffff } : {}),
        ...(url ? { url } : {}),
        ...(args.name ? { name: args.name } : {}),
      })
    } catch (error) {
      if (error instanceof DefinitionError) throw new ToolError(`${args.preset}: ${error.message}`)
      throw error
    }
    const id = randomUUID()
    await rules.insert({ id, endpointId: endpoint.id, position: (await rules.listFor(endpoint.id)).length, enabled: rule.enabled, rule, createdAt: Date.now() })
    ctx.options.log(`add_fault_rule: ${args.preset} on ${endpoint.slug} (rule ${id})`)
    return { rule: { id, endpoint: endpoint.slug, preset: args.preset, name: rule.name ?? null, enabled: rule.enabled, explain: explainRule(rule) } }
  },
})
