// remove_fault_rule: a rule deleted through the store's rule module; a running app or
// `hookloop listen` on the folder stops applying it (host/definitions-watch.ts).
import { z } from 'zod'
import { explainRule } from '../../../shared/receiver'
import { defineTool, ToolError } from './context'

export const removeFaultRule = defineTool({
  name: 'remove_fault_rule',
  title: 'Remove a fault rule',
  description: 'Remove a fault rule by id (list_endpoints lists each endpoint\'s rules); a running Hookloop app or `hookloop listen` on this data folder stops applying it. Needs --allow-changes.',
  changes: true,
  input: { ruleId: z.string().min(1).describe('rule id') },
  async run(ctx, { ruleId }) {
    const rules = ctx.ruleStore('remove_fault_rule')
    const stored = await rules.get(ruleId)
    if (!stored) throw new ToolError(`no rule "${ruleId}" in ${ctx.options.dataDir} (list_endpoints lists the rules of each endpoint)`)
    await rules.delete(ruleId)
    const endpoint = stored.endpointId === null ? null : ((await ctx.reads.endpoint(stored.endpointId))?.slug ?? stored.endpointId)
    ctx.options.log(`remove_fault_rule: rule ${ruleId}${endpoint ? ` on ${endpoint}` : ''}`)
    return { removed: { id: ruleId, endpoint, explain: explainRule(stored.rule) } }
  },
})
