// Export the selected rows (the inspected one plus any Ctrl/⌘-clicked) as HAR 1.2, cURL commands
// or a Hookloop case file — secrets and signatures redacted unless "keep secrets" is ticked — and
// import a HAR or case file to replay it against an endpoint, re-signed with a given secret.
import { useState, type ReactNode } from 'react'
import type { ExportFormat, ReplayResult, ImportedScenarioView } from '../../../shared/contract'
import { openTextFile, saveTextFile, savesToPath } from '../lib/files'
import { run, toast, useApp } from '../state'
import { currentExportSelection, useExportCount } from '../state/export-selection'
import { countText, STAND_IN_SIGNATURE_NOTE } from '../../../shared/contract'
import type { SchemeId } from '../../../shared/signatures'
import { endpointChoices, named, Select } from './Select'

const FORMATS: { id: ExportFormat; label: string; hint: string }[] = [
  { id: 'har', label: 'HAR 1.2', hint: 'opens in browser devtools (Network → Import) and HTTP tools' },
  { id: 'curl', label: 'cURL', hint: 'a bash script, one curl per request, the same bytes' },
  { id: 'case', label: 'Case file', hint: 'Hookloop JSON: setup, captured requests and outcome; can be imported and replayed' },
]

/** A modal that closes on a click outside it; the footer holds the close button, then its actions. */
function Dialog(props: { testId: string; title: string; wide?: boolean; close: () => void; closeLabel: string; actions: ReactNode; children: ReactNode }) {
  return (
    <div className="overlay" onClick={props.close}>
      <div className="dialog" style={props.wide ? { minWidth: 560 } : undefined} onClick={(e) => e.stopPropagation()} data-testid={props.testId}>
        <h2>{props.title}</h2>
        {props.children}
        <div className="row" style={{ marginTop: 12, justifyContent: 'flex-end' }}>
          <button className="btn" onClick={props.close}>
            {props.closeLabel}
          </button>
          {props.actions}
        </div>
      </div>
    </div>
  )
}

export function ExportDialog() {
  const count = useExportCount()
  const [format, setFormat] = useState<ExportFormat>('har')
  const [keepSecrets, setKeepSecrets] = useState(false)
  const [busy, setBusy] = useState(false)
  const rows = countText(count, 'selected row')
  const close = () => useApp.setState({ dialog: null })
  const go = async () => {
    setBusy(true)
    const targets = currentExportSelection()
    const out = await run('Export', (c) => c.call('export.selection', { deliveryIds: targets.deliveryIds, requestIds: targets.requestIds, format, keepSecrets }))
    setBusy(false)
    if (!out) return
    const where = await saveTextFile({ title: 'Export', defaultName: out.fileName, text: out.text, mime: out.mime })
    if (where) {
      toast('ok', `Exported ${countText(targets.keys.length, 'selected row')} to ${where}${keepSecrets ? ' (with secrets: keep it private)' : ''}`)
      close()
    }
  }
  return (
    <Dialog
      testId="export-dialog"
      title={`Export ${rows}`}
      close={close}
      closeLabel="Cancel"
      actions={
        <button className="btn primary" disabled={busy || count === 0} onClick={() => void go()} data-testid="export-download">
          {busy ? <span className="spinner" /> : null} Download
        </button>
      }
    >
        {count === 0 && <div className="hint">Select a row (click), or pick several with Ctrl/⌘-click, then export.</div>}
        {FORMATS.map((f) => (
          <label key={f.id} className="check" style={{ display: 'flex', gap: 6 }}>
            <input type="radio" name="export-format" checked={format === f.id} onChange={() => setFormat(f.id)} data-testid={`export-format-${f.id}`} />
            <span>
              <strong>{f.label}</strong> <span className="hint">— {f.hint}</span>
            </span>
          </label>
        ))}
        <label className="check" style={{ display: 'flex', gap: 6, marginTop: 8 }}>
          <input type="checkbox" checked={keepSecrets} onChange={(e) => setKeepSecrets(e.target.checked)} data-testid="export-keep-secrets" />
          <span>
            Keep secrets <span className="hint">— off: signature headers, Authorization and endpoint / subscription secrets become [redacted]</span>
          </span>
        </label>
    </Dialog>
  )
}

