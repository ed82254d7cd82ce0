// The heart of the UI: one row per delivery (or per dedupe key, receive-only), time left to right,
// each attempt a mark coloured by outcome, the wait to the next attempt drawn between marks.
// Rows on different clocks never share an axis (docs/time.md): with one clock picked the axis is
// that clock's (a simulation reads as time since it started); with all clocks, each clock's rows
// are a group under an axis of their own.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { RowClock, SimulationView, TimelineRow } from '../../../shared/contract'
import { loadMoreRows, useApp, type TimeWindow } from '../state'
import { timeExtent } from '../state/timeline-model'
import { axisOrigin, clockLabel, groupByClock, WALL, type ClockGroup } from '../state/clock-groups'
import { axisTicks, formatDuration, formatSince, wallTickLabels } from '../lib/format'
import { keysOf, type ListKeys } from '../lib/scroll-anchor'
import { NewRowsAbove } from './NewRowsAbove'
import { TimelineRowView } from './TimelineRowView'
import { useElementSize, useVirtualRows } from './use-virtual'

const FIT_SAMPLE = 500
const NO_SIMULATIONS: SimulationView[] = []
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

export interface Axis {
  ticks: number[]
  labels: string[]
}

/** An axis's ticks and their words: wall time (naming the day past midnight), time since a simulation started, or (aligned) time since each row's first attempt. */
export function axisFor(window: TimeWindow | null, clock: RowClock, relative: boolean, width: number): Axis {
  if (!window) return { ticks: [], labels: [] }
  const count = Math.max(2, Math.floor(width / 110))
  if (relative) {
    const ticks = axisTicks(window.start, window.end, count, 0)
    return { ticks, labels: ticks.map((t) => `+${formatDuration(t)}`) }
  }
  const origin = axisOrigin(clock)
  const ticks = axisTicks(window.start, window.end, count, origin)
  return { ticks, labels: origin === undefined ? wallTickLabels(ticks) : ticks.map((t) => formatSince(t - origin)) }
}

type Item = { kind: 'group'; group: ClockGroup } | { kind: 'row'; row: TimelineRow; group: string }

const itemKey = (item: Item) => (item.kind === 'group' ? `clock:${item.group.key}` : item.row.key)

/** The keys of the grouped list, for its scroll: a group's header is an item, not a row. */
function keysOfItems(items: readonly Item[], read: number): ListKeys {
  // Built when first asked (scrolled down, or a row selected), not on every frame of arrivals.
  let index: Map<string, number> | null = null
  const indexOf = (key: string) => (index ??= new Map(items.map((item, i) => [itemKey(item), i]))).get(key)
  return { keyAt: (i) => (items[i] ? itemKey(items[i]) : undefined), indexOf, isRow: (i) => items[i]?.kind === 'row', read }
}

