// One entry of the rule-preset catalog (shared/receiver/rule-presets.ts): what the UI lists, the fields a
// config or scenario file may give, and the rule they stand for. Kept apart so other files can
// define entries (shared/receiver/forward-presets.ts) that the catalog lists beside its own.
import type { z } from 'zod'
import type { PresetInfo } from '../catalog'

export type RuleDefinition = Record<string, unknown> & { name: string }

export type RulePresetEntry = PresetInfo & {
  shape: z.ZodRawShape
  /** A UI draws a random `seed` when it adds the preset (the rule itself stays deterministic). */
  seeded?: boolean
  /** The preset needs a forward target (`url`): when added from the UI it is the endpoint's own. */
  target?: boolean
  rule(p: never): RuleDefinition
}

/**
 * `shape` is the preset's own fields (beside `preset` and `name`), `rule` turns them into the rule's
 * definition with its default name. rule() is typed by its own entry's shape.
 */
export function preset<S extends z.ZodRawShape>(entry: PresetInfo & { shape: S; seeded?: boolean; target?: boolean; rule(p: z.output<z.ZodObject<S>>): RuleDefinition }) {
  return entry as RulePresetEntry
}
