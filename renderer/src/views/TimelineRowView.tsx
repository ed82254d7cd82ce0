// One timeline row: its event on the left, its marks on the track at their times on the row's
// clock, the waits between them, and (forward mode) what the app made of each request. Labels
// are laid out so none covers another: marks one pill would cover are one mark with a count
// ("503 ×3"), a mark whose label has no room shows as a dot (a counted one as "×3"), and an app
// line with no room is left out (all stay in the mark's tooltip).
import { rowEventIdTitle, rowEventIds } from '../lib/event-ids'
import { memo } from 'react'
import type { RowClock, TimelineMark, TimelineRow } from '../../../shared/contract'
import { togglePicked, useApp, type TimeWindow } from '../state'
import { formatClock, formatDuration, formatSincePrecise } from '../lib/format'
import { crowdedRuns, layoutLabels, pillWidth } from '../lib/label-layout'
import { RowMarks, StatusBadge } from './badges'

export interface RowProps {
  row: TimelineRow
  top: number
  selected: boolean
  selectedMark: number | null
  window: TimeWindow | null
  width: number
  relative: boolean
  ticks: number[]
  /** Expected attempt times (sender check): faint marks beside the real ones. */
  ghosts: number[] | undefined
  /** Picked for export (Ctrl/⌘-click). */
  picked: boolean
  /** The row's endpoint forwards to an app (a mark without a leg then says "not forwarded"). */
  forwarding: boolean
}

/** A moment on a row's clock in words: the wall time, or time since its simulation started. */
export function momentOn(clock: RowClock, at: number): string {
  return clock.kind === 'wall' ? formatClock(at) : `${formatSincePrecise(at - clock.startedAt)} simulated`
}

export interface MarkPlace {
  /** A pill with the label, a pill with the short label (a counted mark's "×3"), a dot, or not drawn. */
  shape: 'pill' | 'short' | 'dot' | 'hidden'
  /** 0 = the main line; 1 = the line under it, for marks crowding the one before. */
  lane: number
  /** Where the mark is drawn (its time's x, or right of it when the marks before took that place). */
  x: number
}

/** What a drawn mark covers along the line, in px (a pill is drawn 9 px left of its x, a dot 6). */
export function markSpan(place: MarkPlace, label: string, short?: string | null): { start: number; end: number } {
  if (place.shape === 'pill') return { start: place.x - 9, end: place.x - 9 + pillWidth(label) }
  if (place.shape === 'short') return { start: place.x - 9, end: place.x - 9 + pillWidth(short ?? '') }
  return { start: place.x - 6, end: place.x + 6 }
}

/**
 * How each mark is drawn so that no two cover each other and every attempt stays on screen: a
 * pill with its label on the first lane with room, else a dot, else just right of the marks that
 * took its place (a leader line joins it to its time). A counted mark ("503 ×3") is never a bare
 * dot: with no room at its time it moves right as its short label ("×3"), keeping its count. Only a mark that would land past `max`
 * (hundreds of different marks at one moment at this zoom) is not drawn: the mark before it says
 * in its tooltip how many more it hides, and the inspector lists every one. A row whose app lines
 * take the space under its marks has one lane.
 */
export function markShapes(xs: readonly number[], labels: readonly string[], lanes = 2, max = Number.POSITIVE_INFINITY, shorts: readonly (string | null)[] = []): MarkPlace[] {
  const ends: number[] = Array.from({ length: lanes }, () => Number.NEGATIVE_INFINITY)
  const gap = 2
  return xs.map((x, i) => {
    const short = shorts[i] ?? null
    // Each way to draw the mark at its own time: its shape, how far left of its x it starts, its
    // width. A counted mark is never a bare dot (its count would be lost): it moves instead.
    const ways: [MarkPlace['shape'], number, number][] = [['pill', 9, pillWidth(labels[i] ?? '')], ...(short === null ? [['dot', 6, 12] as [MarkPlace['shape'], number, number]] : [])]
    for (const [shape, left, width] of ways) {
      const lane = ends.findIndex((end) => x - left >= end + gap)
      if (lane !== -1) {
        ends[lane] = x - left + width
        return { shape, lane, x }
      }
    }
    // Moved right of the marks that took its place: a counted mark as its short "×3", any other as a dot.
    const [shape, left, width]: [MarkPlace['shape'], number, number] = short === null ? ['dot', 6, 12] : ['short', 9, pillWidth(short)]
    const lane = ends.indexOf(Math.min(...ends))
    const moved = (ends[lane] as number) + gap + left
    if (moved > max) return { shape: 'hidden', lane: 0, x }
    ends[lane] = moved - left + width
    return { shape, lane, x: moved }
  })
}

/** Which app lines fit under their marks (at the x each mark is drawn) without covering one another. */
export function appLinesShown(xs: readonly number[], texts: readonly string[]): boolean[] {
  return layoutLabels(xs.map((x, i) => ({ x: x - 9, width: appLineWidth(texts[i] ?? '') })), 1, 4).map((lane) => lane !== -1)
}

