// The pieces of a scenario that other areas define: receiver endpoints and rules, sender
// policies and sending-side faults. The scenario format reuses their schemas rather than
// describing them twice; this file is the one place that wires them in.
//
// PROVISIONAL: until the receiver's and the sender's shared definitions exist, the schemas below
// describe the obvious shape so scenarios can be validated; each is replaced by an import.
import { z } from 'zod'
import { SCHEME_IDS } from './signatures'

const status = z.number().int().min(100).max(599)

// Receiver: rule steps and matchers (mockttp's model).
export const RULE_STEP_TYPES = ['delay', 'reply', 'timeout', 'close', 'reset', 'redirect', 'drip', 'malformed'] as const
export const FINAL_STEP_TYPES = ['reply', 'timeout', 'close', 'reset', 'redirect', 'drip', 'malformed'] as const

export const ruleStepSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('delay'), ms: z.number().int().nonnegative() }),
  z.strictObject({
    type: z.literal('reply'),
    status,
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('timeout'), ms: z.number().int().nonnegative().optional() }),
  z.strictObject({ type: z.literal('close') }),
  z.strictObject({ type: z.literal('reset') }),
  z.strictObject({ type: z.literal('redirect'), status: z.union([z.literal(301), z.literal(302)]), location: z.string() }),
  z.strictObject({ type: z.literal('drip'), status: status.optional(), body: z.string(), chunk_ms: z.number().int().nonnegative() }),
  z.strictObject({ type: z.literal('malformed') }),
])

export const ruleMatcherSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('method'), method: z.string() }),
  z.strictObject({ type: z.literal('header'), name: z.string(), value: z.string().optional() }),
  z.strictObject({ type: z.literal('event-type'), path: z.string(), value: z.string() }),
  z.strictObject({ type: z.literal('nth-of-key'), n: z.array(z.number().int().positive()).min(1) }),
  z.strictObject({ type: z.literal('every-nth'), n: z.number().int().positive() }),
  z.strictObject({ type: z.literal('probability'), p: z.number().min(0).max(1), seed: z.number().int() }),
])

export const ruleSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    matchers: z.array(ruleMatcherSchema).default([]),
    steps: z.array(ruleStepSchema).min(1),
  })
  .superRefine((rule, ctx) => {
    const finals = FINAL_STEP_TYPES as readonly string[]
    rule.steps.forEach((step, index) => {
      if (finals.includes(step.type) && index !== rule.steps.length - 1) {
        ctx.addIssue({ code: 'custom', path: ['steps', index, 'type'], message: `final step "${step.type}" must be the last step` })
      }
    })
  })

export const dedupeSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('header'), name: z.string().min(1) }),
  z.strictObject({ type: z.literal('json-path'), path: z.string().min(1) }),
  z.strictObject({ type: z.literal('template'), template: z.string().min(1) }),
])

export const endpointSchema = z.strictObject({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a slug is lower-case letters, digits and dashes'),
  name: z.string().optional(),
  scheme: z.enum(SCHEME_IDS).optional(),
  secrets: z.array(z.string()).default([]),
  dedupe: dedupeSchema.optional(),
  dedupe_window_ms: z.number().int().positive().optional(),
  rules: z.array(ruleSchema).default([]),
})

// Sender: policies (presets or custom) and sending-side faults.
export const POLICY_PRESETS = ['pandoktorek', 'csku', 'standard-webhooks', 'svix', 'stripe', 'github', 'shopify'] as const

export const policySchema = z.union([
  z.enum(POLICY_PRESETS),
  z.strictObject({
    preset: z.enum(POLICY_PRESETS).optional(),
    max_attempts: z.number().int().positive().optional(),
    timeout_ms: z.number().int().positive().optional(),
  }),
])

export const SEND_FAULT_TYPES = [
  'duplicate',
  'wrong-secret',
  'rotated-secret',
  'stale-timestamp',
  'future-timestamp',
  'corrupt-signature',
  'drop',
] as const

export const sendFaultSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('duplicate'), mode: z.enum(['at-once', 'parallel', 'delayed']).default('at-once'), delay_ms: z.number().int().nonnegative().optional() }),
  z.strictObject({ type: z.literal('wrong-secret') }),
  z.strictObject({ type: z.literal('rotated-secret') }),
  z.strictObject({ type: z.literal('stale-timestamp'), by_s: z.number().int().positive().default(600) }),
  z.strictObject({ type: z.literal('future-timestamp'), by_s: z.number().int().positive().default(600) }),
  z.strictObject({ type: z.literal('corrupt-signature') }),
  z.strictObject({ type: z.literal('drop') }),
])

export type EndpointDefinition = z.infer<typeof endpointSchema>
export type PolicyDefinition = z.infer<typeof policySchema>
export type SendFault = z.infer<typeof sendFaultSchema>
