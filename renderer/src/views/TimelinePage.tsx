// The timeline page: filters, zoom/pan/live controls, timeline or table, and the first-run
// empty state with "Try the loop" (where this socket may run it: useStoreWide).
import { useMemo, useState } from 'react'
import type { SimulationView, TimelineRow } from '../../../shared/contract'
import { clearFilters, run, setFilter, showOnTimeline, toast, useApp, useStoreWide } from '../state'
import { clockKey, clockLabel, sharedClock, WALL } from '../state/clock-groups'
import type { Choice } from './Select'
import { Legend } from './badges'
import { HiddenArrivalsNotice } from './HiddenArrivalsNotice'
import { TableView } from './TableView'
import { panBy, Timeline, zoomBy } from './Timeline'
import { named, Select } from './Select'
import { useExportCount } from '../state/export-selection'
import { COUNT_WORDS, countText } from '../../../shared/contract'

const STATUSES: TimelineRow['status'][] = ['pending', 'retrying', 'succeeded', 'failed', 'received']

export function TimelinePage() {
  const layout = useApp((s) => s.layout)
  const total = useApp((s) => s.timeline.total)
  const loaded = useApp((s) => s.timeline.rows.length)
  const loading = useApp((s) => s.timelineLoading)
  const filtered = useApp((s) => Object.keys(s.filter).length > 0)
  return (
    <div className="main" style={{ flex: 1 }}>
      <ClockPicker />
      <Toolbar />
      <HiddenArrivalsNotice />
      {loaded === 0 && loading ? (
        <div className="center">
          <span className="spinner" /> Loading the timeline…
        </div>
      ) : total === 0 && !filtered ? (
        <FirstRun />
      ) : total === 0 ? (
        <div className="empty">
          <h2>Nothing matches these filters</h2>
          <button className="btn" onClick={clearFilters}>
            Clear filters
          </button>
        </div>
      ) : layout === 'timeline' ? (
        <Timeline />
      ) : (
        <TableView />
      )}
    </div>
  )
}

const NO_SIMULATIONS: SimulationView[] = []

/** Which clock's rows the timeline shows: live traffic on the wall clock, or one simulation on its own time. */
function ClockPicker() {
  const picked = useApp((s) => s.filter.clock ?? '')
  const simulations = useApp((s) => s.snapshot?.simulations) ?? NO_SIMULATIONS
  const rows = useApp((s) => s.timeline.rows)
  const choices = useMemo(() => {
    const out: Choice<string>[] = [
      { value: '', label: 'Every clock, grouped' },
      { value: WALL, label: clockLabel(WALL, simulations) },
      ...simulations.map((s) => ({ value: s.id, label: clockLabel(s.id, simulations) })),
    ]
    // Rows of a simulation the snapshot does not list yet, and the one picked: still choosable.
    for (const row of rows.slice(0, 500)) {
      const key = clockKey(row.clock)
      if (!out.some((c) => c.value === key)) out.push({ value: key, label: clockLabel(key, simulations, row.clock) })
    }
    if (picked && !out.some((c) => c.value === picked)) out.push({ value: picked, label: clockLabel(picked, simulations) })
    return out
  }, [simulations, rows, picked])
  return (
    <div className="clockbar" data-testid="clock-picker">
      <span className="hint">Clock</span>
      <Select choices={choices} value={picked} onChange={(v) => setFilter({ clock: v || undefined })} ariaLabel="clock" testId="clock-select" />
      <span className="hint">
        {picked === ''
          ? 'Each clock’s rows under an axis of their own: simulated time is never laid beside wall time.'
          : picked === WALL
            ? 'Real traffic, at the wall time it happened.'
            : 'A simulation, read as time since it started.'}
      </span>
    </div>
  )
}