const appLineWidth = (text: string) => pillWidth(text, 5.6, 10)

/**
 * What the drawn pieces of each mark cover along the line: the mark, and its app line when shown
 * (a wait label sits between the two lines, so it must clear both). Hidden marks cover nothing.
 */
export function pieceSpans(places: readonly MarkPlace[], labels: readonly string[], appTexts: readonly string[], appShown: readonly boolean[], shorts: readonly (string | null)[] = []): ({ start: number; end: number } | null)[] {
  return places.map((place, i) => {
    if (place.shape === 'hidden') return null
    const span = markSpan(place, labels[i] ?? '', shorts[i])
    return appShown[i] ? { start: span.start, end: Math.max(span.end, place.x - 9 + appLineWidth(appTexts[i] ?? '')) } : span
  })
}

/**
 * Whether the words of the wait after mark `i`, centred at `mid` and `width` wide, stand clear of
 * every drawn piece: those of mark `i` and before end left of it, those after start right of it.
 */
export function waitLabelFits(spans: readonly ({ start: number; end: number } | null)[], i: number, mid: number, width: number, gap = 2): boolean {
  const from = mid - width / 2
  const to = mid + width / 2
  return spans.every((span, j) => span === null || (j <= i ? span.end + gap <= from : to + gap <= span.start))
}

function markTitle(mark: TimelineMark, clock: RowClock): string {
  const when = momentOn(clock, mark.at)
  const wall = mark.wallAt !== undefined && mark.wallAt !== mark.at ? ` · sent ${formatClock(mark.wallAt)} wall` : ''
  const app = mark.app ? ` · ${mark.app.label}` : ''
  return `#${mark.n} ${mark.label} at ${when}${wall}${mark.durationMs !== null && !(mark.durationMs === 0 && clock.kind === 'simulated' && clock.mode === 'virtual') ? `, ${formatDuration(mark.durationMs)}` : ''}${app}`
}

/** Marks drawn as one: a lone mark, or a run of same-label marks one pill would cover, with its count. */
export interface MarkGroup {
  marks: TimelineMark[]
  /** Where the group is at: its first mark's x. */
  x: number
  /** "503", or "503 ×3" for a run of three. */
  label: string
  /** A run's count alone ("×3"), drawn when the label has no room; null for a lone mark. */
  short: string | null
}

/** The row's marks as drawn: runs that one pill would cover become one counted mark (`crowdedRuns`). */
export function markGroups(marks: readonly TimelineMark[], xs: readonly number[]): MarkGroup[] {
  return crowdedRuns(xs, marks.map((m) => m.label)).map(([first, last]) => {
    const run = marks.slice(first, last + 1)
    const head = run[0] as TimelineMark
    const n = run.length
    return { marks: run, x: xs[first] ?? 0, label: n > 1 ? `${head.label} ×${n}` : head.label, short: n > 1 ? `×${n}` : null }
  })
}

/** What the app made of a group's requests: one line when they agree, else how many it saw. */
function appText(group: MarkGroup): string {
  const texts = group.marks.map((m) => (m.app ? m.app.label : 'not forwarded'))
  if (texts.every((t) => t === texts[0])) return texts[0] ?? 'not forwarded'
  return `app: saw ${group.marks.filter((m) => m.app).length} of ${group.marks.length}`
}

