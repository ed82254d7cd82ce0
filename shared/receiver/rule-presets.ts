// Presets for the faults people ask for most. Each expands to an ordinary rule (so it can be
// inspected, edited and explained like any other). One entry per preset: what the UI lists
// (label, description, parameters), the fields a config or scenario file may give, and the rule.
import { z } from 'zod'
import { defineCatalog } from '../catalog'
import { FORWARD_RULE_PRESETS } from './forward-presets'
import { HANDSHAKE_PRESETS } from './handshake-presets'
import { preset } from './rule-preset-entry'
import { parseRule, type Rule } from './rules'
import { toDefinitionError } from './errors'

const status = z.number().int().min(100).max(599)
const ok = { type: 'reply', status: 200 } as const

/** A label's `{name}` stands for the parameter of that name. */
export const RULE_PRESETS = defineCatalog({
  'fail-first': preset({
    label: 'Fail first {n}, then 200',
    description: 'Answer 503 to the first N arrivals of each event id, then 200',
    parameters: [{ name: 'n', label: 'N', default: 3, min: 1, max: 20 }],
    /** Fail the first n arrivals of each dedupe key with status (default 503), then answer 200. */
    shape: { n: z.number().int().min(1).max(1000), status: status.optional() },
    rule: (p) => {
      const fail = { type: 'reply', status: p.status ?? 503 } as const
      return { name: `fail the first ${p.n}`, sequence: { items: [...Array.from({ length: p.n }, () => fail), ok], then: 'repeat-last' } }
    },
  }),
  'always-500': preset({
    label: 'Always 500',
    description: 'Answer 500 to every request',
    shape: {},
    rule: () => ({ name: 'always 500', steps: [{ type: 'reply', status: 500 }] }),
  }),
  'always-410': preset({
    label: 'Always 410',
    description: 'Answer 410 Gone: a final 4xx for most senders',
    shape: {},
    rule: () => ({ name: 'always 410 (gone)', steps: [{ type: 'reply', status: 410 }] }),
  }),
  'timeout-once': preset({
    label: 'Timeout once',
    description: 'Hold the first arrival of each event id open without answering, then 200',
    /** Hold the first arrival of each key (forever, or ms then close), answer 200 to the next ones. */
    shape: { ms: z.number().int().positive().optional() },
    rule: (p) => ({ name: 'time out once', sequence: { items: [p.ms === undefined ? { type: 'timeout' } : { type: 'timeout', ms: p.ms }, ok], then: 'repeat-last' } }),
  }),
  chaos: preset({
    label: 'Chaos 30 %',
    description: 'Answer 503 to a seeded 30 % of requests',
    seeded: true,
    /** Answer status (default 503) to a seeded share of requests (default 30 %). */
    shape: { probability: z.number().min(0).max(1).optional(), status: status.optional(), seed: z.number().int() },
    rule: (p) => {
      const probability = p.probability ?? 0.3
      return {
        name: `chaos ${Math.round(probability * 100)} % ${p.status ?? 503}`,
        matchers: [{ type: 'probability', p: probability, seed: p.seed }],
        steps: [{ type: 'reply', status: p.status ?? 503 }],
      }
    },
  }),
  slow: preset({
    label: 'Slow 11 s',
    description: "Answer 200 after 11 s: past provider A's 10 s timeout",
    /** Answer 200 after ms (default 11 s: past provider A's 10 s timeout). */
    shape: { ms: z.number().int().nonnegative().optional() },
    rule: (p) => ({ name: 'slow', steps: [{ type: 'delay', ms: p.ms ?? 11_000 }, ok] }),
  }),
  ...FORWARD_RULE_PRESETS,
  ...HANDSHAKE_PRESETS,
})
export const PRESET_IDS = RULE_PRESETS.ids
export type PresetId = (typeof PRESET_IDS)[number]

const [first, ...rest] = PRESET_IDS.map((id) => z.strictObject({ preset: z.literal(id), ...RULE_PRESETS.entries[id].shape, name: z.string().optional() }))
export const presetSchema = z.discriminatedUnion('preset', [first!, ...rest])

/** A preset as data → the rule it stands for. Throws DefinitionError on a bad preset. */
export function expandPreset(input: unknown, pathPrefix = ''): Rule {
  const parsed = presetSchema.safeParse(input)
  if (!parsed.success) throw toDefinitionError(parsed.error, input, pathPrefix)
  const { preset: id, name, ...fields } = parsed.data as { preset: PresetId; name?: string }
  const definition = RULE_PRESETS.entries[id].rule(fields as never)
  return parseRule(name === undefined ? definition : { ...definition, name })
}

/** A rule entry of a config: either a preset (`{"preset": …}`) or a full rule. */
export function parseRuleOrPreset(input: unknown, pathPrefix = ''): Rule {
  if (input !== null && typeof input === 'object' && 'preset' in input) return expandPreset(input, pathPrefix)
  return parseRule(input, pathPrefix)
}
