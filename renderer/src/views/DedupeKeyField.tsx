// The dedupe key on the endpoint form and card: auto (the endpoint finds the event id on its own:
// a provider's id header, else the body's event_id or id), one of the person's own (a header, a
// body field, a template over body fields), or none. The card changes it on a live endpoint.
import { useState } from 'react'
import type { EndpointView } from '../../../shared/contract'
import { dedupeKeyOf, dedupeKeyText, explainDedupeKey, type DedupeKey } from '../../../shared/receiver'
import { Select, type Choice } from './Select'
import { toast, useApp } from '../state'

export type DedupeType = DedupeKey['type'] | 'none'

export const DEDUPE_TYPES: Choice<DedupeType>[] = [
  { value: 'auto', label: 'auto: find the event id' },
  { value: 'header', label: 'header' },
  { value: 'json-path', label: 'body field' },
  { value: 'template', label: 'template' },
  { value: 'none', label: 'none' },
]

/** The key a form's type and text make (a template keeps its spaces). */
export function dedupeFromForm(type: DedupeType, text: string): DedupeKey | null {
  return dedupeKeyOf(type, type === 'template' ? text : text.trim())
}

/** The type picker and its one text field; auto and none have no text. */
export function DedupeInputs({ type, text, onType, onText, testId }: { type: DedupeType; text: string; onType: (t: DedupeType) => void; onText: (t: string) => void; testId: string }) {
  return (
    <div className="row" style={{ flexWrap: 'nowrap' }}>
      <Select choices={DEDUPE_TYPES} value={type} onChange={onType} testId={`${testId}-type`} />
      <input
        className="input mono"
        style={{ flex: 1 }}
        value={type === 'auto' || type === 'none' ? '' : text}
        placeholder={type === 'auto' ? 'webhook-id, X-GitHub-Delivery … or body event_id, id' : type === 'none' ? 'every request a row of its own' : ''}
        disabled={type === 'auto' || type === 'none'}
        onChange={(e) => onText(e.target.value)}
        aria-label="dedupe key"
        data-testid={`${testId}-text`}
      />
    </div>
  )
}

export function DedupeKeyField({ endpoint }: { endpoint: EndpointView }) {
  const savedType: DedupeType = endpoint.dedupe?.type ?? 'none'
  const savedText = dedupeKeyText(endpoint.dedupe)
  const [type, setType] = useState<DedupeType | null>(null)
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const shownType = type ?? savedType
  const shownText = text ?? savedText
  const changed = shownType !== savedType || (shownType !== 'auto' && shownType !== 'none' && shownText !== savedText)
  const save = async () => {
    const client = useApp.getState().client
    if (!client) return
    setBusy(true)
    try {
      const view = await client.call('endpoint.setDedupe', { id: endpoint.id, dedupe: dedupeFromForm(shownType, shownText) })
      setType(null)
      setText(null)
      setError(null)
      toast('ok', `${endpoint.name}: ${explainDedupeKey(view.dedupe)}`)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="dedupe-key" data-testid="dedupe-key">
      <div className="section-title">Dedupe key</div>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <div style={{ flex: 1 }}>
          <DedupeInputs type={shownType} text={shownText} onType={(t) => (setType(t), setError(null))} onText={(t) => (setText(t), setError(null))} testId="dedupe-key" />
        </div>
        <button className="btn small primary" disabled={busy || !changed} onClick={() => void save()} data-testid="dedupe-key-save">
          Save
        </button>
      </div>
      {error ? (
        <div className="error-text">{error}</div>
      ) : (
        <div className="hint" data-testid="dedupe-key-state">
          {endpoint.dedupe?.type === 'auto'
            ? "Auto: a provider's event id header (webhook-id, X-GitHub-Delivery, X-Shopify-Webhook-Id …), else the body's event_id or id. The inspector says which one each request used."
            : endpoint.dedupe
              ? `Requests with the same ${explainDedupeKey(endpoint.dedupe)} share a row; a second arrival is flagged dup.`
              : 'No dedupe key: every request is a row of its own, found by searching its body text.'}
        </div>
      )}
    </div>
  )
}