export const TimelineRowView = memo(function TimelineRowView({ row, top, selected, selectedMark, window, width, relative, ticks, ghosts, picked, forwarding }: RowProps) {
  const origin = relative ? row.firstAt : 0
  const span = window ? window.end - window.start : 1
  const x = (t: number) => (window ? ((t - origin - window.start) / span) * width : 0)
  const select = (mark?: { kind: 'attempt' | 'request'; id: number }) => useApp.setState({ selection: { rowKey: row.key, mark } })
  const pieces: React.ReactNode[] = []
  const forwarded = forwarding || row.marks.some((m) => m.app !== undefined)
  const groups = markGroups(row.marks, row.marks.map((m) => x(m.at)))
  const labels = groups.map((g) => g.label)
  const shorts = groups.map((g) => g.short)
  const places = markShapes(groups.map((g) => g.x), labels, forwarded ? 1 : 2, width, shorts)
  const drawnXs = places.map((p) => p.x)
  const stacked = places.some((p) => p.lane > 0)
  const appTexts = groups.map(appText)
  const appShown = forwarded ? appLinesShown(drawnXs, appTexts).map((shown, i) => shown && places[i]?.shape !== 'hidden') : []
  const spans = pieceSpans(places, labels, appTexts, appShown, shorts)
  ghosts?.forEach((at, i) => {
    pieces.push(<div key={`g${i}`} className="ghost" style={{ left: x(at) }} title={`expected attempt ${i + 1} at ${momentOn(row.clock, at)}`} data-testid="ghost" />)
  })
  groups.forEach((group, i) => {
    const first = group.marks[0] as TimelineMark
    const mark = group.marks[group.marks.length - 1] as TimelineMark
    const next = groups[i + 1]?.marks[0]
    const waitEnd = next ? next.at : row.status === 'retrying' || row.status === 'pending' ? mark.nextAt : null
    if (waitEnd !== null && waitEnd > mark.at) {
      const left = x(mark.at)
      const right = x(waitEnd)
      pieces.push(<div key={`w${mark.id}`} className={next ? 'wait' : 'wait scheduled'} style={{ left, width: Math.max(0, right - left) }} />)
      // The wait in words, centred between the marks, only where it clears every mark and app line.
      const words = formatDuration(waitEnd - mark.at)
      const mid = (left + right) / 2
      if (waitLabelFits(spans, i, mid, words.length * 6)) {
        pieces.push(
          <div key={`l${mark.id}`} className="wait-label" style={{ left: mid }}>
            {words}
          </div>,
        )
      }
      // The scheduled next attempt, where it stands clear of every drawn piece.
      if (!next && waitLabelFits(spans, i, right, 18)) {
        pieces.push(
          <div key="next" className="mark pending" style={{ left: right }} title={`next attempt at ${momentOn(row.clock, waitEnd)}`}>
            {mark.n + 1}
          </div>,
        )
      }
    }
    const place = places[i]
    if (!place || place.shape === 'hidden') return
    const dot = place.shape === 'dot'
    const count = group.marks.length
    // A mark drawn right of its time: a leader line back to the moment it stands for.
    const at = group.x
    if (place.x > at + 0.5) pieces.push(<div key={`k${first.id}`} className="leader" style={{ left: at, width: place.x - at }} />)
    let hides = 0
    for (let j = i + 1; places[j]?.shape === 'hidden'; j++) hides += groups[j]?.marks.length ?? 0
    const what = row.kind === 'delivery' ? 'attempts' : 'requests'
    const title = count > 1 ? `${count} ${what}, too close to tell apart at this zoom (click again for the next):\n${group.marks.map((m) => markTitle(m, row.clock)).join('\n')}` : markTitle(first, row.clock)
    pieces.push(
      <button
        type="button"
        key={`m${first.id}`}
        className={`mark ${mark.tone}${dot ? ' dot' : ''}${stacked ? ` lane${place.lane}` : ''}${group.marks.some((m) => m.id === selectedMark) ? ' selected' : ''}`}
        style={{ left: place.x }}
        data-tone={mark.tone}
        data-label={first.label}
        data-count={count > 1 ? count : undefined}
        title={`${title}${hides > 0 ? `\n(and ${hides} more at this moment: zoom in, or see them all in the inspector)` : ''}`}
        data-hides={hides || undefined}
        onClick={(event) => {
          event.stopPropagation()
          // A counted mark stands for several: each click on it shows the next of them.
          const at = group.marks.findIndex((m) => m.id === selectedMark)
          const next = group.marks[at < 0 ? 0 : (at + 1) % count] ?? first
          select({ kind: next.kind, id: next.id })
        }}
      >
        {dot ? '' : place.shape === 'short' ? group.short : group.label}
      </button>,
    )
    // Forward mode: under each mark, whether the app saw it and what it answered.
    if (forwarded && appShown[i]) {
      pieces.push(
        <div key={`a${first.id}`} className={`app-saw ${mark.app?.tone ?? 'none'}`} style={{ left: place.x }} data-testid="app-saw" title={group.marks.map((m) => (m.app ? m.app.label : 'not forwarded to your app')).join('\n')}>
          {appTexts[i]}
        </div>,
      )
    }
  })
  const ids = rowEventIds(row)
  return (
    <div
      className={`tl-row${selected ? ' selected' : ''}${picked ? ' picked' : ''}${forwarded ? ' forwarded' : ''}`}
      style={{ top }}
      onClick={(event) => (event.ctrlKey || event.metaKey ? togglePicked(row.key) : select())}
      data-picked={picked || undefined}
      data-testid="timeline-row"
      data-key={row.key}
      data-event-id={row.eventId}
      data-consumer-event-id={row.consumerEventId ?? undefined}
      data-status={row.status}
      data-attempts={row.attempts}
      data-clock={row.clock.kind === 'wall' ? 'wall' : row.clock.simulationId}
    >
      <div className="tl-meta">
        <StatusBadge status={row.status} />
        <div className="ids">
          <span className="id ellipsis" title={rowEventIdTitle(row)} data-testid="row-event-id">
            {ids.shown}
            {ids.hookloop ? <span className="own-id"> · {ids.hookloop}</span> : null}
          </span>
          <span className="type ellipsis">
            {row.eventType || (row.kind === 'received' ? 'received' : '—')} · {row.attempts} {row.kind === 'delivery' ? 'attempt' : 'request'}
            {row.attempts === 1 ? '' : 's'}
          </span>
        </div>
        <RowMarks row={row} />
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
