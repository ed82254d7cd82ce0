// Scenarios: what a recording made (or a file opened) in an editable JSON view, checked as you
// type by the same validator `hookloop run` uses (problems by JSON path); Save, Open, and Run with
// progress and the report, each expectation ✓/✗, the run's deliveries drawn with their verdicts.
// Record and Run act on the store every workspace shares: where this socket may not run them
// (useStoreWide), a scenario file is opened, checked and saved here, and run in `default`.
import { useMemo } from 'react'
import type { Scenario, ScenarioReport } from '../../../shared/scenario'
import { expectationCount, noExpectations, parseScenario, verdictLine } from '../../../shared/scenario'
import { openTextFile, saveTextFile } from '../lib/files'
import { formatDuration } from '../lib/format'
import { run, toast, useApp, useStoreWide, verdictsOf } from '../state'
import { EmptyCard } from './Page'
import { VerdictMark } from './badges'

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** Its expectations as `hookloop run` and `import` count them: one per ✓ / ✗ line of the run, whatever they check. */
function expectationsText(scenario: Scenario): string {
  // Without one, the run's single line is its ✗ "no expectations" (unless a smoke run): not "1 expectation".
  return noExpectations(scenario) ? 'no expectations' : plural(expectationCount(scenario), 'expectation')
}

function fileNameFor(text: string): string {
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name
    if (typeof name === 'string' && name.trim() !== '') return `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'scenario'}.json`
  } catch {
    // Not JSON yet: a generic name.
  }
  return 'scenario.json'
}

