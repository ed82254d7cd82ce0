// The sender's event catalog picker: provider → event type, and the composer is prefilled with
// that event's payload (fresh ids and times each time it is picked or refreshed).
import { useState } from 'react'
import { EVENT_CATALOG, prefill, type Prefill } from '../../../shared/event-catalog'
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/providers'

export function CatalogPicker({ onPick }: { onPick: (p: Prefill) => void }) {
  const [provider, setProvider] = useState<ProviderId | ''>('')
  const [eventType, setEventType] = useState('')
  const [note, setNote] = useState('')
  const pick = (p: ProviderId, type: string) => {
    const filled = prefill(p, type, Date.now())
    if (!filled) return
    setNote(filled.note)
    onPick(filled)
  }
  return (
    <div className="grid2" data-testid="catalog-picker">
      <label className="field">
        From the event catalog
        <select
          className="input"
          value={provider}
          onChange={(e) => {
            const next = e.target.value as ProviderId | ''
            setProvider(next)
            setEventType('')
            setNote('')
          }}
          data-testid="catalog-provider"
        >
          <option value="">— type your own —</option>
          {PROVIDER_IDS.map((id) => (
            <option key={id} value={id}>
              {PROVIDERS[id].label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Catalog event
        <span className="row" style={{ gap: 4 }}>
          <select
            className="input mono"
            value={eventType}
            disabled={provider === ''}
            onChange={(e) => {
              setEventType(e.target.value)
              if (provider !== '') pick(provider, e.target.value)
            }}
            data-testid="catalog-event"
          >
            <option value="">{provider === '' ? '' : 'choose…'}</option>
            {provider !== '' && EVENT_CATALOG[provider].map((e) => <option key={e.type} value={e.type}>{e.type}</option>)}
          </select>
          <button className="btn" disabled={provider === '' || eventType === ''} onClick={() => provider !== '' && pick(provider, eventType)} title="New ids and times" data-testid="catalog-refresh">
            ↻
          </button>
        </span>
        {note && <span className="hint">{note}</span>}
      </label>
    </div>
  )
}
