// Faults around your app, as presets that read as sentences. Each expands to an ordinary rule of
// forward and forward-copy steps (so it can be inspected, edited and explained like any other).
// They are entries of the rule-preset catalog (shared/receiver/rule-presets.ts), listed after its own.
import { z } from 'zod'
import { targetUrlSchema } from './forward'
import { preset } from './rule-preset-entry'

const status = z.number().int().min(100).max(599)
const url = targetUrlSchema
const forward = (to: string) => ({ type: 'forward', url: to }) as const
const copyAndWait = (to: string) => ({ type: 'forward-copy', url: to, wait: true }) as const

export const FORWARD_RULE_PRESETS = {
  'fail-then-forward': preset({
    label: 'Fail first {n}, then forward',
    description: 'Fail the first N before your app sees them, then forward',
    parameters: [{ name: 'n', label: 'N', default: 3, min: 1, max: 20 }],
    target: true,
    shape: { url, n: z.number().int().min(1).max(1000), status: status.optional() },
    rule: (p) => {
      const fail = { type: 'reply', status: p.status ?? 503 } as const
      return { name: `fail the first ${p.n}, then forward`, sequence: { items: [...Array.from({ length: p.n }, () => fail), forward(p.url)], then: 'repeat-last' } }
    },
  }),
  'forward-then-fail': preset({
    label: 'Forward, answer 500 anyway',
    description: 'Forward, but answer the provider 500 anyway (your app processed it; a duplicate will come)',
    target: true,
    shape: { url, status: status.optional() },
    rule: (p) => ({ name: `forward, answer ${p.status ?? 500} anyway`, steps: [copyAndWait(p.url), { type: 'reply', status: p.status ?? 500 }] }),
  }),
  'forward-late': preset({
    label: 'Forward after 11 s',
    description: 'Forward after 11 s (the provider times out while your app is still to get it)',
    target: true,
    shape: { url, ms: z.number().int().nonnegative().max(24 * 3600 * 1000).optional() },
    rule: (p) => ({ name: 'forward late', steps: [{ ...forward(p.url), delay_ms: p.ms ?? 11_000 }] }),
  }),
  'forward-twice': preset({
    label: 'Forward twice',
    description: 'Forward twice (your app gets a duplicate)',
    target: true,
    shape: { url },
    rule: (p) => ({ name: 'forward twice', steps: [copyAndWait(p.url), forward(p.url)] }),
  }),
  'forward-then-reset': preset({
    label: 'Forward, then reset',
    description: 'Your app answers, the provider sees a reset',
    target: true,
    shape: { url },
    rule: (p) => ({ name: 'forward, then reset', steps: [copyAndWait(p.url), { type: 'reset' }] }),
  }),
}
export type ForwardPresetId = keyof typeof FORWARD_RULE_PRESETS
export const FORWARD_PRESET_IDS = Object.keys(FORWARD_RULE_PRESETS) as ForwardPresetId[]
