// remove_fault_rule: a rule deleted through the source (a store's rule module, or a served
// Hookloop's rule.delete); a running app or
// `hookloop listen` on the folder stops applying it (host/definitions-watch.ts).
import { z } from 'zod'
import { defineTool, ToolError } from './context'

export const removeFaultRule = defineTool({
  name: 'remove_fault_rule',
  title: 'Remove a fault rule',
  description: 'Remove a fault rule by id (list_endpoints lists each endpoint\'s rules); a running Hookloop app or `hookloop listen` on this data folder stops applying it. Needs --allow-changes.',
  changes: true,
  input: { ruleId: z.string().min(1).describe('rule id') },
  async run(ctx, { ruleId }) {
    const removed = await ctx.source.removeRule(ruleId)
    if (!removed) throw new ToolError(`no rule "${ruleId}" in ${ctx.source.where} (list_endpoints lists the rules of each endpoint)`)
    const endpoint = removed.endpointId === null ? null : ((await ctx.source.endpoints()).find((e) => e.id === removed.endpointId)?.slug ?? removed.endpointId)
    ctx.options.log(`remove_fault_rule: rule ${ruleId}${endpoint ? ` on ${endpoint}` : ''}`)
    return { removed: { id: ruleId, endpoint, explain: removed.explain } }
  },
})
