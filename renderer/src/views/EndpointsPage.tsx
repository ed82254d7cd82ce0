// Endpoints and their rules: create an endpoint (verify scheme, secret, dedupe key); each rule
// reads as its explain() sentence; one-click presets; reorder, enable / disable, delete.
import { useState } from 'react'
import type { EndpointView, PresetView, RuleView } from '../../../shared/contract'
import type { PresetParameter } from '../../../shared/catalog'
import { dedupeKeyText, NEW_ENDPOINT_DEDUPE, type DedupeKey } from '../../../shared/receiver'
import type { PresetId } from '../../../shared/receiver'
import type { SchemeId } from '../../../shared/signatures'
import { named, Select } from './Select'
import { Card, ListPage } from './Page'
import { run, showOnTimeline, toast, useApp } from '../state'
import { ForwardToField } from './ForwardToField'
import { DedupeInputs, DedupeKeyField, dedupeFromForm, type DedupeType } from './DedupeKeyField'
import { splitTargets } from '../lib/forward-input'
import { CommandError } from '../transport/client'

export function EndpointsPage() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const rules = useApp((s) => s.snapshot?.rules ?? [])
  return (
    <ListPage title="Endpoints & rules" hint="An endpoint is a receiving path of ours. Rules decide how it answers: make it fail on purpose and watch the sender retry." form={<NewEndpoint />} noneYet="No endpoints yet">
      {endpoints.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} rules={rules.filter((r) => r.endpointId === endpoint.id).sort((a, b) => a.position - b.position)} />
      ))}
    </ListPage>
  )
}

function NewEndpoint() {
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const dedupePresets = useApp((s) => s.snapshot?.dedupePresets ?? [])
  const [name, setName] = useState('')
  const [scheme, setScheme] = useState<SchemeId | ''>('standard-webhooks')
  const [secret, setSecret] = useState('')
  // The form edits the key's type and its one text field; the command gets the key itself.
  // A new endpoint finds the event id on its own until the person picks another key or none.
  const [dedupeType, setDedupeType] = useState<DedupeType>(NEW_ENDPOINT_DEDUPE.type)
  const [dedupeText, setDedupeText] = useState('')
  const pickDedupe = (key: DedupeKey) => (setDedupeType(key.type), setDedupeText(dedupeKeyText(key)))
  const [forwardTo, setForwardTo] = useState('')
  const [busy, setBusy] = useState(false)
  const create = async () => {
    setBusy(true)
    const created = await run('Create endpoint', (c) =>
      c.call('endpoint.create', {
        name: name.trim(),
        scheme: scheme === '' ? null : scheme,
        secrets: secret ? [secret] : [],
        dedupe: dedupeFromForm(dedupeType, dedupeText),
        ...(forwardTo.trim() ? { forwardTo: splitTargets(forwardTo) } : {}),
      }),
    )
    setBusy(false)
    if (created) {
      toast('ok', `Endpoint ${created.name} answers at ${created.localUrl}`)
      setName('')
      setSecret('')
      setForwardTo('')
    }
  }
  return (
    <Card title="New endpoint" testId="new-endpoint">
      <div className="grid2">
        <label className="field">
          Name
          <input className="input" value={name} onChange={(e) => setName(e.target.value)} placeholder="orders" data-testid="endpoint-name" />
        </label>
        <label className="field">
          Verify scheme
          <Select<SchemeId | ''> choices={[{ value: '', label: 'none (capture only)' }, ...named(schemes)]} value={scheme} onChange={setScheme} testId="endpoint-scheme" />
        </label>
        <label className="field">
          Signing secret
          <input className="input mono" value={secret} onChange={(e) => setSecret(e.target.value)} placeholder={scheme === 'standard-webhooks' || scheme === 'svix' ? 'whsec_…' : 'secret'} data-testid="endpoint-secret" />
        </label>
        <label className="field">
          Dedupe key
          <DedupeInputs type={dedupeType} text={dedupeText} onType={setDedupeType} onText={setDedupeText} testId="endpoint-dedupe" />
        </label>
        <label className="field" style={{ gridColumn: '1 / -1' }}>
          Forward to your app (optional; several = fan-out)
          <input className="input mono" value={forwardTo} onChange={(e) => setForwardTo(e.target.value)} placeholder="http://127.0.0.1:3000/webhooks" data-testid="endpoint-forward-to" />
        </label>
      </div>
      <div className="row">
        <span className="hint">Dedupe presets:</span>
        {dedupePresets.map((p) => (
          <button key={p.id} className="btn small" title={p.description} onClick={() => pickDedupe(p.key)}>
            {p.label}
          </button>
        ))}
      </div>
      <div className="row">
        <button className="btn primary" disabled={busy || name.trim() === ''} onClick={() => void create()} data-testid="create-endpoint">
          Create endpoint
        </button>
      </div>
    </Card>
  )
}