export function ImportDialog() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const [file, setFile] = useState<{ name: string; text: string } | null>(null)
  const [targetKind, setTargetKind] = useState<'endpoint' | 'url'>(endpoints.length > 0 ? 'endpoint' : 'url')
  const [endpointId, setEndpointId] = useState('')
  const [url, setUrl] = useState('')
  const [resign, setResign] = useState(false)
  const [scheme, setScheme] = useState<SchemeId>('standard-webhooks')
  const [secret, setSecret] = useState('')
  const [busy, setBusy] = useState(false)
  const [results, setResults] = useState<ReplayResult[] | null>(null)
  const [made, setMade] = useState<(ImportedScenarioView & { where: string }) | null>(null)
  const endpoint = endpoints.find((e) => e.id === endpointId) ?? endpoints[0]
  const close = () => useApp.setState({ dialog: null })
  const pick = async () => {
    const opened = await openTextFile({ title: 'Import HAR or case file', extensions: ['har', 'json'] })
    if (opened) {
      setFile(opened)
      setResults(null)
      setMade(null)
    }
  }
  /** The file as a scenario (requests sent again, what was observed expected), saved where the person says. */
  const makeScenario = async () => {
    if (!file) return
    setBusy(true)
    const out = await run('Make it a scenario', (c) => c.call('import.toScenario', { text: file.text, source: file.name }))
    setBusy(false)
    if (!out) return
    const saved = await saveTextFile({ title: 'Save the scenario', defaultName: out.fileName, text: out.text, mime: 'application/json' })
    if (!saved) return
    const where = savesToPath() ? saved : `${saved} in your downloads folder`
    setMade({ ...out, where })
    toast('ok', `Scenario saved to ${where}`)
  }
  const go = async () => {
    if (!file) return
    setBusy(true)
    const target = targetKind === 'endpoint' && endpoint ? { endpointId: endpoint.id } : { url: url.trim() }
    const out = await run('Replay', (c) => c.call('import.replay', { text: file.text, target, ...(resign ? { resign: { scheme, secret } } : {}) }))
    setBusy(false)
    if (out) setResults(out.results)
  }
  const ready = file !== null && (targetKind === 'endpoint' ? endpoint !== undefined : url.trim() !== '') && (!resign || secret !== '')
  return (
    <Dialog
      testId="import-dialog"
      wide
      title="Import: replay, or make it a scenario"
      close={close}
      closeLabel="Close"
      actions={
        <>
          <button className="btn" disabled={busy || file === null} onClick={() => void makeScenario()} data-testid="import-make-scenario" title="A scenario file for hookloop run: the requests sent again in order, what was observed as expectations, secrets as placeholders">
            Make it a scenario
          </button>
          <button className="btn primary" disabled={busy || !ready} onClick={() => void go()} data-testid="import-replay">
            {busy ? <span className="spinner" /> : null} Replay
          </button>
        </>
      }
    >
        <div className="row">
          <button className="btn" onClick={() => void pick()} data-testid="import-pick">
            Choose a HAR or case file…
          </button>
          <span className="mono ellipsis">{file?.name ?? 'no file chosen'}</span>
        </div>
        <div className="row" style={{ marginTop: 8 }}>
          <label className="check">
            <input type="radio" checked={targetKind === 'endpoint'} disabled={endpoints.length === 0} onChange={() => setTargetKind('endpoint')} /> One of my endpoints
          </label>
          <Select choices={endpointChoices(endpoints)} disabled={targetKind !== 'endpoint'} value={endpoint?.id ?? ''} onChange={setEndpointId} testId="import-endpoint" />
        </div>
        <div className="row">
          <label className="check">
            <input type="radio" checked={targetKind === 'url'} onChange={() => setTargetKind('url')} /> A URL
          </label>
          <input className="input mono" style={{ flex: 1 }} disabled={targetKind !== 'url'} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://staging.example.com/webhooks" data-testid="import-url" />
        </div>
        <label className="check" style={{ display: 'flex', gap: 6, marginTop: 8 }}>
          <input type="checkbox" checked={resign} onChange={(e) => setResign(e.target.checked)} data-testid="import-resign" />
          <span>
            Re-sign <span className="hint">— drop the old (or redacted) signature headers and sign afresh; the id header is kept</span>
          </span>
        </label>
        {resign && (
          <div className="row">
            <Select choices={named(schemes)} value={scheme} onChange={setScheme} ariaLabel="scheme" />
            <input className="input mono" style={{ flex: 1 }} type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} placeholder="secret" data-testid="import-secret" />
          </div>
        )}
        {results && (
          <ul className="checks-list" data-testid="replay-results">
            {results.map((r, i) => (
              <li key={i} data-testid="replay-result" data-same={String(r.same)}>
                <span className={`mark-cell ${r.same === false ? 'warn' : r.outcome.startsWith('http_2') ? 'pass' : 'fail'}`}>{r.same === false ? '≠' : r.outcome.startsWith('http_2') ? '✓' : '✗'}</span>
                <span>
                  <strong>{r.label}</strong> → now {r.outcome}
                  {r.same === true ? ', the same answer' : r.same === false ? `, not the ${r.original_outcome ?? 'original'} it got then` : ''}
                  {r.error ? <div className="error-text">{r.error}</div> : null}
                  {r.signed_with_stand_in && (
                    <div className="hint" data-testid="replay-stand-in">
                      Re-{STAND_IN_SIGNATURE_NOTE}
                    </div>
                  )}
                  {r.dropped_redacted.length > 0 && <div className="hint">Dropped redacted headers: {r.dropped_redacted.join(', ')} (tick Re-sign to sign afresh)</div>}
                </span>
              </li>
            ))}
          </ul>
        )}
        {made && (
          <div className="hint" style={{ marginTop: 8 }} data-testid="import-scenario-saved">
            <div>
              Scenario saved to <span className="mono">{made.where}</span>: {made.events} event{made.events === 1 ? '' : 's'}
              {made.resends > 0 ? `, ${made.resends} resend${made.resends === 1 ? '' : 's'}` : ''}, {made.expectations} expectation{made.expectations === 1 ? '' : 's'} from what was observed (as
              the run counts them).
            </div>
            <div>
              Run it: <span className="mono" data-testid="import-scenario-command">hookloop run {made.fileName}{made.secrets.map((s) => ` --secret ${s}=…`).join('')}</span>
            </div>
            {made.notes.length > 0 && (
              <ul data-testid="import-scenario-notes">
                {made.notes.map((note, i) => (
                  <li key={i}>{note}</li>
                ))}
              </ul>
            )}
          </div>
        )}
    </Dialog>
  )
}
