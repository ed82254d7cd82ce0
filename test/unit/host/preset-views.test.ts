// The snapshot's preset lists come from the catalogs: plain JSON, every listed rule preset
// expands with its catalog defaults, every dedupe preset is a valid key.
import { describe, expect, it } from 'vitest'
import { presetViews } from '../../../electron/engine/host/views'
import { expandPreset } from '../../../shared/receiver'
import { dedupeKeySchema } from '../../../shared/receiver'
import { POLICY_PRESET_IDS } from '../../../shared/sender'

describe('preset views', () => {
  const views = presetViews()

  it('are plain JSON, as the wire carries them', () => {
    expect(JSON.parse(JSON.stringify(views))).toEqual(views)
  })

  it('list every rule preset, each expanding to a rule with its default parameters', () => {
    for (const preset of views.rulePresets) {
      const input = { preset: preset.id, ...Object.fromEntries(preset.parameters.map((p) => [p.name, p.default])), ...(preset.id === 'chaos' ? { seed: 7 } : {}), ...(preset.target ? { url: 'http://127.0.0.1:3000/hook' } : {}) }
      expect(expandPreset(input).name, preset.id).toBeTruthy()
    }
    expect(views.rulePresets.find((p) => p.id === 'fail-first')?.parameters).toEqual([{ name: 'n', label: 'N', default: 3, min: 1, max: 20 }])
  })

  it('offer every policy preset but the file-only starting point, and dedupe keys that validate', () => {
    expect(views.policyPresets.map((p) => p.id)).toEqual(POLICY_PRESET_IDS.filter((id) => id !== 'custom'))
    expect(views.policyPresets.find((p) => p.id === 'csku')).toMatchObject({ label: 'Provider B (csku)', schedule: [0, 30_000, 60_000, 90_000], timeoutMs: 5_000 })
    for (const preset of views.dedupePresets) expect(dedupeKeySchema.parse(preset.key)).toEqual(preset.key)
  })
})
