// Faults around your app, as presets that read as sentences. Each expands to an ordinary rule of
// forward and forward-copy steps (so it can be inspected, edited and explained like any other);
// the catalog below is what a UI lists and what `{"preset": …}` in a config names.
import { z } from 'zod'
import { targetUrlSchema } from './forward'
import type { RuleInput } from './rules'

const status = z.number().int().min(100).max(599)
const name = z.string().optional()

export const FORWARD_PRESETS = {
  'fail-then-forward': 'fail the first n before your app sees them, then forward',
  'forward-then-fail': 'forward, but answer the provider 500 anyway (your app processed it; a duplicate will come)',
  'forward-late': 'forward after 11 s (the provider times out while your app is still to get it)',
  'forward-twice': 'forward twice (your app gets a duplicate)',
  'forward-then-reset': 'your app answers, the provider sees a reset',
} as const
export type ForwardPresetId = keyof typeof FORWARD_PRESETS
export const FORWARD_PRESET_IDS = Object.keys(FORWARD_PRESETS) as ForwardPresetId[]

export const forwardPresetSchemas = [
  z.strictObject({ preset: z.literal('fail-then-forward'), url: targetUrlSchema, n: z.number().int().min(1).max(1000), status: status.optional(), name }),
  z.strictObject({ preset: z.literal('forward-then-fail'), url: targetUrlSchema, status: status.optional(), name }),
  z.strictObject({ preset: z.literal('forward-late'), url: targetUrlSchema, ms: z.number().int().nonnegative().max(24 * 3600 * 1000).optional(), name }),
  z.strictObject({ preset: z.literal('forward-twice'), url: targetUrlSchema, name }),
  z.strictObject({ preset: z.literal('forward-then-reset'), url: targetUrlSchema, name }),
] as const
export type ForwardPresetInput = z.infer<(typeof forwardPresetSchemas)[number]>

export function isForwardPreset(p: { preset: string }): p is ForwardPresetInput {
  return p.preset in FORWARD_PRESETS
}

/** A validated forward preset → the rule it stands for (validated again by parseRule). */
export function forwardPresetRule(p: ForwardPresetInput): RuleInput {
  const forward = { type: 'forward', url: p.url } as const
  const copyAndWait = { type: 'forward-copy', url: p.url, wait: true } as const
  switch (p.preset) {
    case 'fail-then-forward': {
      const fail = { type: 'reply', status: p.status ?? 503 } as const
      return { name: p.name ?? `fail the first ${p.n}, then forward`, sequence: { items: [...Array.from({ length: p.n }, () => fail), forward], then: 'repeat-last' } }
    }
    case 'forward-then-fail':
      return { name: p.name ?? `forward, answer ${p.status ?? 500} anyway`, steps: [copyAndWait, { type: 'reply', status: p.status ?? 500 }] }
    case 'forward-late':
      return { name: p.name ?? 'forward late', steps: [{ ...forward, delay_ms: p.ms ?? 11_000 }] }
    case 'forward-twice':
      return { name: p.name ?? 'forward twice', steps: [copyAndWait, forward] }
    case 'forward-then-reset':
      return { name: p.name ?? 'forward, then reset', steps: [copyAndWait, { type: 'reset' }] }
    default: {
      const never: never = p
      return never
    }
  }
}
