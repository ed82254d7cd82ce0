// The heart of the UI: one row per delivery (or per dedupe key, receive-only), time left to right,
// each attempt a mark coloured by outcome, the wait to the next attempt drawn between marks.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { TimelineRow } from '../../../shared/contract'
import { loadMoreRows, togglePicked, useApp, type RowVerdict, type TimeWindow } from '../state/app-store'
import { timeExtent } from '../state/timeline-model'
import { axisTicks, formatClock, formatDuration } from '../lib/format'
import { RowMarks, StatusBadge } from './badges'
import { useElementSize, useVirtualRows } from './use-virtual'

const FIT_SAMPLE = 500

/** The window shown: the person's zoom/pan, or (live) a fit of the newest rows. */
export function useTimeWindow(rows: readonly TimelineRow[]): TimeWindow | null {
  const live = useApp((s) => s.live)
  const relative = useApp((s) => s.relative)
  const chosen = useApp((s) => s.window)
  const computed = useMemo(() => timeExtent(rows.slice(0, FIT_SAMPLE), relative), [rows, relative])
  // Keep the same object while the extent is unchanged, so rows are not re-rendered for nothing
  // when a page of older rows arrives.
  // While following live, the window only moves when activity leaves it, and then with headroom:
  // a flood of arrivals does not re-draw every row's axis on every frame.
  const [fit, setFit] = useState(computed)
  if (computed !== fit && (computed?.start !== fit?.start || computed?.end !== fit?.end)) {
    const inside = computed && fit && computed.start >= fit.start && computed.end <= fit.end && computed.end - computed.start > (fit.end - fit.start) / 2
    if (!inside) setFit(computed ? { start: computed.start, end: computed.end + (computed.end - computed.start) * 0.15 } : computed)
  }
  return live || !chosen ? fit : chosen
}

