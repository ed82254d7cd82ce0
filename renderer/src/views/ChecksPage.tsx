// Checks: the consumer check (a battery of deliveries to someone's endpoint, graded into a report
// card: ✓ / ✗ / ! per check, why it matters, how to fix it) and the sender check (what a real
// provider delivered to one of our endpoints against its documented policy; the expected attempt
// times are drawn as ghosts beside the real marks on the timeline).
import { useState } from 'react'
import type { ConsumerCheckResult } from '../../../shared/conformance'
import type { SenderConformanceReport } from '../../../shared/conformance-sender'
import { formatClock, formatDuration } from '../lib/format'
import { run, toast, useApp } from '../state/app-store'
import type { PolicyPresetId } from '../../../shared/policy-presets'
import { endpointChoices, named, presetChoices, Select } from './Select'
import type { SchemeId } from '../../../shared/signatures'

const SEVERITY_MARK = { pass: '✓', warn: '!', fail: '✗', skip: '–' } as const
const SENDER_MARK = { pass: '✓', fail: '✗', skip: '–', pending: '…' } as const

export function ChecksPage() {
  return (
    <div className="scroll">
      <div className="page">
        <div>
          <h2>Checks</h2>
          <div className="hint">Grade the other side of an integration: a consumer's endpoint, or a provider's sender.</div>
        </div>
        <ConsumerCheck />
        <SenderCheck />
      </div>
    </div>
  )
}

