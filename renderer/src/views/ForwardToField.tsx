// "Forward to your app" on an endpoint card: set, change or clear where requests no rule answers
// go (several URLs = fan-out: the first answers the sender, the others get copies). The engine
// refuses a URL that is not http(s) or points back at the receiver; the reason shows here.
import { useState } from 'react'
import type { EndpointView } from '../../../shared/contract'
import { toast, useApp } from '../state'
import { splitTargets } from '../lib/forward-input'

export function ForwardToField({ endpoint }: { endpoint: EndpointView }) {
  const saved = endpoint.forwardTo.join(' ')
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const value = text ?? saved
  const save = async (forwardTo: string[]) => {
    const client = useApp.getState().client
    if (!client) return
    setBusy(true)
    try {
      const view = await client.call('endpoint.setForwardTo', { id: endpoint.id, forwardTo })
      setText(null)
      setError(null)
      toast('ok', view.forwardTo.length > 0 ? `${endpoint.name} forwards to ${view.forwardTo.join(', ')}` : `${endpoint.name} no longer forwards`)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  const changed = value.trim() !== saved
  return (
    <div className="forward-to" data-testid="forward-to">
      <div className="section-title">Forward to your app</div>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <input
          className={`input mono${error ? ' invalid' : ''}`}
          style={{ flex: 1 }}
          value={value}
          placeholder="http://127.0.0.1:3000/webhooks"
          onChange={(e) => (setText(e.target.value), setError(null))}
          onKeyDown={(e) => e.key === 'Enter' && changed && void save(splitTargets(value))}
          aria-label="forward to your app"
          data-testid="forward-to-input"
        />
        <button className="btn small primary" disabled={busy || !changed} onClick={() => void save(splitTargets(value))} data-testid="forward-to-save">
          Save
        </button>
        <button className="btn small" disabled={busy || endpoint.forwardTo.length === 0} onClick={() => void save([])} data-testid="forward-to-clear">
          Clear
        </button>
      </div>
      {error ? (
        <div className="error-text" data-testid="forward-to-error">
          {error}
        </div>
      ) : (
        <div className="hint" data-testid="forward-to-state">
          {endpoint.forwardTo.length === 0
            ? 'Not forwarding: a request no rule answers gets 200. Give your app’s URL to have it see every request (several = fan-out, the first answers).'
            : `A request no rule answers goes to ${endpoint.forwardTo.length === 1 ? 'your app' : `${endpoint.forwardTo.length} targets (the first answers the sender)`}, and the sender gets its answer. The forward presets below put faults around it.`}
        </div>
      )}
    </div>
  )
}
