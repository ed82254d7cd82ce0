// Presets for the faults people ask for most. Each expands to an ordinary rule (so it can be
// inspected, edited and explained like any other).
import { z } from 'zod'
import { parseRule, type Rule } from './rules'
import { toDefinitionError } from './receiver-errors'
import { forwardPresetRule, forwardPresetSchemas, isForwardPreset } from './forward-presets'

export const PRESET_IDS = ['fail-first', 'always-500', 'always-410', 'timeout-once', 'chaos', 'slow'] as const
export type PresetId = (typeof PRESET_IDS)[number]

const status = z.number().int().min(100).max(599)

export const presetSchema = z.discriminatedUnion('preset', [
  /** Fail the first n arrivals of each dedupe key with status (default 503), then answer 200. */
  z.strictObject({ preset: z.literal('fail-first'), n: z.number().int().min(1).max(1000), status: status.optional(), name: z.string().optional() }),
  z.strictObject({ preset: z.literal('always-500'), name: z.string().optional() }),
  z.strictObject({ preset: z.literal('always-410'), name: z.string().optional() }),
  /** Hold the first arrival of each key (forever, or ms then close), answer 200 to the next ones. */
  z.strictObject({ preset: z.literal('timeout-once'), ms: z.number().int().positive().optional(), name: z.string().optional() }),
  /** Answer status (default 503) to a seeded share of requests (default 30 %). */
  z.strictObject({
    preset: z.literal('chaos'),
    probability: z.number().min(0).max(1).optional(),
    status: status.optional(),
    seed: z.number().int(),
    name: z.string().optional(),
  }),
  /** Answer 200 after ms (default 11 s: past provider A's 10 s timeout). */
  z.strictObject({ preset: z.literal('slow'), ms: z.number().int().nonnegative().optional(), name: z.string().optional() }),
  /** Faults around your app (forward mode): shared/forward-presets.ts. */
  ...forwardPresetSchemas,
])
export type PresetInput = z.input<typeof presetSchema>

/** A preset as data → the rule it stands for. Throws DefinitionError on a bad preset. */
export function expandPreset(input: unknown, pathPrefix = ''): Rule {
  const parsed = presetSchema.safeParse(input)
  if (!parsed.success) throw toDefinitionError(parsed.error, input, pathPrefix)
  const p = parsed.data
  if (isForwardPreset(p)) return parseRule(forwardPresetRule(p), pathPrefix)
  const ok = { type: 'reply', status: 200 } as const
  switch (p.preset) {
    case 'fail-first': {
      const fail = { type: 'reply', status: p.status ?? 503 } as const
      return parseRule({ name: p.name ?? `fail the first ${p.n}`, sequence: { items: [...Array.from({ length: p.n }, () => fail), ok], then: 'repeat-last' } })
    }
    case 'always-500':
      return parseRule({ name: p.name ?? 'always 500', steps: [{ type: 'reply', status: 500 }] })
    case 'always-410':
      return parseRule({ name: p.name ?? 'always 410 (gone)', steps: [{ type: 'reply', status: 410 }] })
    case 'timeout-once':
      return parseRule({
        name: p.name ?? 'time out once',
        sequence: { items: [p.ms === undefined ? { type: 'timeout' } : { type: 'timeout', ms: p.ms }, ok], then: 'repeat-last' },
      })
    case 'chaos': {
      const probability = p.probability ?? 0.3
      return parseRule({
        name: p.name ?? `chaos ${Math.round(probability * 100)} % ${p.status ?? 503}`,
        matchers: [{ type: 'probability', p: probability, seed: p.seed }],
        steps: [{ type: 'reply', status: p.status ?? 503 }],
      })
    }
    case 'slow':
      return parseRule({ name: p.name ?? 'slow', steps: [{ type: 'delay', ms: p.ms ?? 11_000 }, ok] })
    default: {
      const never: never = p
      return never
    }
  }
}

/** A rule entry of a config: either a preset (`{"preset": …}`) or a full rule. */
export function parseRuleOrPreset(input: unknown, pathPrefix = ''): Rule {
  if (input !== null && typeof input === 'object' && 'preset' in input) return expandPreset(input, pathPrefix)
  return parseRule(input, pathPrefix)
}
