// add_fault_rule: a rule preset (shared/receiver/rule-presets.ts) on an endpoint, as the app's "add a
// preset" does: the preset's defaults, then the parameters given, added through the source (a
// store's rule module, or a served Hookloop's rule.addPreset). A running app or `hookloop listen`
// on the folder sees the new row (host/definitions-watch.ts) and applies it.
import { z } from 'zod'
import { PRESET_IDS, RULE_PRESETS } from '../../../shared/receiver'
import { defineTool } from './context'

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
    const endpoint = await ctx.endpoint(args.endpoint)
    const rule = await ctx.source.addRule(endpoint, { preset: args.preset, parameters: args.parameters, name: args.name })
    ctx.options.log(`add_fault_rule: ${args.preset} on ${endpoint.slug} (rule ${rule.id})`)
    return { rule: { id: rule.id, endpoint: endpoint.slug, preset: args.preset, name: rule.name, enabled: rule.enabled, explain: rule.explain } }
  },
})
