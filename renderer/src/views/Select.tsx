// A select over typed choices: what it hands back is the chosen entry's own value, so a scheme
// stays a SchemeId and a preset id an id of its catalog (no cast from the DOM's string).
import type { EndpointView, PresetView } from '../../../shared/contract'

export interface Choice<V extends string> {
  value: V
  label: string
  title?: string
}

export function Select<V extends string>(props: { choices: readonly Choice<V>[]; value: V; onChange: (value: V) => void; disabled?: boolean; testId?: string; ariaLabel?: string }) {
  return (
    <select
      className="input"
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => {
        const chosen = props.choices.find((c) => c.value === e.target.value)
        if (chosen) props.onChange(chosen.value)
      }}
      data-testid={props.testId}
      aria-label={props.ariaLabel}
    >
      {props.choices.map((c) => (
        <option key={c.value} value={c.value} title={c.title}>
          {c.label}
        </option>
      ))}
    </select>
  )
}

/** Each name as its own label (schemes …). */
export const named = <V extends string>(values: readonly V[]): Choice<V>[] => values.map((value) => ({ value, label: value }))

/** Our endpoints, by name and path. */
export const endpointChoices = (endpoints: readonly EndpointView[]): Choice<string>[] => endpoints.map((e) => ({ value: e.id, label: `${e.name} — /h/${e.slug}` }))

/** A catalog's entries from the snapshot. */
export const presetChoices = <Id extends string>(presets: readonly PresetView<Id>[]): Choice<Id>[] => presets.map((p) => ({ value: p.id, label: p.label, title: p.description }))