function ConsumerCheck() {
  const schemes = useApp((s) => s.snapshot?.schemes ?? [])
  const [url, setUrl] = useState('')
  const [scheme, setScheme] = useState<SchemeId>('standard-webhooks')
  const [secret, setSecret] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ConsumerCheckResult | null>(null)
  const start = async () => {
    setBusy(true)
    const out = await run('Consumer check', (c) => c.call('check.consumer', { url: url.trim(), scheme, secret }))
    setBusy(false)
    if (out) setResult(out)
  }
  return (
    <div className="card" data-testid="consumer-check">
      <div className="card-head">
        <h3>Consumer check</h3>
        {result && (
          <span className={`badge ${result.ok ? 'ok' : 'bad'}`} data-testid="consumer-verdict" data-ok={result.ok}>
            {result.ok ? 'passes' : 'fails'}
          </span>
        )}
      </div>
      <div className="card-body">
        <div className="hint">
          Sends a valid delivery, the same event again, a wrong and a missing signature, a stale timestamp, a malformed body and latency samples, and grades each answer.
        </div>
        <div className="grid2">
          <label className="field">
            Endpoint URL
            <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/webhooks" data-testid="consumer-url" />
          </label>
          <label className="field">
            Scheme
            <Select choices={named(schemes)} value={scheme} onChange={setScheme} testId="consumer-scheme" />
          </label>
        </div>
        <label className="field">
          Signing secret (the one the consumer verifies with)
          <input className="input mono" type="password" value={secret} onChange={(e) => setSecret(e.target.value)} data-testid="consumer-secret" autoComplete="off" />
        </label>
        <div className="row">
          <button className="btn primary" disabled={busy || url.trim() === '' || secret === ''} onClick={() => void start()} data-testid="consumer-run">
            {busy ? <span className="spinner" /> : null} Run the check
          </button>
          {busy && <span className="hint">Up to the provider timeout per request…</span>}
        </div>
        {result && (
          <>
            <div className="hint">
              {result.url} · {result.scheme} · {formatDuration(Math.round(result.wall_ms))}
              {result.latency ? ` · p50 ${result.latency.p50_ms} ms, p95 ${result.latency.p95_ms} ms` : ''}
            </div>
            <ul className="checks-list" data-testid="consumer-checks">
              {result.checks.map((c) => (
                <li key={c.id} data-testid="consumer-check-line" data-check={c.id} data-severity={c.severity}>
                  <span className={`mark-cell ${c.severity}`}>{SEVERITY_MARK[c.severity]}</span>
                  <span>
                    <strong>{c.title}</strong> — {c.detail}
                    <div className="hint">Why: {c.why}</div>
                    {(c.severity === 'fail' || c.severity === 'warn') && <div className="hint">How to fix: {c.fix}</div>}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  )
}

function SenderCheck() {
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const presets = useApp((s) => s.snapshot?.policyPresets ?? [])
  const [endpointId, setEndpointId] = useState('')
  const [policyId, setPolicyId] = useState<PolicyPresetId>('pandoktorek')
  const [toleranceMs, setToleranceMs] = useState(1000)
  const [busy, setBusy] = useState(false)
  const [report, setReport] = useState<SenderConformanceReport | null>(null)
  const chosen = endpoints.find((e) => e.id === endpointId) ?? endpoints[0]
  const start = async () => {
    if (!chosen) return
    setBusy(true)
    const out = await run('Sender check', (c) => c.call('check.sender', { endpointId: chosen.id, policyId, toleranceMs }))
    setBusy(false)
    if (!out) return
    setReport(out)
    useApp.setState({ ghosts: new Map(out.events.map((e) => [e.key, e.expected.map((x) => x.at)])) })
    toast('ok', `Checked ${out.events.length} event${out.events.length === 1 ? '' : 's'}; expected attempts are drawn on the timeline`)
  }
  return (
    <div className="card" data-testid="sender-check">
      <div className="card-head">
        <h3>Sender check</h3>
        {report && (
          <span className={`badge ${report.ok ? 'ok' : 'bad'}`} data-testid="sender-verdict" data-ok={report.ok}>
            {report.ok ? 'matches the policy' : 'deviates from the policy'}
          </span>
        )}
      </div>
      <div className="card-body">
        <div className="hint">
          Point a real provider at one of your endpoints (with a fault rule so it retries), then compare what arrived per event id with the provider's documented policy: intervals, stopping after a success or a final answer, redirects, attempt count.
        </div>
        {endpoints.length === 0 ? (
          <div className="hint">Create an endpoint first.</div>
        ) : (
          <div className="grid2">
            <label className="field">
              Endpoint
              <Select choices={endpointChoices(endpoints)} value={chosen?.id ?? ''} onChange={setEndpointId} testId="sender-check-endpoint" />
            </label>
            <label className="field">
              Documented policy
              <Select choices={presetChoices(presets)} value={policyId} onChange={setPolicyId} testId="sender-check-policy" />
            </label>
          </div>
        )}
        <div className="row">
          <label className="hint row" style={{ gap: 4 }}>
            Tolerance (ms)
            <input className="input" type="number" min={0} value={toleranceMs} onChange={(e) => setToleranceMs(Math.max(0, Number(e.target.value) || 0))} style={{ width: 100 }} />
          </label>
          <button className="btn primary" disabled={busy || !chosen} onClick={() => void start()} data-testid="sender-check-run">
            {busy ? <span className="spinner" /> : null} Compare
          </button>
          {report && (
            <button className="btn" onClick={() => useApp.setState({ view: 'timeline' })}>
              See ghosts on the timeline
            </button>
          )}
        </div>
        {report && report.events.length === 0 && <div className="hint">Nothing has arrived at this endpoint yet.</div>}
        {report?.events.map((event) => (
          <div key={event.key} data-testid="sender-check-event" data-ok={event.ok} style={{ borderTop: '1px solid var(--border)', paddingTop: 8 }}>
            <div className="row">
              <span className={`vmark ${event.ok ? 'ok' : 'fail'}`}>{event.ok ? '✓' : '✗'}</span>
              <span className="mono">{event.key}</span>
              <span className="hint">
                {event.arrivals.length} arrived · expected at {event.expected.map((x) => formatClock(x.at)).join(', ')}
              </span>
            </div>
            <ul className="checks-list">
              {event.checks.map((c) => (
                <li key={c.id}>
                  <span className={`mark-cell ${c.status}`}>{SENDER_MARK[c.status]}</span>
                  <span>
                    <strong>{c.title}</strong> — {c.detail}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </div>
  )
}