function EndpointCard({ endpoint, rules }: { endpoint: EndpointView; rules: RuleView[] }) {
  const all = useApp((s) => s.snapshot?.rulePresets ?? [])
  // Faults around the app need the endpoint's forward target.
  const presets = all.filter((p) => !p.target || endpoint.forwardTo.length > 0)
  // One input per parameter name across the catalog, starting at its default.
  const parameters = [...new Map(presets.flatMap((p) => p.parameters).map((p) => [p.name, p])).values()]
  const [values, setValues] = useState<Record<string, number>>({})
  const valueOf = (p: PresetParameter) => values[p.name] ?? p.default
  const addPreset = (preset: PresetView<PresetId>) =>
    void run('Add rule', (c) =>
      c.call('rule.addPreset', { endpointId: endpoint.id, preset: preset.id, parameters: Object.fromEntries(preset.parameters.map((p) => [p.name, valueOf(p)])) }),
    ).then((rule) => rule && toast('ok', `Rule added: ${rule.explain}`))
  const label = (preset: PresetView) => preset.parameters.reduce((text, p) => text.replaceAll(`{${p.name}}`, String(valueOf(p))), preset.label)
  return (
    <div className="card" data-testid="endpoint-card" data-endpoint={endpoint.slug}>
      <div className="card-head">
        <h3>{endpoint.name}</h3>
        <span className="badge accent">{endpoint.scheme ?? 'no verify'}</span>
        <span className="badge neutral" data-testid="endpoint-dedupe-badge">
          dedupe: {endpoint.dedupe ? (endpoint.dedupe.type === 'auto' ? 'auto' : dedupeKeyText(endpoint.dedupe)) : 'none'}
        </span>
        <span style={{ flex: 1 }} />
        <button className="btn small" onClick={() => void showOnTimeline({ endpointId: endpoint.id })} data-testid="show-on-timeline">
          Show on timeline
        </button>
        <button
          className="btn small danger"
          onClick={() => {
            if (window.confirm(`Delete endpoint ${endpoint.name} and its rules? Captured requests stay.`)) void run('Delete endpoint', (c) => c.call('endpoint.delete', { id: endpoint.id }))
          }}
        >
          Delete
        </button>
      </div>
      <div className="card-body">
        <div className="row" style={{ flexWrap: 'nowrap' }}>
          <span className="mono ellipsis" style={{ flex: 1 }} data-testid="endpoint-url">
            {endpoint.publicUrl ?? endpoint.localUrl}
          </span>
          <button className="btn small" onClick={() => void navigator.clipboard.writeText(endpoint.publicUrl ?? endpoint.localUrl).then(() => toast('ok', 'URL copied'))}>
            Copy URL
          </button>
        </div>
        {endpoint.secretHints.length > 0 && <div className="hint">Secrets: {endpoint.secretHints.join(', ')}</div>}
        {endpoint.contract && (
          <div className="hint" data-testid="endpoint-contract" title={endpoint.contract.spec}>
            Bodies judged against {endpoint.contract.operation} in {endpoint.contract.title ?? endpoint.contract.spec} (hookloop contract add)
            {endpoint.contract.problem && <span className="badge warn"> {endpoint.contract.problem}</span>}
          </div>
        )}
        <ForwardToField endpoint={endpoint} />
        <DedupeKeyField endpoint={endpoint} />
        <div className="section-title">Rules, first match wins</div>
        <div className="card" style={{ boxShadow: 'none' }}>
          {rules.length === 0 ? (
            <div className="list-item hint">{endpoint.forwardTo.length > 0 ? 'No rules: every request goes to your app.' : 'No rules: every request gets 200.'} Add a preset below.</div>
          ) : (
            <div className="list" data-testid="rule-list">
              {rules.map((rule, i) => (
                <RuleLine key={rule.id} rule={rule} first={i === 0} last={i === rules.length - 1} />
              ))}
            </div>
          )}
        </div>
        <div className="presets" data-testid="rule-presets">
          {presets.map((p) => (
            <button key={p.id} className="btn small" title={p.description} onClick={() => addPreset(p)} data-testid={`preset-${p.id}`}>
              + {label(p)}
            </button>
          ))}
          {parameters.map((p) => (
            <label key={p.name} className="hint row" style={{ gap: 4 }}>
              {p.label} =
              <input
                className="input"
                type="number"
                min={p.min}
                max={p.max}
                value={valueOf(p)}
                onChange={(e) => setValues({ ...values, [p.name]: Math.max(p.min, Math.min(p.max, Number(e.target.value) || p.min)) })}
                style={{ width: 56 }}
              />
            </label>
          ))}
        </div>
      </div>
    </div>
  )
}