export function Timeline() {
  const rows = useApp((s) => s.timeline.rows)
  const selectedKey = useApp((s) => s.selection?.rowKey ?? null)
  const selectedMark = useApp((s) => s.selection?.mark?.id ?? null)
  const verdicts = useApp((s) => s.verdicts)
  const ghosts = useApp((s) => s.ghosts)
  const picked = useApp((s) => s.picked)
  const relative = useApp((s) => s.relative)
  const endpoints = useApp((s) => s.snapshot?.endpoints)
  // Endpoints that forward to an app: their rows say under each mark whether the app saw it.
  const forwarding = useMemo(() => new Set((endpoints ?? []).filter((e) => e.forwardTo.length > 0).map((e) => e.id)), [endpoints])
  const window = useTimeWindow(rows)
  const { viewport, onScroll, first, last, totalHeight, reveal } = useVirtualRows(rows.length, loadMoreRows)
  const axis = useRef<HTMLDivElement | null>(null)
  const trackWidth = useElementSize(axis, 'clientWidth')

  useEffect(() => {
    if (!selectedKey) return
    const i = useApp.getState().timeline.index.get(selectedKey)
    if (i !== undefined) reveal(i)
  }, [selectedKey, reveal])

  const onWheel = useCallback(
    (event: React.WheelEvent) => {
      if (!window) return
      const horizontal = event.shiftKey ? event.deltaY : event.deltaX
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault()
        zoomWindow(window, event.deltaY > 0 ? 1.25 : 0.8)
      } else if (Math.abs(horizontal) > 0 && Math.abs(horizontal) >= Math.abs(event.deltaY)) {
        panWindow(window, horizontal / Math.max(1, trackWidth))
      }
    },
    [window, trackWidth],
  )

  const dragging = useRef<{ x: number; window: TimeWindow } | null>(null)
  const onPointerDown = (event: React.PointerEvent) => {
    if (!window) return
    dragging.current = { x: event.clientX, window }
    ;(event.target as HTMLElement).setPointerCapture(event.pointerId)
  }
  const onPointerMove = (event: React.PointerEvent) => {
    const drag = dragging.current
    if (!drag) return
    const span = drag.window.end - drag.window.start
    const shift = ((drag.x - event.clientX) / Math.max(1, trackWidth)) * span
    useApp.setState({ live: false, window: { start: drag.window.start + shift, end: drag.window.end + shift } })
  }
  const onPointerUp = () => {
    dragging.current = null
  }

  // Memoized so rows (memo components) keep equal props while the list scrolls.
  const ticks = useMemo(() => (window ? axisTicks(window.start, window.end, Math.max(2, Math.floor(trackWidth / 110))) : []), [window, trackWidth])
  const span = window ? window.end - window.start : 1
  const x = (t: number) => (window ? ((t - window.start) / span) * trackWidth : 0)

  const visible: TimelineRow[] = []
  for (let i = first; i < last; i++) {
    const row = rows[i]
    if (row) visible.push(row)
  }

  return (
    <div className="tl" onWheel={onWheel} data-testid="timeline">
      <div className="tl-head">
        <div className="label">Event</div>
        <div
          className="tl-axis"
          ref={axis}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          style={{ cursor: 'grab' }}
          title="Drag to pan, Ctrl + wheel to zoom"
        >
          {ticks.map((t) => (
            <div key={t} className="tick" style={{ left: x(t) }}>
              {relative ? `+${formatDuration(t)}` : formatClock(t, ticks.length > 1 && (ticks[1] ?? 0) - (ticks[0] ?? 0) < 1000)}
            </div>
          ))}
        </div>
      </div>
      <div className="tl-viewport" ref={viewport} onScroll={onScroll} data-testid="timeline-viewport">
        <div style={{ height: totalHeight, position: 'relative' }}>
          {visible.map((row, offset) => (
            <TimelineRowView
              key={row.key}
              row={row}
              top={(first + offset) * 40}
              selected={row.key === selectedKey}
              selectedMark={row.key === selectedKey ? selectedMark : null}
              window={window}
              width={trackWidth}
              relative={relative}
              ticks={ticks}
              verdict={verdicts.get(row.eventId)}
              ghosts={ghosts.get(row.eventId)}
              picked={picked.has(row.key)}
              forwarding={row.endpointId !== null && forwarding.has(row.endpointId)}
            />
          ))}
        </div>
      </div>
    </div>
  )
}

function zoomWindow(window: TimeWindow, factor: number): void {
  const center = (window.start + window.end) / 2
  const half = Math.max(50, ((window.end - window.start) / 2) * factor)
  useApp.setState({ live: false, window: { start: center - half, end: center + half } })
}

function panWindow(window: TimeWindow, fraction: number): void {
  const shift = (window.end - window.start) * fraction
  useApp.setState({ live: false, window: { start: window.start + shift, end: window.end + shift } })
}

export function zoomBy(factor: number, rows: readonly TimelineRow[]): void {
  const { window, relative } = useApp.getState()
  const current = window ?? timeExtent(rows.slice(0, FIT_SAMPLE), relative)
  if (current) zoomWindow(current, factor)
}

export function panBy(fraction: number, rows: readonly TimelineRow[]): void {
  const { window, relative } = useApp.getState()
  const current = window ?? timeExtent(rows.slice(0, FIT_SAMPLE), relative)
  if (current) panWindow(current, fraction)
}

interface RowProps {
  row: TimelineRow
  top: number
  selected: boolean
  selectedMark: number | null
  window: TimeWindow | null
  width: number
  relative: boolean
  ticks: number[]
  /** The last scenario run's verdict on this row's event, if it was about it. */
  verdict: RowVerdict | undefined
  /** Expected attempt times (sender check): faint marks beside the real ones. */
  ghosts: number[] | undefined
  /** Picked for export (Ctrl/⌘-click). */
  picked: boolean
  /** The row's endpoint forwards to an app (a mark without a leg then says "not forwarded"). */
  forwarding: boolean
}

