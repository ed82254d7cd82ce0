// An admin's audit (a server with accounts): who changed what, and when, newest first, on the
// wall clock (a simulation's time does not apply: these are the moments people acted). A row
// opens its detail, which the engine redacted before it was kept. Filtered by a person's address.
import { useEffect, useState } from 'react'
import type { AuditView } from '../../../shared/contract'
import { run } from '../state'

const PAGE = 50

const wallTime = (at: number): string => new Date(at).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })

export function AuditPanel() {
  const [entries, setEntries] = useState<AuditView[]>([])
  const [total, setTotal] = useState(0)
  const [actor, setActor] = useState('')
  const [open, setOpen] = useState<string | null>(null)
  const load = (offset: number) =>
    void run('Audit', (c) => c.call('audit.list', { offset, limit: PAGE, ...(actor.trim() ? { actor: actor.trim() } : {}) })).then((res) => {
      if (!res) return
      setEntries((before) => (offset === 0 ? res.entries : [...before, ...res.entries]))
      setTotal(res.total)
    })
  useEffect(() => load(0), [actor]) // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="card audit-panel" data-testid="audit">
      <div className="card-body">
        <div className="row audit-head">
          <h3>Audit</h3>
          <span className="hint">{total === 1 ? '1 change' : `${total} changes`}, newest first</span>
          <input className="audit-filter" type="search" placeholder="Filter by email or local" aria-label="filter by who" value={actor} onChange={(e) => setActor(e.target.value)} />
          <button className="btn small" onClick={() => load(0)}>
            Refresh
          </button>
        </div>
        <div className="audit-list">
          {entries.length === 0 && <div className="hint">No change is recorded{actor.trim() ? ` for ${actor.trim()}` : ''}.</div>}
          {entries.map((e) => (
            <div key={e.id} className={`audit-entry${open === e.id ? ' open' : ''}`} data-testid="audit-entry" data-command={e.command}>
              <button className="audit-row" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                <span className="mono audit-at" title={new Date(e.at).toISOString()}>
                  {wallTime(e.at)}
                </span>
                <span className="ellipsis audit-who" title={`${e.actor} (${e.via})`}>
                  {e.actor} <span className="hint">{e.via}</span>
                </span>
                <span className="ellipsis audit-what" title={e.summary}>
                  {e.summary}
                </span>
              </button>
              {open === e.id && (
                <div className="audit-detail" data-testid="audit-detail">
                  <dl className="kv">
                    <dt>command</dt>
                    <dd>{e.command}</dd>
                    {e.target && (
                      <>
                        <dt>{e.target.kind}</dt>
                        <dd>{e.target.id}</dd>
                      </>
                    )}
                    <dt>when</dt>
                    <dd>{new Date(e.at).toISOString()}</dd>
                  </dl>
                  <pre className="code">{JSON.stringify(e.detail, null, 2)}</pre>
                </div>
              )}
            </div>
          ))}
        </div>
        {entries.length < total && (
          <button className="btn small" onClick={() => load(entries.length)}>
            Show {Math.min(PAGE, total - entries.length)} more
          </button>
        )}
      </div>
    </div>
  )
}