function RuleLine({ rule, first, last }: { rule: RuleView; first: boolean; last: boolean }) {
  const [editing, setEditing] = useState<string | null>(null)
  // The revision the text was opened on: a save names it, so an edit made elsewhere meanwhile is
  // refused rather than overwritten (a conflict offers the rule as it is now).
  const [openedRevision, setOpenedRevision] = useState(rule.revision)
  const [error, setError] = useState<string | null>(null)
  const [conflict, setConflict] = useState(false)
  const open = () => {
    setEditing(JSON.stringify(rule.definition, null, 2))
    setOpenedRevision(rule.revision)
    setError(null)
    setConflict(false)
  }
  const save = async () => {
    if (editing === null) return
    let definition: Record<string, unknown>
    try {
      definition = JSON.parse(editing) as Record<string, unknown>
    } catch (e) {
      setError(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`)
      return
    }
    const client = useApp.getState().client
    try {
      await client?.call('rule.update', { id: rule.id, definition, revision: openedRevision })
      setEditing(null)
      setError(null)
      setConflict(false)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      setConflict(e instanceof CommandError && e.code === 'conflict')
    }
  }
  return (
    <div className={`list-item${rule.enabled ? '' : ' disabled'}`} data-testid="rule" style={editing !== null ? { flexDirection: 'column', alignItems: 'stretch' } : undefined}>
      {editing === null ? (
        <>
          <label className="check" title={rule.enabled ? 'Disable' : 'Enable'}>
            <input type="checkbox" checked={rule.enabled} onChange={(e) => void run('Rule', (c) => c.call('rule.setEnabled', { id: rule.id, enabled: e.target.checked }))} />
          </label>
          <span className="grow sentence" data-testid="rule-sentence">
            {rule.explain}
          </span>
          <button className="btn small" onClick={open} title="Edit the rule as data">
            Edit
          </button>
          <button className="btn small" disabled={first} onClick={() => void run('Move rule', (c) => c.call('rule.move', { id: rule.id, position: rule.position - 1 }))} title="Move up">
            ↑
          </button>
          <button className="btn small" disabled={last} onClick={() => void run('Move rule', (c) => c.call('rule.move', { id: rule.id, position: rule.position + 1 }))} title="Move down">
            ↓
          </button>
          <button className="btn small danger" onClick={() => void run('Delete rule', (c) => c.call('rule.delete', { id: rule.id }))} title="Delete">
            ✕
          </button>
        </>
      ) : (
        <>
          <div className="hint">Matchers, then steps (or a sequence per arrival of the dedupe key). A final step must come last.</div>
          <textarea className={`input${error ? ' invalid' : ''}`} rows={10} value={editing} onChange={(e) => setEditing(e.target.value)} spellCheck={false} data-testid="rule-editor" />
          {error && <div className="error-text">{error}</div>}
          <div className="row">
            <button className="btn primary small" onClick={() => void save()} data-testid="rule-save">
              Save
            </button>
            {conflict && (
              <button className="btn small" onClick={open} title="Replace your text with the rule as it is now" data-testid="rule-reload">
                Load the current rule
              </button>
            )}
            <button className="btn small" onClick={() => (setEditing(null), setError(null), setConflict(false))}>
              Cancel
            </button>
          </div>
        </>
      )}
    </div>
  )
}