export function Timeline() {
  const timeline = useApp((s) => s.timeline)
  const rows = timeline.rows
  const selectedKey = useApp((s) => s.selection?.rowKey ?? null)
  const selectedMark = useApp((s) => s.selection?.mark?.id ?? null)
  const ghosts = useApp((s) => s.ghosts)
  const picked = useApp((s) => s.picked)
  const relative = useApp((s) => s.relative)
  const pickedClock = useApp((s) => s.filter.clock)
  const simulations = useApp((s) => s.snapshot?.simulations) ?? NO_SIMULATIONS
  const endpoints = useApp((s) => s.snapshot?.endpoints)
  // Endpoints that forward to an app: their rows say under each mark whether the app saw it.
  const forwarding = useMemo(() => new Set((endpoints ?? []).filter((e) => e.forwardTo.length > 0).map((e) => e.id)), [endpoints])
  const groups = useMemo(() => groupByClock(rows, simulations), [rows, simulations])
  const grouped = groups.length > 1
  const items = useMemo<Item[] | null>(
    () => (grouped ? groups.flatMap((g): Item[] => [{ kind: 'group', group: g }, ...g.rows.map((row): Item => ({ kind: 'row', row, group: g.key }))]) : null),
    [grouped, groups],
  )
  const count = items ? items.length : rows.length
  const keys = useMemo(() => (items ? keysOfItems(items, timeline.read) : keysOf(timeline.rows, timeline.index, timeline.read)), [items, timeline])
  const single = useTimeWindow(rows)
  const { viewport, onScroll, first, last, totalHeight, reveal, above, toTop } = useVirtualRows(count, loadMoreRows, keys)
  const axisRef = useRef<HTMLDivElement | null>(null)
  const trackWidth = useElementSize(axisRef, 'clientWidth')
  // The clock of a single-clock view: its rows', else the one picked.
  const onlyGroup = groups[0]
  const clock: RowClock = onlyGroup?.clock ?? (pickedClock && pickedClock !== WALL ? pickedFallback(pickedClock, simulations) : { kind: 'wall' })
  const clockWords = onlyGroup?.label ?? clockLabel(pickedClock ?? WALL, simulations)

  // A row selected (a click, the keyboard, a link to it) is brought into view once it is listed,
  // and once only: the person may then scroll away from it, and rows arriving must not pull the
  // view back to it.
  const revealed = useRef<string | null>(null)
  useEffect(() => {
    if (selectedKey === revealed.current) return
    const i = selectedKey === null ? undefined : keys.indexOf(selectedKey)
    if (selectedKey !== null && i === undefined) return
    if (i !== undefined) reveal(i)
    revealed.current = selectedKey
  }, [selectedKey, reveal, keys])

  // Zoom and pan move one axis: only while a single clock is shown.
  const window = grouped ? null : single
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
  const axis = useMemo(() => axisFor(window, clock, relative, trackWidth), [window, clock.kind, clock.kind === 'simulated' ? clock.startedAt : 0, relative, trackWidth]) // eslint-disable-line react-hooks/exhaustive-deps
  // Grouped: each clock's rows fit on an axis of their own.
  const groupAxes = useMemo(() => {
    const out = new Map<string, { window: TimeWindow | null; axis: Axis }>()
    if (!grouped) return out
    for (const g of groups) {
      const fit = timeExtent(g.rows.slice(0, FIT_SAMPLE), relative)
      out.set(g.key, { window: fit, axis: axisFor(fit, g.clock, relative, trackWidth) })
    }
    return out
  }, [grouped, groups, relative, trackWidth])
  const span = window ? window.end - window.start : 1
  const x = (t: number) => (window ? ((t - window.start) / span) * trackWidth : 0)

  const rowView = (row: TimelineRow, top: number, rowWindow: TimeWindow | null, ticks: number[]) => (
    <TimelineRowView
      key={row.key}
      row={row}
      top={top}
      selected={row.key === selectedKey}
      selectedMark={row.key === selectedKey ? selectedMark : null}
      window={rowWindow}
      width={trackWidth}
      relative={relative}
      ticks={ticks}
      ghosts={ghosts.get(row.eventId)}
      picked={picked.has(row.key)}
      forwarding={row.endpointId !== null && forwarding.has(row.endpointId)}
    />
  )

  const visible: React.ReactNode[] = []
  for (let i = first; i < last; i++) {
    const top = i * 40
    if (items) {
      const item = items[i]
      if (!item) continue
      const own = groupAxes.get(item.kind === 'group' ? item.group.key : item.group)
      if (item.kind === 'group') visible.push(<GroupHeader key={itemKey(item)} group={item.group} top={top} window={own?.window ?? null} axis={own?.axis ?? { ticks: [], labels: [] }} width={trackWidth} />)
      else visible.push(rowView(item.row, top, own?.window ?? null, own?.axis.ticks ?? []))
    } else {
      const row = rows[i]
      if (row) visible.push(rowView(row, top, window, axis.ticks))
    }
  }

  return (
    <div className="tl" onWheel={onWheel} data-testid="timeline">
      <div className="tl-head">
        <div className="label" data-testid="timeline-clock" data-clock={grouped ? 'all' : clock.kind === 'wall' ? WALL : clock.simulationId} title="The clock the times on this axis are read on">
          {grouped ? 'Every clock · grouped, one axis each' : clockWords}
        </div>
        <div
          className="tl-axis"
          ref={axisRef}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          style={{ cursor: grouped ? 'default' : 'grab' }}
          title={grouped ? 'Pick a clock above to zoom and pan its axis' : 'Drag to pan, Ctrl + wheel to zoom'}
          data-testid="timeline-axis"
        >
          {grouped ? (
            <div className="tick" style={{ left: 0, borderLeft: 'none' }}>
              Rows on different clocks are not comparable: each group below has its own axis
            </div>
          ) : (
            axis.ticks.map((t, i) => (
              <div key={t} className="tick" style={{ left: x(t) }} data-testid="axis-tick">
                {axis.labels[i]}
              </div>
            ))
          )}
        </div>
      </div>
      <div className="tl-list">
        <NewRowsAbove count={above} onShow={toTop} />
        <div className="tl-viewport" ref={viewport} onScroll={onScroll} data-testid="timeline-viewport">
          <div style={{ height: totalHeight, position: 'relative' }}>{visible}</div>
        </div>
      </div>
    </div>
  )
}

function pickedFallback(id: string, simulations: readonly SimulationView[]): RowClock {
  const s = simulations.find((sim) => sim.id === id)
  return s ? { kind: 'simulated', simulationId: s.id, mode: s.mode, startedAt: s.startedAt } : { kind: 'wall' }
}

function GroupHeader({ group, top, window, axis, width }: { group: ClockGroup; top: number; window: TimeWindow | null; axis: Axis; width: number }) {
  const span = window ? window.end - window.start : 1
  return (
    <div className="tl-group" style={{ top }} data-testid="clock-group" data-clock={group.key}>
      <div className="label">
        <strong>{group.label}</strong>
        <span className="hint">
          {' '}
          · {group.rows.length.toLocaleString()} row{group.rows.length === 1 ? '' : 's'} loaded
        </span>
      </div>
      <div className="tl-axis">
        {axis.ticks.map((t, i) => (
          <div key={t} className="tick" style={{ left: window ? ((t - window.start) / span) * width : 0 }} data-testid="axis-tick">
            {axis.labels[i]}
          </div>
        ))}
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
