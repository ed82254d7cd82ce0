// Checks: the consumer check (ConsumerCheck.tsx: a battery of deliveries and/or a provider's
// handshake to someone's endpoint, graded into a report card) and the sender check (what a real
// provider delivered to one of our endpoints against its documented policy; the expected attempt
// times are drawn as ghosts beside the real marks on the timeline).
import { useState } from 'react'
import type { SenderConformanceReport } from '../../../shared/conformance'
import { formatClock } from '../lib/format'
import { run, showOnTimeline, toast, useApp } from '../state'
import type { PolicyPresetId } from '../../../shared/sender'
import { endpointChoices, presetChoices, Select } from './Select'
import { ConsumerCheck, VerdictBadge } from './ConsumerCheck'
import { Card, Page } from './Page'

const SENDER_MARK = { pass: '✓', fail: '✗', skip: '–', pending: '…' } as const

export function ChecksPage() {
  return (
    <Page title="Checks" hint="Grade the other side of an integration: a consumer's endpoint, or a provider's sender.">
      <ConsumerCheck />
      <SenderCheck />
    </Page>
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
    <Card title="Sender check" testId="sender-check" head={<VerdictBadge ok={report?.ok} yes="matches the policy" no="deviates from the policy" testId="sender-verdict" />}>
      <div className="hint">Point a real provider at one of your endpoints (with a fault rule so it retries), then compare what arrived per event id with the provider's documented policy: intervals, stopping after a success or a final answer, redirects, attempt count.</div>
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
          <button className="btn" onClick={() => void showOnTimeline(chosen ? { endpointId: chosen.id } : {})}>
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
    </Card>
  )
}