function Toolbar() {
  const filter = useApp((s) => s.filter)
  const layout = useApp((s) => s.layout)
  const live = useApp((s) => s.live)
  const relative = useApp((s) => s.relative)
  const total = useApp((s) => s.timeline.total)
  const rows = useApp((s) => s.timeline.rows)
  const selected = useExportCount()
  const endpoints = useApp((s) => s.snapshot?.endpoints ?? [])
  const subscriptions = useApp((s) => s.snapshot?.subscriptions ?? [])
  const eventTypes = [...new Set(rows.slice(0, 500).map((r) => r.eventType).filter(Boolean))].sort()
  // Rows on several clocks show grouped, one axis each: zoom and pan need one axis.
  const mixed = useMemo(() => !filter.clock && rows.length > 0 && sharedClock(rows) === null, [filter.clock, rows])
  const toggleStatus = (status: TimelineRow['status']) => {
    const current = filter.status ?? []
    setFilter({ status: current.includes(status) ? current.filter((s) => s !== status) : [...current, status] })
  }
  return (
    <div className="toolbar" data-testid="timeline-toolbar">
      <div className="segmented" aria-label="view">
        <button className={layout === 'timeline' ? 'active' : ''} onClick={() => useApp.setState({ layout: 'timeline' })} title="Timeline (T)">
          Timeline
        </button>
        <button className={layout === 'table' ? 'active' : ''} onClick={() => useApp.setState({ layout: 'table' })} title="Table (T)" data-testid="table-toggle">
          Table
        </button>
      </div>
      <div className="row" style={{ gap: 4 }} aria-label="status filter">
        {STATUSES.map((status) => (
          <button
            key={status}
            className={`btn small${filter.status?.includes(status) ? ' on' : ''}`}
            onClick={() => toggleStatus(status)}
            data-testid={`filter-${status}`}
          >
            {status}
          </button>
        ))}
      </div>
      <Select choices={[{ value: '', label: 'All subscriptions' }, ...subscriptions.map((s) => ({ value: s.id, label: s.name }))]} value={filter.subscriptionId ?? ''} onChange={(v) => setFilter({ subscriptionId: v || undefined })} ariaLabel="subscription filter" />
      <Select choices={[{ value: '', label: 'All endpoints' }, ...endpoints.map((e) => ({ value: e.id, label: e.name }))]} value={filter.endpointId ?? ''} onChange={(v) => setFilter({ endpointId: v || undefined })} ariaLabel="endpoint filter" />
      <Select
        choices={[{ value: '', label: 'All event types' }, ...named([...new Set([...(filter.eventType ? [filter.eventType] : []), ...eventTypes])])]}
        value={filter.eventType ?? ''}
        onChange={(v) => setFilter({ eventType: v || undefined })}
        ariaLabel="event type filter"
      />
      <span className="spacer" />
      <span className="hint" data-testid="row-count" data-count={total} title={COUNT_WORDS.rows.explain}>
        {countText(total, 'row')}
      </span>
      {selected > 0 && (
        <span className="hint" data-testid="selection-count" data-count={selected} title={COUNT_WORDS.selectedRows.explain}>
          · {selected.toLocaleString()} {COUNT_WORDS.selectedRows.label}
        </span>
      )}
      <button className="btn small" onClick={() => useApp.setState({ dialog: 'export' })} title="Export the selected row and the Ctrl/⌘-clicked ones (HAR, cURL, case file)" data-testid="export-open">
        Export…
      </button>
      <button className="btn small" onClick={() => useApp.setState({ dialog: 'import' })} title="Import a HAR or case file and replay it" data-testid="import-open">
        Import…
      </button>
      {layout === 'timeline' && (
        <>
          <div className="segmented" aria-disabled={mixed || undefined} title={mixed ? 'Each clock has its own axis: pick a clock above to zoom and pan it' : undefined}>
            <button onClick={() => panBy(-0.25, rows)} title="Pan left (←)" disabled={mixed}>
              ←
            </button>
            <button onClick={() => zoomBy(0.66, rows)} title="Zoom in (+)" disabled={mixed}>
              +
            </button>
            <button onClick={() => zoomBy(1.5, rows)} title="Zoom out (−)" disabled={mixed}>
              −
            </button>
            <button onClick={() => panBy(0.25, rows)} title="Pan right (→)" disabled={mixed}>
              →
            </button>
          </div>
          <button className={`btn small${relative ? ' on' : ''}`} onClick={() => useApp.setState({ relative: !relative, window: null, live: true })} title="Align every row on its first attempt (A)">
            Align
          </button>
          <button className={`btn small${live ? ' on' : ''}`} onClick={() => useApp.setState({ live: !live, window: null })} title="Follow live: keep the newest activity in view (L)" data-testid="live-toggle">
            ● Live
          </button>
        </>
      )}
    </div>
  )
}

export function FirstRun() {
  const storeWide = useStoreWide()
  const [busy, setBusy] = useState(false)
  const start = async () => {
    setBusy(true)
    const result = await run('Try the loop', (c) => c.call('loop.try', {}))
    setBusy(false)
    if (result) {
      toast('ok', `Sent ${result.eventId}: watch its four attempts arrive on the loop's virtual clock`)
      // Every clock: the loop's rows read on its axis, and real traffic after it shows beside them.
      void showOnTimeline({})
    }
  }
  // Try the loop runs on the store's clock, the workspace default's: elsewhere the first steps are the workspace's own.
  if (!storeWide) {
    return (
      <div className="empty" data-testid="first-run">
        <h2>Nothing has arrived in this workspace yet</h2>
        <div className="steps hint">
          Add an endpoint under <strong>Endpoints &amp; rules</strong> and point a real provider at it, or send your own events from <strong>Sender</strong>.
        </div>
        <Legend />
      </div>
    )
  }
  return (
    <div className="empty" data-testid="first-run">
      <div className="brand-mark" style={{ width: 48, height: 48, fontSize: 24, borderRadius: 12 }}>
        ↻
      </div>
      <h2>See a webhook retry, end to end</h2>
      <p style={{ maxWidth: 560 }}>
        One click creates an endpoint that fails the first 3 requests and then answers 200, a subscription that delivers to it under provider A's retry
        policy (min(2^N, 360) minutes, 10 attempts) on the virtual clock, and sends one event. Its four attempts land on the timeline in about a second,
        each with its signature check and duplicate flag.
      </p>
      <button className="btn primary big" onClick={() => void start()} disabled={busy} data-testid="try-the-loop">
        {busy ? <span className="spinner" /> : '▶'} Try the loop
      </button>
      <div className="steps hint">
        Or: add an endpoint under <strong>Endpoints &amp; rules</strong> and point a real provider at it, or send your own events from <strong>Sender</strong>.
      </div>
      <Legend />
    </div>
  )
}
