// Resend a captured request to your app: to the endpoint's forward target or a URL typed; as it
// was (its original signature, to test the app's check), edited and re-signed with the endpoint's
// secret, or edited with the signature left broken on purpose. The engine stores the new leg.
import { useState } from 'react'
import type { ForwardLegView, RequestDetail, ResendMode } from '../../../shared/contract'
import { bodyText, decodeBase64 } from '../lib/body'
import { parseHeaderLines } from '../lib/forward-input'
import { toast, useApp } from '../state'
import { Select, type Choice } from './Select'

const MODES: Choice<ResendMode>[] = [
  { value: 'as-is', label: 'as it was (original signature)' },
  { value: 'resign', label: 'edited, re-signed with the endpoint’s secret' },
  { value: 'broken', label: 'edited, signature broken on purpose' },
]

export function ResendForm({ request, onSent }: { request: RequestDetail; onSent: (leg: ForwardLegView) => void }) {
  const endpoint = useApp((s) => s.snapshot?.endpoints.find((e) => e.id === request.endpointId))
  const target = endpoint?.forwardTo[0] ?? ''
  const [to, setTo] = useState(target)
  const [mode, setMode] = useState<ResendMode>('as-is')
  const original = bodyText(decodeBase64(request.bodyBase64))
  const [body, setBody] = useState(original)
  const [headerText, setHeaderText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const edited = mode !== 'as-is'

  const send = async () => {
    const { headers, problem } = parseHeaderLines(headerText)
    if (problem) return setError(problem)
    const client = useApp.getState().client
    if (!client) return
    setBusy(true)
    try {
      const leg = await client.call('request.resend', {
        id: request.id,
        mode,
        ...(to.trim() && to.trim() !== target ? { to: to.trim() } : {}),
        ...(edited && body !== original ? { body } : {}),
        ...(edited && headers.length > 0 ? { headers } : {}),
      })
      setError(null)
      toast('ok', `Resent: ${leg.summary}`)
      onSent(leg)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="resend card" data-testid="resend-form">
      <label className="field">
        Send to
        <input
          className={`input mono${error?.includes(' to: ') ? ' invalid' : ''}`}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder="http://127.0.0.1:3000/webhooks"
          data-testid="resend-to"
        />
        {target === '' && <span className="hint">This endpoint has no forward target: type your app’s URL.</span>}
      </label>
      <label className="field">
        How
        <Select choices={MODES} value={mode} onChange={setMode} testId="resend-mode" />
      </label>
      {edited && (
        <>
          <label className="field">
            Headers to set (one “Name: value” a line)
            <textarea className="input mono" rows={2} value={headerText} onChange={(e) => setHeaderText(e.target.value)} spellCheck={false} data-testid="resend-headers" />
          </label>
          <label className="field">
            Body
            <textarea className="input mono" rows={6} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} data-testid="resend-body" />
          </label>
        </>
      )}
      {error && (
        <div className="error-text" data-testid="resend-error">
          {error}
        </div>
      )}
      <div className="row">
        <button className="btn primary small" disabled={busy || to.trim() === ''} onClick={() => void send()} data-testid="resend-send">
          Send
        </button>
      </div>
    </div>
  )
}
