// Resend a captured request to your app: to the endpoint's forward target or a URL typed; as it
// was (its original signature, to test the app's check), edited and re-signed with the endpoint's
// secret, or edited with the signature left broken on purpose. The engine stores the new leg.
// A new body is typed, or picked from a file (any size an endpoint takes: it is uploaded over HTTP,
// not sent in a command); a big body shows only its start, so it is replaced from a file or sent whole.
import { useState } from 'react'
import { formatBytes, type ForwardLegView, type RequestDetail, type ResendMode } from '../../../shared/contract'
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
  const start = decodeBase64(request.bodyBase64)
  // Only the start of a big body is here: typing over it would send the start alone.
  const whole = start.length >= request.bodyStoredBytes
  const original = bodyText(start)
  const [body, setBody] = useState(original)
  const [file, setFile] = useState<File | null>(null)
  // Bumped to empty the file input when the person goes back to the original body.
  const [fileInput, setFileInput] = useState(0)
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
      const upload = edited && file ? (await client.uploadBody(file)).upload : undefined
      const leg = await client.call('request.resend', {
        id: request.id,
        mode,
        ...(to.trim() && to.trim() !== target ? { to: to.trim() } : {}),
        ...(upload !== undefined ? { bodyUpload: upload } : edited && whole && body !== original ? { body } : {}),
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
            {file ? (
              <span className="row" data-testid="resend-body-chosen">
                <span className="mono">
                  {file.name} · {formatBytes(file.size)}
                </span>
                <button className="btn small" onClick={() => (setFile(null), setFileInput((n) => n + 1))}>
                  Keep the original body
                </button>
              </span>
            ) : whole ? (
              <textarea className="input mono" rows={6} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} data-testid="resend-body" />
            ) : (
              <span className="hint" data-testid="resend-body-whole">
                The body is {formatBytes(request.bodyStoredBytes)}, too big to edit here: it is sent whole as stored, or pick a file to send instead.
              </span>
            )}
          </label>
          <label className="field">
            Body from a file
            <input key={fileInput} type="file" className="input" onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="resend-body-file" />
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