export function ScenariosPage() {
  const draft = useApp((s) => s.draft)
  const scenarioRun = useApp((s) => s.snapshot?.scenarioRun ?? null)
  const storeWide = useStoreWide()
  const checked = useMemo(() => (draft ? parseScenario(draft.text) : null), [draft])
  const problems = checked && !checked.ok ? checked.problems : []
  const running = scenarioRun?.state === 'running'
  // The text the last run from here started from: a report speaks for that text only, so it goes
  // once the file is edited or another one opened (an old "passed" under new problems misleads).
  const ranText = useApp((s) => s.ranText)
  const reportCurrent = running || (ranText === null ? !draft : draft?.text === ranText)

  const setText = (text: string) => useApp.setState((s) => ({ draft: { fileName: s.draft?.fileName ?? fileNameFor(text), notes: s.draft?.notes ?? [], text } }))
  const save = async () => {
    if (!draft) return
    const where = await saveTextFile({ title: 'Save scenario', defaultName: draft.fileName, text: draft.text })
    if (where) toast('ok', `Saved ${where}`)
  }
  const open = async () => {
    const file = await openTextFile({ title: 'Open scenario', extensions: ['json'] })
    if (file) useApp.setState({ draft: { text: file.text, fileName: file.name, notes: [] } })
  }
  const start = async () => {
    if (!draft) return
    useApp.setState({ ranText: draft.text })
    await run('Run scenario', (c) => c.call('scenario.run', { text: draft.text }))
  }

  return (
    <div className="scroll">
      <div className="page">
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <div>
            <h2>Scenarios</h2>
            <div className="hint">
              Record what you do, get a scenario file with what happened as its expectations; the same file runs headless with <code>hookloop run</code>. A
              recorded file holds the secrets it signs and verifies with.
            </div>
          </div>
          <div className="row">
            <button className="btn" onClick={() => void open()} data-testid="scenario-open">
              Open…
            </button>
            <button className="btn" disabled={!draft} onClick={() => void save()} data-testid="scenario-save">
              Save…
            </button>
            {storeWide && (
              <button className="btn primary" disabled={!draft || problems.length > 0 || running} onClick={() => void start()} data-testid="scenario-run">
                ▶ Run
              </button>
            )}
          </div>
        </div>
        {!draft ? (
          <EmptyCard title="No scenario open">
            {storeWide ? (
              <div>Press Record in the top bar, set things up and send events as usual, then Stop: the scenario opens here. Or open a scenario file.</div>
            ) : (
              <div data-testid="scenarios-elsewhere">
                Open a scenario file to check it. Recording and running a scenario act on the whole store&apos;s clock: they are done in the workspace <strong>default</strong>, or headless with <code>hookloop run</code>.
              </div>
            )}
          </EmptyCard>
        ) : (
          <div className="card" data-testid="scenario-editor-card">
            <div className="card-head">
              <h3 className="mono">{draft.fileName}</h3>
              {checked?.ok ? (
                <>
                  <span className="badge ok" data-testid="scenario-valid">
                    valid scenario
                  </span>
                  <span className="hint" data-testid="scenario-summary">
                    {checked.scenario.clock.mode} clock · {plural(checked.scenario.events.length, 'event')} · {plural(checked.scenario.actions.length, 'panel action')} ·{' '}
                    {expectationsText(checked.scenario)}
                  </span>
                </>
              ) : (
                <span className="badge bad" data-testid="scenario-invalid">
                  {problems.length} problem{problems.length === 1 ? '' : 's'}
                </span>
              )}
            </div>
            <div className="card-body">
              {draft.notes.length > 0 && (
                <ul className="hint" data-testid="scenario-notes">
                  {draft.notes.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              )}
              <textarea className="input scenario-editor" spellCheck={false} value={draft.text} onChange={(e) => setText(e.target.value)} data-testid="scenario-text" aria-label="scenario JSON" />
              {problems.length > 0 && (
                <ul className="problems" data-testid="scenario-problems">
                  {problems.slice(0, 50).map((p, i) => (
                    <li key={i}>
                      <code>{p.path}</code>: {p.message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        )}
        {scenarioRun && reportCurrent && <RunCard />}
        {scenarioRun && !reportCurrent && (
          <div className="hint" data-testid="scenario-report-stale">
            The last run&apos;s report was for another version of this file: Run to check this one.
          </div>
        )}
      </div>
    </div>
  )
}

function RunCard() {
  const scenarioRun = useApp((s) => s.snapshot?.scenarioRun)
  if (!scenarioRun) return null
  const { report } = scenarioRun
  const fraction = scenarioRun.total > 0 ? Math.min(1, scenarioRun.settled / scenarioRun.total) : 0
  return (
    <div className="card" data-testid="scenario-run-card" data-state={scenarioRun.state} data-ok={report ? String(report.ok) : undefined}>
      <div className="card-head">
        <h3>Run: {scenarioRun.name}</h3>
        {scenarioRun.state === 'running' && (
          <button className="btn small" onClick={() => void run('Stop run', (c) => c.call('scenario.cancel', { runId: scenarioRun.runId }))}>
            Stop
          </button>
        )}
        {report && <span className={`badge ${report.ok ? 'ok' : 'bad'}`}>{report.ok ? 'passed' : 'failed'}</span>}
      </div>
      <div className="card-body">
        <div className="row">
          <div className="progress" aria-label="deliveries settled">
            <div style={{ width: `${Math.round(fraction * 100)}%` }} />
          </div>
          <span className="hint" data-testid="scenario-progress">
            {scenarioRun.settled} / {scenarioRun.total} deliveries settled
          </span>
        </div>
        {scenarioRun.error && <div className="error-text">{scenarioRun.error}</div>}
        {report && <ReportView report={report} />}
      </div>
    </div>
  )
}

function ReportView({ report }: { report: ScenarioReport }) {
  const verdicts = useMemo(() => verdictsOf(report), [report])
  const longest = Math.max(1, ...report.deliveries.flatMap((d) => d.attempts.map((a) => a.at_ms)))
  return (
    <>
      <div data-testid="scenario-verdict">
        <strong>{verdictLine(report)}</strong>
      </div>
      <div className="hint">
        {formatDuration(report.clock_ms)} of scenario time in {formatDuration(Math.round(report.wall_ms))}
        {report.incomplete ? ` — ${report.incomplete}` : ''}. The run kept a store of its own: its deliveries are the rows below, each with its ✓ / ✗; a Timeline row that shares an event id with one is not the run&apos;s, and carries no mark.
      </div>
      <ul className="checks-list" data-testid="expectations">
        {report.expectations.map((e) => (
          <li key={e.path} data-testid="expectation" data-ok={e.ok}>
            <span className={`mark-cell ${e.ok ? 'pass' : 'fail'}`}>{e.ok ? '✓' : '✗'}</span>
            <span>
              <strong>{e.label}</strong> <code className="hint">{e.path}</code>
              {!e.ok && <div className="error-text">{e.message}</div>}
            </span>
          </li>
        ))}
        {report.actions.map((a) => (
          <li key={a.path}>
            <span className={`mark-cell ${a.ok ? 'pass' : 'fail'}`}>{a.ok ? '✓' : '✗'}</span>
            <span>
              {a.type} at +{formatDuration(a.at_ms)}: {a.message}
            </span>
          </li>
        ))}
      </ul>
      <div>
        {report.deliveries.map((d) => {
          const verdict = verdicts.get(d.delivery_id)
          return (
            <div key={d.delivery_id} className="row" style={{ flexWrap: 'nowrap', borderTop: '1px solid var(--border)' }} data-testid="run-delivery" data-event-id={d.event_id}>
              {verdict && <VerdictMark verdict={verdict} />}
              <span className="mono ellipsis" style={{ width: 220 }} title={d.event_id}>
                {d.event} → {d.subscription}
                {d.duplicate_of === null ? '' : ' (copy)'} · {d.status}
              </span>
              <div className="run-track">
                {d.attempts.map((a) => (
                  <span
                    key={a.n}
                    className={`mark ${a.outcome.startsWith('http_2') ? 'ok' : a.decision === 'failed' ? 'failed' : 'retrying'}`}
                    style={{ left: `calc(${(a.at_ms / longest) * 95}% + 9px)` }}
                    title={`#${a.n} ${a.outcome} at +${formatDuration(a.at_ms)}`}
                  >
                    {a.status_code ?? a.outcome}
                  </span>
                ))}
              </div>
            </div>
          )
        })}
      </div>
    </>
  )
}
