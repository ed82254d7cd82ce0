// The notice above the timeline while the view hides rows that just arrived (another clock
// picked, a filter, a search, a time window with Live off): how many, on which clock, hidden by
// what, and one click to them.
import { useMemo } from 'react'
import type { SimulationView } from '../../../shared/contract'
import { arrivalView, hiddenNotice, showHiddenArrivals, useApp } from '../state'

const NO_SIMULATIONS: SimulationView[] = []

export function HiddenArrivalsNotice() {
  const hidden = useApp((s) => s.hiddenArrivals)
  const filter = useApp((s) => s.filter)
  const live = useApp((s) => s.live)
  const window = useApp((s) => s.window)
  const relative = useApp((s) => s.relative)
  const timeline = useApp((s) => s.timeline)
  const layout = useApp((s) => s.layout)
  const simulations = useApp((s) => s.snapshot?.simulations) ?? NO_SIMULATIONS
  const notice = useMemo(
    () => (hidden.size === 0 ? null : hiddenNotice(hidden, arrivalView({ filter, live, window, relative, timeline, layout }), simulations)),
    [hidden, filter, live, window, relative, timeline, layout, simulations],
  )
  if (!notice) return null
  const count = `${notice.count.toLocaleString()}${notice.full ? '+' : ''}`
  const rows = notice.count === 1 ? 'row' : 'rows'
  const where = notice.places.map((p) => (notice.places.length === 1 ? p.label : `${p.count.toLocaleString()} on ${p.label}`)).join(', ')
  return (
    <div className="banner arrivals" role="status" data-testid="hidden-arrivals" data-count={notice.count}>
      <span className="dot-live" aria-hidden />
      <span>
        {/* Rows, not requests: a row counts once however many of its requests or attempts arrived. */}
        <strong data-testid="hidden-arrivals-count">
          {count} {rows} with new activity
        </strong>{' '}
        {notice.places.length === 1 ? 'on ' : ''}
        <span data-testid="hidden-arrivals-where">{where}</span>, hidden by {joinWords(notice.hiddenBy)}.
      </span>
      <span className="spacer" />
      <button className="btn small primary" onClick={() => void showHiddenArrivals()} data-testid="hidden-arrivals-show">
        Show {notice.count === 1 ? 'it' : 'them'}
      </button>
    </div>
  )
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? 'this view'
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}
