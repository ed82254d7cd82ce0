// A select over one of the snapshot's preset catalogs: the options are the catalog's entries, and
// the value handed back is the entry's own id (so it types as the catalog's ids).
import type { PresetView } from '../../../shared/contract'

export function PresetSelect<Id extends string>(props: { presets: PresetView<Id>[]; value: Id; onChange: (id: Id) => void; testId?: string }) {
  return (
    <select
      className="input"
      value={props.value}
      onChange={(e) => {
        const chosen = props.presets.find((p) => p.id === e.target.value)
        if (chosen) props.onChange(chosen.id)
      }}
      {...(props.testId ? { 'data-testid': props.testId } : {})}
    >
      {props.presets.map((p) => (
        <option key={p.id} value={p.id} title={p.description}>
          {p.label}
        </option>
      ))}
    </select>
  )
}