const TimelineRowView = memo(function TimelineRowView({ row, top, selected, selectedMark, window, width, relative, ticks, verdict, ghosts, picked, forwarding }: RowProps) {
  const origin = relative ? row.firstAt : 0
  const span = window ? window.end - window.start : 1
  const x = (t: number) => (window ? ((t - origin - window.start) / span) * width : 0)
  const select = (mark?: { kind: 'attempt' | 'request'; id: number }) => useApp.setState({ selection: { rowKey: row.key, mark } })
  const pieces: React.ReactNode[] = []
  const forwarded = forwarding || row.marks.some((m) => m.app !== undefined)
  ghosts?.forEach((at, i) => {
    pieces.push(<div key={`g${i}`} className="ghost" style={{ left: x(at) }} title={`expected attempt ${i + 1} at ${formatClock(at)}`} data-testid="ghost" />)
  })
  row.marks.forEach((mark, i) => {
    const next = row.marks[i + 1]
    const waitEnd = next ? next.at : row.status === 'retrying' || row.status === 'pending' ? mark.nextAt : null
    if (waitEnd !== null && waitEnd > mark.at) {
      const left = x(mark.at)
      const right = x(waitEnd)
      pieces.push(<div key={`w${mark.id}`} className={next ? 'wait' : 'wait scheduled'} style={{ left, width: Math.max(0, right - left) }} />)
      if (right - left > 70) {
        pieces.push(
          <div key={`l${mark.id}`} className="wait-label" style={{ left: (left + right) / 2 }}>
            {formatDuration(waitEnd - mark.at)}
          </div>,
        )
      }
      if (!next) {
        pieces.push(
          <div key="next" className="mark pending" style={{ left: right }} title={`next attempt at ${formatClock(waitEnd)}`}>
            {mark.n + 1}
          </div>,
        )
      }
    }
    pieces.push(
      <button
        type="button"
        key={`m${mark.id}`}
        className={`mark ${mark.tone}${selectedMark === mark.id ? ' selected' : ''}`}
        style={{ left: x(mark.at) }}
        data-tone={mark.tone}
        title={`#${mark.n} ${mark.label} at ${formatClock(mark.at)}${mark.durationMs !== null ? `, ${formatDuration(mark.durationMs)}` : ''}`}
        onClick={(event) => {
          event.stopPropagation()
          select({ kind: mark.kind, id: mark.id })
        }}
      >
        {mark.label}
      </button>,
    )
    // Forward mode: under each mark, whether the app saw it and what it answered.
    if (forwarded) {
      pieces.push(
        <div key={`a${mark.id}`} className={`app-saw ${mark.app?.tone ?? 'none'}`} style={{ left: x(mark.at) }} data-testid="app-saw" title={mark.app ? mark.app.label : 'not forwarded to your app'}>
          {mark.app ? mark.app.label : 'not forwarded'}
        </div>,
      )
    }
  })
  return (
    <div
      className={`tl-row${selected ? ' selected' : ''}${picked ? ' picked' : ''}${forwarded ? ' forwarded' : ''}`}
      style={{ top }}
      onClick={(event) => (event.ctrlKey || event.metaKey ? togglePicked(row.key) : select())}
      data-picked={picked || undefined}
      data-testid="timeline-row"
      data-key={row.key}
      data-event-id={row.eventId}
      data-status={row.status}
      data-attempts={row.attempts}
    >
      <div className="tl-meta">
        <StatusBadge status={row.status} />
        <div className="ids">
          <span className="id ellipsis" title={row.eventId}>
            {row.eventId}
          </span>
          <span className="type ellipsis">
            {row.eventType || (row.kind === 'received' ? 'received' : '—')} · {row.attempts} {row.kind === 'delivery' ? 'attempt' : 'request'}
            {row.attempts === 1 ? '' : 's'}
          </span>
        </div>
        <RowMarks row={row} verdict={verdict} />
      </div>
      <div className="tl-track">
        {ticks.map((t) => (
          <div key={t} className="tl-grid" style={{ left: window ? ((t - window.start) / span) * width : 0 }} />
        ))}
        {pieces}
      </div>
    </div>
  )
})
