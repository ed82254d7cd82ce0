// The composer for a provider's subscription: its event types are the provider's catalog, and each
// send builds the catalog's payload afresh in the engine (new ids and times), exactly what
// `hookloop trigger` sends. The payload shown is a preview; editing it sends the edited JSON instead.
import { EVENT_CATALOG, prefill } from '../../../shared/event-catalog'
import { PROVIDERS, type ProviderId } from '../../../shared/providers'

/** What the composer holds for a provider's subscription; `edited: false` = the catalog's, fresh per send. */
export interface ProviderComposer {
  eventType: string
  payload: string
  edited: boolean
}

export function catalogComposer(provider: ProviderId, eventType?: string): ProviderComposer {
  const type = eventType ?? EVENT_CATALOG[provider][0]?.type ?? ''
  return { eventType: type, payload: prefill(provider, type, Date.now())?.payload ?? '{}', edited: false }
}

export function ProviderEventFields({ provider, value, onChange, jsonError }: { provider: ProviderId; value: ProviderComposer; onChange: (next: ProviderComposer) => void; jsonError: string | null }) {
  const pack = PROVIDERS[provider]
  const event = EVENT_CATALOG[provider].find((e) => e.type === value.eventType)
  return (
    <>
      <label className="field">
        {pack.label} event type
        <select className="input mono" value={value.eventType} onChange={(e) => onChange(catalogComposer(provider, e.target.value))} data-testid="sender-event-type">
          {EVENT_CATALOG[provider].map((e) => (
            <option key={e.type} value={e.type}>
              {e.type}
            </option>
          ))}
        </select>
        {event && <span className="hint">{event.description}</span>}
      </label>
      <label className="field" style={{ gridColumn: '1 / -1' }}>
        <span className="row" style={{ gap: 6 }}>
          <span>
            Payload — {value.edited ? 'your edit, sent as it is in every event' : `${pack.label}’s catalog payload, built afresh for every event (new ids and times), as hookloop trigger sends it`}
          </span>
          {value.edited && (
            <button type="button" className="btn small" onClick={() => onChange(catalogComposer(provider, value.eventType))} data-testid="sender-payload-catalog">
              Back to the catalog’s
            </button>
          )}
        </span>
        <textarea
          className={`input${jsonError ? ' invalid' : ''}`}
          rows={9}
          value={value.payload}
          onChange={(e) => onChange({ ...value, payload: e.target.value, edited: true })}
          spellCheck={false}
          data-testid="sender-payload"
          data-catalog={!value.edited}
        />
      </label>
    </>
  )
}
