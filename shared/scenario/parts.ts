// The pieces of a scenario that other areas define: receiver endpoints and rules (shared/receiver/
// endpoints, rules, rule-presets), sender policies (shared/sender/policy-presets) and sending-side
// faults (shared/sender/faults). The scenario format reuses their schemas rather than describing them twice; this file
// is the one place that wires them in.
import { z } from 'zod'
import { endpointInputSchema } from '../receiver'
import { ruleSchema, type Rule } from '../receiver'
import { parseRuleOrPreset, presetSchema } from '../receiver'
import { policySpecSchema } from '../sender'
import { unionBranch } from '../receiver'

/** Forwards another schema's issues unchanged, so their paths land inside the scenario's. */
function forwardIssues(schema: z.ZodType, value: unknown, ctx: z.RefinementCtx): boolean {
  const result = schema.safeParse(value)
  if (result.success) return true
  // A union of step kinds reports the branch that fits (unionBranch), as the rule parser does.
  for (const issue of result.error.issues) ctx.addIssue((unionBranch(issue) ?? issue) as Parameters<typeof ctx.addIssue>[0])
  return false
}

/** A rule entry as `hookloop listen` takes it: a full rule, or a preset (`{"preset": "fail-first", "n": 3}`). */
export const ruleEntrySchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const isPreset = value !== null && typeof value === 'object' && !Array.isArray(value) && 'preset' in value
    forwardIssues(isPreset ? presetSchema : ruleSchema, value, ctx)
  })
  .transform((value): Rule => parseRuleOrPreset(value))

/** An endpoint of ours with its rules, in the same form as a `hookloop listen` config entry. */
export const endpointSchema = endpointInputSchema
  .extend({ rules: z.array(ruleEntrySchema).default([]) })
  .superRefine((endpoint, ctx) => {
    if (endpoint.scheme === 'custom' && !endpoint.custom) {
      ctx.addIssue({ code: 'custom', path: ['custom'], message: 'the custom scheme needs its settings (header, algorithm, encoding)' })
    }
  })

export const policySchema = policySpecSchema

export { SEND_FAULT_TYPES, sendFaultSchema, type SendFault } from '../sender'

export type EndpointDefinition = z.infer<typeof endpointSchema>
export type PolicyDefinition = z.infer<typeof policySchema>
